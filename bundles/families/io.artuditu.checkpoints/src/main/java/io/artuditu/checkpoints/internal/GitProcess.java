package io.artuditu.checkpoints.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code git} binary: an argument vector (never a shell line), in a given
 * folder, with {@code GIT_TERMINAL_PROMPT=0}, no askpass program, no optional locks, and none
 * of the server's own {@code GIT_DIR}-style variables (they describe the server's environment,
 * not the workspace). Standard input, output and error go through temporary files, so no
 * thread is needed to drain them; a process still running after {@link #TIMEOUT_MS} is killed.
 * Output is read up to {@link #MAX_OUTPUT} bytes.
 */
final class GitProcess {
    /** Longest one git command may run. */
    static final long TIMEOUT_MS = 60_000;
    /** Most bytes of standard output read back. */
    static final int MAX_OUTPUT = 16 << 20;
    /** Most bytes of standard error kept for a message. */
    static final int MAX_ERROR = 4096;
    /** Variables of the server's environment that would point git somewhere else. */
    private static final List<String> DROPPED = List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX",
            "GIT_COMMON_DIR", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR");

    /** What a finished command left: its exit status, its output (maybe cut) and the start of its error. */
    record Result(int exit, byte[] out, boolean outCut, String err) {
        String text() {
            return new String(out, StandardCharsets.UTF_8).strip();
        }

        boolean ok() {
            return exit == 0;
        }
    }

    /** A git command failed (non-zero, killed, or could not start). */
    static final class Failed extends IOException {
        private static final long serialVersionUID = 1L;
        final int exit;

        Failed(String message, int exit) {
            super(message);
            this.exit = exit;
        }
    }

    private final Path scratch;

    /** @param scratch a folder for the temporary standard input/output files (created when missing) */
    GitProcess(Path scratch) {
        this.scratch = scratch;
    }

    /** Runs {@code git args…} in {@code dir}; any exit status is returned. */
    Result run(Path dir, Map<String, String> env, byte[] stdin, String... args) throws IOException {
        Files.createDirectories(scratch);
        List<String> argv = new ArrayList<>(args.length + 1);
        argv.add("git");
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
        Map<String, String> e = pb.environment();
        DROPPED.forEach(e::remove);
        e.put("GIT_TERMINAL_PROMPT", "0");
        e.put("GIT_OPTIONAL_LOCKS", "0");
        e.put("LC_ALL", "C");
        e.putAll(env);
        Path in = null;
        Path out = Files.createTempFile(scratch, "git-out", ".tmp");
        Path err = Files.createTempFile(scratch, "git-err", ".tmp");
        try {
            if (stdin != null) {
                in = Files.createTempFile(scratch, "git-in", ".tmp");
                Files.write(in, stdin);
                pb.redirectInput(in.toFile());
            } else {
                pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            }
            pb.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process p = pb.start();
            boolean done;
            try {
                done = p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ie) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new Failed("interrupted while git " + args[0] + " ran", -1);
            }
            if (!done) {
                p.destroyForcibly();
                throw new Failed("git " + args[0] + " did not finish in " + TIMEOUT_MS / 1000 + " s and was killed", -1);
            }
            byte[] o = head(out, MAX_OUTPUT + 1);
            boolean cut = o.length > MAX_OUTPUT;
            if (cut) {
                o = java.util.Arrays.copyOf(o, MAX_OUTPUT);
            }
            String m = new String(head(err, MAX_ERROR), StandardCharsets.UTF_8).strip();
            return new Result(p.exitValue(), o, cut, m);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            if (in != null) {
                Files.deleteIfExists(in);
            }
        }
    }

    /** Runs a command that must succeed. */
    Result check(Path dir, Map<String, String> env, byte[] stdin, String... args) throws IOException {
        Result r = run(dir, env, stdin, args);
        if (!r.ok()) {
            throw new Failed("git " + args[0] + " failed (exit " + r.exit() + "): " + r.err(), r.exit());
        }
        return r;
    }

    private static byte[] head(Path f, int max) throws IOException {
        try (InputStream s = Files.newInputStream(f)) {
            return s.readNBytes(max);
        }
    }
}

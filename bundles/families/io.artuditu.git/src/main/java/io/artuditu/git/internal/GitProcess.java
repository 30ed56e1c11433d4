package io.artuditu.git.internal;

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
 * Runs the real {@code git} binary once: an argument vector (never a shell), in the worktree
 * root, with stdin closed, no terminal prompt and no askpass, {@code protocol.ext.allow=never},
 * stdout and stderr merged and only the last {@link Limits#outputCap} bytes kept. The process
 * (and its children) is killed after {@link Limits#silenceMillis} without output or
 * {@link Limits#totalMillis} in all, and when the running thread is interrupted.
 *
 * <p>Runs on the calling thread, polling the output every 20 ms (no second thread).
 */
final class GitProcess {
    /**
     * The limits of one git process.
     *
     * @param silenceMillis killed after this long without a byte of output
     * @param totalMillis   killed after this long in all
     * @param outputCap     bytes of output kept (the last ones)
     */
    record Limits(long silenceMillis, long totalMillis, int outputCap) {
        static final Limits DEFAULT = new Limits(120_000, 600_000, 64 * 1024);
    }

    /**
     * How a process ended.
     *
     * @param exitCode its exit status; null when it was killed
     * @param output   the last bytes of its output, as UTF-8 (malformed bytes replaced)
     * @param killed   why it was killed ({@code silence}, {@code total}, {@code interrupted}), or null
     */
    record Outcome(Integer exitCode, String output, String killed) {
        boolean ok() {
            return exitCode != null && exitCode == 0;
        }
    }

    /** A program that fails at once, given as the askpass helpers; null when none is found. */
    static final String FALSE = findFalse();

    private GitProcess() {
    }

    private static String findFalse() {
        for (String p : List.of("/usr/bin/false", "/bin/false")) {
            if (Files.isExecutable(Path.of(p))) {
                return p;
            }
        }
        return null;
    }

    /** The command line: git, the global options every operation carries, then {@code args}. */
    static List<String> command(List<String> args, boolean literalPathspecs) {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "protocol.ext.allow=never", "-c", "core.askPass="));
        if (literalPathspecs) {
            cmd.add("--literal-pathspecs");
        }
        cmd.addAll(args);
        return cmd;
    }

    /** Sets the environment every git process gets. */
    static void environment(Map<String, String> env) {
        // the server's own repository variables describe the server, not the workspace
        for (String v : List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES",
                "GIT_PREFIX", "GIT_EXEC_PATH_OVERRIDE", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_SEQUENCE_EDITOR")) {
            env.remove(v);
        }
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.put("GIT_EDITOR", "true");
        env.put("GIT_SEQUENCE_EDITOR", "true");
        env.put("GIT_MERGE_AUTOEDIT", "no");
        env.put("GCM_INTERACTIVE", "never");
        if (FALSE != null) {
            // a prompt that would need an answer fails at once, also ssh's (OpenSSH 8.4+ with force)
            env.put("GIT_ASKPASS", FALSE);
            env.put("SSH_ASKPASS", FALSE);
            env.put("SSH_ASKPASS_REQUIRE", "force");
        }
    }

    /**
     * Runs {@code git <global options> args} in {@code dir} and waits for it within the limits.
     *
     * @throws IOException when git cannot be started
     */
    static Outcome run(Path dir, List<String> args, boolean literalPathspecs, Limits limits) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command(args, literalPathspecs)).directory(dir.toFile())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(devNull()));
        environment(pb.environment());
        Process p = pb.start();
        Tail tail = new Tail(limits.outputCap());
        InputStream out = p.getInputStream();
        long start = System.nanoTime();
        long lastOutput = start;
        String killed = null;
        byte[] buf = new byte[8192];
        try {
            while (true) {
                boolean exited = p.waitFor(20, TimeUnit.MILLISECONDS);
                int n;
                while ((n = Math.min(out.available(), buf.length)) > 0) {
                    int r = out.read(buf, 0, n);
                    if (r <= 0) {
                        break;
                    }
                    tail.add(buf, r);
                    lastOutput = System.nanoTime();
                }
                if (exited) {
                    break;
                }
                long now = System.nanoTime();
                if (now - lastOutput >= TimeUnit.MILLISECONDS.toNanos(limits.silenceMillis())) {
                    killed = "silence";
                } else if (now - start >= TimeUnit.MILLISECONDS.toNanos(limits.totalMillis())) {
                    killed = "total";
                }
                if (killed != null) {
                    kill(p);
                    break;
                }
            }
        } catch (InterruptedException e) {
            killed = "interrupted";
            kill(p);
            Thread.currentThread().interrupt();
        } finally {
            out.close();
        }
        return new Outcome(killed == null ? p.exitValue() : null, tail.text(), killed);
    }

    private static java.io.File devNull() {
        return new java.io.File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** SIGTERM to the process and its descendants (git removes its lock files), SIGKILL after 1 s. */
    static void kill(Process p) {
        List<ProcessHandle> all = new ArrayList<>();
        p.descendants().forEach(all::add);
        all.add(p.toHandle());
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (ProcessHandle h : all) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    h.onExit().get(left, TimeUnit.NANOSECONDS);
                }
            } catch (Exception e) {
                // still alive: forced below
            }
            if (h.isAlive()) {
                h.destroyForcibly();
            }
        }
    }

    /** The last {@code cap} bytes written. */
    static final class Tail {
        private final byte[] ring;
        private long written;

        Tail(int cap) {
            ring = new byte[cap];
        }

        void add(byte[] b, int n) {
            for (int i = 0; i < n; i++) {
                ring[(int) (written++ % ring.length)] = b[i];
            }
        }

        String text() {
            int len = (int) Math.min(written, ring.length);
            byte[] out = new byte[len];
            long from = written - len;
            for (int i = 0; i < len; i++) {
                out[i] = ring[(int) ((from + i) % ring.length)];
            }
            return new String(out, StandardCharsets.UTF_8);
        }
    }
}

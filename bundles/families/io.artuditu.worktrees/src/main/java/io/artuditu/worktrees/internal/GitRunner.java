package io.artuditu.worktrees.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code git} binary: an argument vector (never a shell line), in a folder,
 * with {@code GIT_TERMINAL_PROMPT=0} and no askpass, so nothing ever waits for a password;
 * killed after {@link #TIMEOUT_MS}. Standard output and error are read on a second thread
 * (so a full pipe never stalls the process) and kept up to {@link #MAX_OUTPUT} bytes each.
 * Called on the family's worker only.
 */
final class GitRunner {
    /** Longest one git command may run. */
    static final long TIMEOUT_MS = 120_000;
    /** Most bytes kept of each of stdout and stderr. */
    static final int MAX_OUTPUT = 4 << 20;

    private final String git;

    GitRunner(String git) {
        this.git = git;
    }

    GitRunner() {
        this("git");
    }

    /** What a command did: its exit status (-1: killed on the deadline) and its output. */
    record Result(int status, String out, String err, boolean truncated) {
        boolean ok() {
            return status == 0;
        }
    }

    Result run(Path dir, String... args) throws IOException {
        return run(dir, Map.of(), TIMEOUT_MS, args);
    }

    /** Runs {@code git args…} in {@code dir}; a non-zero status is a result, not an exception. */
    Result run(Path dir, Map<String, String> extraEnv, long timeoutMs, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(args.length + 1);
        cmd.add(git);
        cmd.addAll(List.of(args));
        return exec(cmd, dir, extraEnv, timeoutMs, MAX_OUTPUT, null);
    }

    /** Runs any argv with git's safe environment (the setup script too), {@code stdin} fed to it (null: /dev/null). */
    static Result exec(List<String> cmd, Path dir, Map<String, String> extraEnv, long timeoutMs, int maxOutput,
            byte[] stdin) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        Map<String, String> env = pb.environment();
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.remove("GIT_ASKPASS");
        env.remove("SSH_ASKPASS");
        env.put("GIT_SSH_COMMAND", "ssh -o BatchMode=yes");
        // the server's own repository variables describe the server, not this folder
        env.remove("GIT_DIR");
        env.remove("GIT_WORK_TREE");
        env.remove("GIT_INDEX_FILE");
        env.remove("GIT_COMMON_DIR");
        env.putAll(extraEnv);
        if (stdin == null) {
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        Process p = pb.start();
        Drain out = new Drain(p.getInputStream(), maxOutput);
        Drain err = new Drain(p.getErrorStream(), maxOutput);
        Thread t = new Thread(err, "worktrees-git-stderr");
        t.setDaemon(true);
        t.start();
        Thread o = new Thread(out, "worktrees-git-stdout");
        o.setDaemon(true);
        o.start();
        if (stdin != null) {
            try (var in = p.getOutputStream()) {
                in.write(stdin);
            } catch (IOException closedEarly) {
                // the process did not read all of it: its exit status says what happened
            }
        }
        boolean done;
        try {
            done = p.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
            o.join(5_000);
            t.join(5_000);
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + cmd.get(0) + " ran", e);
        }
        return new Result(done ? p.exitValue() : -1, out.text(), err.text(), out.truncated || err.truncated);
    }

    /** Reads a stream to its end, keeping the first {@code max} bytes. */
    private static final class Drain implements Runnable {
        private final InputStream in;
        private final int max;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        volatile boolean truncated;

        Drain(InputStream in, int max) {
            this.in = in;
            this.max = max;
        }

        @Override
        public void run() {
            byte[] b = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(b)) >= 0) {
                    int room = max - kept.size();
                    if (room > 0) {
                        kept.write(b, 0, Math.min(room, n));
                    }
                    if (n > room) {
                        truncated = true;
                    }
                }
            } catch (IOException closed) {
                // the process was killed: what was read is kept
            }
        }

        synchronized String text() {
            return kept.toString(StandardCharsets.UTF_8);
        }
    }
}

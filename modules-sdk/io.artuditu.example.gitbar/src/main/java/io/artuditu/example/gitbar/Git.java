package io.artuditu.example.gitbar;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code git -C DIR status --porcelain=v2 --branch}, bounded in time. Its output goes
 * to a file rather than a pipe: a pipe nobody reads while we wait would stop git at 64 KiB,
 * and reading it would need a second thread. Not thread safe: one caller at a time (the
 * module's scheduler).
 */
final class Git {
    static final long TIMEOUT_MS = 5_000;

    private final Path out;

    /** {@code out}: the file each run's output replaces. */
    Git(Path out) {
        this.out = out;
    }

    /**
     * The state of the working tree at {@code dir}; null when it is not inside one (or git
     * is missing, or failed). An interrupt (the module going away) kills git and is passed on.
     *
     * @throws IOException when git did not finish within {@link #TIMEOUT_MS}
     */
    GitStatus status(Path dir) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("git", "-C", dir.toString(), "status", "--porcelain=v2", "--branch")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        // Polling must never take index.lock away from the user's own git commands.
        pb.environment().put("GIT_OPTIONAL_LOCKS", "0");
        Process p;
        try {
            p = pb.start();
        } catch (IOException noGit) {
            return null;
        }
        try {
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                kill(p);
                throw new IOException("git status in " + dir + " took longer than " + TIMEOUT_MS + " ms");
            }
        } catch (InterruptedException e) {
            kill(p);
            throw e;
        }
        if (p.exitValue() != 0) {
            return null;
        }
        try (BufferedReader in = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
            return GitStatus.parse(in);
        }
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }
}

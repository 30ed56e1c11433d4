package io.artuditu.files.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Which names of one folder git ignores: {@code git check-ignore -z --stdin} run in that
 * folder, so every {@code .gitignore} on the way, {@code .git/info/exclude} and the user's
 * global excludes count, and a tracked file is never "ignored". Outside a repository, when
 * git is missing, fails or runs past {@link #TIMEOUT_MS}, nothing is ignored. Names go in
 * batches of at most {@link #BATCH_BYTES}, so neither pipe can fill while the other waits.
 * Runs on the files worker only.
 */
final class GitIgnored {
    static final long TIMEOUT_MS = 5_000;
    static final int BATCH_BYTES = 8 * 1024;

    private GitIgnored() {
    }

    static Set<String> of(Path folder, List<String> names) {
        Set<String> out = new HashSet<>();
        List<String> batch = new ArrayList<>();
        int bytes = 0;
        for (String n : names) {
            int b = n.getBytes(StandardCharsets.UTF_8).length + 1;
            if (!batch.isEmpty() && bytes + b > BATCH_BYTES) {
                if (!run(folder, batch, out)) {
                    return Set.of();
                }
                batch.clear();
                bytes = 0;
            }
            batch.add(n);
            bytes += b;
        }
        if (!batch.isEmpty() && !run(folder, batch, out)) {
            return Set.of();
        }
        return out;
    }

    /** One batch; false when git cannot answer here (no repository, no git): nothing is ignored. */
    private static boolean run(Path folder, List<String> batch, Set<String> out) {
        ProcessBuilder pb = new ProcessBuilder("git", "check-ignore", "-z", "--stdin").directory(folder.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("GIT_TERMINAL_PROMPT", "0");
        pb.environment().put("GIT_OPTIONAL_LOCKS", "0");
        Process p;
        try {
            p = pb.start();
        } catch (IOException noGit) {
            return false;
        }
        try {
            try (OutputStream in = p.getOutputStream()) {
                for (String n : batch) {
                    in.write(n.getBytes(StandardCharsets.UTF_8));
                    in.write(0);
                }
            }
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (InputStream o = p.getInputStream()) {
                o.transferTo(buf);
            }
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                return false;
            }
            int rc = p.exitValue();
            if (rc != 0 && rc != 1) { // 1: none of them is ignored
                return false;
            }
            for (String s : buf.toString(StandardCharsets.UTF_8).split("\0")) {
                if (!s.isEmpty()) {
                    out.add(s);
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            p.destroyForcibly();
        }
    }
}

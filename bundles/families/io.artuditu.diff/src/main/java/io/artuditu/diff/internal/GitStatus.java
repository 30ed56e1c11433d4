package io.artuditu.diff.internal;

import java.io.File;
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
 * The working-tree status from the real {@code git} binary:
 * {@code git --no-optional-locks -c core.quotePath=false status --porcelain=v2 -z
 * --untracked-files=all --ignore-submodules=dirty}, run with an argument vector (no shell) in
 * the working tree, stdin {@code /dev/null}, {@code GIT_TERMINAL_PROMPT=0} and every other
 * {@code GIT_*} variable of the server removed (so the server's own repository settings never
 * redirect it). Its output goes to a temporary file (no pipe to drain, so no deadlock) of at
 * most {@link #MAX_OUTPUT_BYTES}: beyond that, or after {@link #TIME_LIMIT_MS}, the process is
 * killed; past the size limit the records read so far are kept and the result is truncated.
 * Runs on the diff family's {@code diff-scan} worker only.
 */
final class GitStatus {
    static final long MAX_OUTPUT_BYTES = 64L * 1024 * 1024;
    static final long TIME_LIMIT_MS = 60_000;
    /** How much of git's error output a failure quotes. */
    static final int MAX_ERROR_CHARS = 1_000;

    /** One porcelain v2 entry. {@code kind}: 1 ordinary, 2 renamed/copied, u unmerged, ? untracked. */
    record Entry(char kind, char x, char y, String path, String origPath, String[] ids) {
        /** The blob id in column {@code i} of {@link #ids}, or null for the zero id (no such side). */
        String id(int i) {
            String h = ids[i];
            return h.chars().allMatch(c -> c == '0') ? null : h;
        }
    }

    record Result(List<Entry> entries, boolean truncated) {
    }

    private GitStatus() {
    }

    static List<String> command() {
        return List.of("git", "--no-optional-locks", "-c", "core.quotePath=false", "status", "--porcelain=v2", "-z",
                "--untracked-files=all", "--ignore-submodules=dirty");
    }

    static Result run(Path root) throws IOException {
        Path out = Files.createTempFile("artuditu-status", ".out");
        Path err = Files.createTempFile("artuditu-status", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command()).directory(root.toFile());
            Map<String, String> env = pb.environment();
            env.keySet().removeIf(k -> k.startsWith("GIT_"));
            env.put("GIT_TERMINAL_PROMPT", "0");
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.redirectOutput(out.toFile());
            pb.redirectError(err.toFile());
            Process p = pb.start();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIME_LIMIT_MS);
            boolean truncated = false;
            try {
                while (!p.waitFor(20, TimeUnit.MILLISECONDS)) {
                    if (Files.size(out) > MAX_OUTPUT_BYTES) {
                        truncated = true;
                        break;
                    }
                    if (System.nanoTime() > deadline) {
                        p.destroyForcibly();
                        throw new IOException("git status did not finish in " + TIME_LIMIT_MS / 1000 + " s in " + root);
                    }
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while git status ran in " + root);
            }
            if (truncated) {
                p.destroyForcibly();
            } else if (p.exitValue() != 0) {
                String msg = new String(readAtMost(err, MAX_ERROR_CHARS), StandardCharsets.UTF_8).strip();
                throw new IOException("git status failed (exit " + p.exitValue() + ") in " + root + ": " + msg);
            }
            byte[] b = readAtMost(out, (int) MAX_OUTPUT_BYTES);
            return parse(b, truncated || Files.size(out) > MAX_OUTPUT_BYTES);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static byte[] readAtMost(Path f, int max) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            return in.readNBytes(max);
        }
    }

    /** Parses {@code --porcelain=v2 -z} output; an incomplete last record (cut output) is dropped. */
    static Result parse(byte[] b, boolean truncated) {
        List<String> recs = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                recs.add(new String(b, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        boolean cut = truncated || start < b.length;
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < recs.size(); i++) {
            String r = recs.get(i);
            if (r.isEmpty()) {
                continue;
            }
            char kind = r.charAt(0);
            switch (kind) {
                case '1': {
                    String[] f = r.split(" ", 9); // 1 XY sub mH mI mW hH hI path
                    out.add(new Entry('1', f[1].charAt(0), f[1].charAt(1), f[8], null, new String[] {f[6], f[7]}));
                    break;
                }
                case '2': {
                    String[] f = r.split(" ", 10); // 2 XY sub mH mI mW hH hI Xscore path, then origPath
                    if (i + 1 >= recs.size()) {
                        cut = true;
                        break;
                    }
                    String orig = recs.get(++i);
                    out.add(new Entry('2', f[1].charAt(0), f[1].charAt(1), f[9], orig, new String[] {f[6], f[7]}));
                    break;
                }
                case 'u': {
                    String[] f = r.split(" ", 11); // u XY sub m1 m2 m3 mW h1 h2 h3 path
                    out.add(new Entry('u', f[1].charAt(0), f[1].charAt(1), f[10], null, new String[] {f[7], f[8], f[9]}));
                    break;
                }
                case '?':
                    out.add(new Entry('?', '?', '?', r.substring(2), null, new String[0]));
                    break;
                default: // '#' headers and '!' ignored files are not asked for
                    break;
            }
        }
        return new Result(out, cut);
    }

    /** The spec's status of a porcelain change letter. */
    static String status(char c) {
        switch (c) {
            case 'A':
                return "added";
            case 'D':
                return "deleted";
            case 'R':
                return "renamed";
            case 'C':
                return "copied";
            case 'T':
                return "type_changed";
            default:
                return "modified";
        }
    }
}

package io.artuditu.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real repository in a temporary folder, driven by the real {@code git} binary with no
 * system or user configuration and fixed identities, so what JGit reads is what git wrote.
 */
public final class GitRepo {
    public final Path dir;
    private int clock;

    public GitRepo(Path dir) {
        this.dir = dir;
    }

    public static GitRepo init(Path dir, String... extra) throws IOException {
        Files.createDirectories(dir);
        GitRepo r = new GitRepo(dir);
        List<String> a = new ArrayList<>(List.of("init", "-q", "-b", "main"));
        a.addAll(List.of(extra));
        r.git(a.toArray(String[]::new));
        return r;
    }

    /** Runs git here; fails the test unless it exits 0. */
    public String git(String... args) throws IOException {
        Result r = run(args);
        assertEquals(0, r.status, "git " + String.join(" ", args) + ":\n" + r.out);
        return r.out.trim();
    }

    public record Result(int status, String out) {
    }

    /** Runs git here; any exit status. */
    public Result run(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=Ada Lovelace", "-c", "user.email=ada@example.org",
                "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", "-c", "advice.detachedHead=false"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("HOME", dir.toString());
        env.put("GIT_EDITOR", "true");
        String date = (1_700_000_000L + 60L * clock++) + " +0000";
        env.put("GIT_AUTHOR_DATE", date);
        env.put("GIT_COMMITTER_DATE", date);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("git " + String.join(" ", args) + " took over 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return new Result(p.exitValue(), out);
    }

    /** Writes a file (relative to the working tree). */
    public GitRepo write(String file, String text) throws IOException {
        Path f = dir.resolve(file);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
        return this;
    }

    /** Writes, stages and commits one file; returns the new commit's id. */
    public String commit(String file, String text, String subject) throws IOException {
        write(file, text);
        git("add", file);
        git("commit", "-q", "-m", subject);
        return head();
    }

    public String head() throws IOException {
        return git("rev-parse", "HEAD");
    }
}

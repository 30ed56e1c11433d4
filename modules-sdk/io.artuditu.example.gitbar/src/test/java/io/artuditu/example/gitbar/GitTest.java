package io.artuditu.example.gitbar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the real git binary, in a repository made for the test. */
class GitTest {
    @TempDir
    Path tmp;

    private void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString(), "-c", "user.name=t",
                "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(30, TimeUnit.SECONDS);
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
    }

    @Test
    void readsTheBranchAndSeesAFileChange() throws Exception {
        Path repo = Files.createDirectory(tmp.resolve("repo"));
        git(repo, "init", "-q", "-b", "trunk");
        Files.writeString(repo.resolve("a.txt"), "one\n");
        git(repo, "add", "a.txt");
        git(repo, "commit", "-q", "-m", "first");
        Git g = new Git(tmp.resolve("out"));
        GitStatus clean = g.status(repo);
        assertEquals("trunk", clean.branch());
        assertEquals(0, clean.dirty());
        Files.writeString(repo.resolve("a.txt"), "two\n");
        Files.writeString(repo.resolve("b.txt"), "new\n");
        GitStatus dirty = g.status(repo);
        assertEquals(1, dirty.changed());
        assertEquals(1, dirty.untracked());
    }

    @Test
    void aFolderOutsideAnyRepositoryHasNoState() throws Exception {
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        // GIT_CEILING_DIRECTORIES is not needed: the temp folder is not inside a repository.
        assertNull(new Git(tmp.resolve("out")).status(plain));
        assertNull(new Git(tmp.resolve("out")).status(tmp.resolve("missing")));
    }
}

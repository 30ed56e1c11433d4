package io.artuditu.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.topology.Lifecycle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit itself: what the family tests lean on must hold. */
class TestKitTest {
    @TempDir
    Path tmp;

    @Test
    void aRepositoryIsMadeByTheRealGitWithFixedIdentityAndClock() throws IOException {
        GitRepo r = GitRepo.init(tmp.resolve("r"));
        String first = r.commit("a.txt", "one\n", "first");
        String second = r.commit("a.txt", "two\n", "second");
        assertNotEquals(first, second);
        assertEquals(second, r.head());
        assertEquals("main", r.git("branch", "--show-current"));
        assertEquals("Ada Lovelace <ada@example.org>", r.git("log", "-1", "--format=%an <%ae>"));
        assertEquals(1_700_000_000L + 5 * 60, Long.parseLong(r.git("log", "-1", "--format=%at")), "one minute per git run");
        GitRepo.Result bad = r.run("rev-parse", "no-such-ref");
        assertNotEquals(0, bad.status());
        // the same steps in another folder give the same commits: the clock is the test's, not the machine's
        GitRepo again = GitRepo.init(tmp.resolve("again"));
        again.commit("a.txt", "one\n", "first");
        assertEquals(second, again.commit("a.txt", "two\n", "second"));
    }

    @Test
    void theModelAppliesChangesRecordsLaunchesAndCanFailToSpawn() throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("w"));
        InMemoryWorkspaces m = new InMemoryWorkspaces();
        String ws = m.workspace(folder);
        assertEquals(ws, m.topology().workspaces().get(0).id());
        assertEquals(1, m.launches.size(), "the workspace's first pane was asked for");
        assertTrue(m.published.size() > 0, "opening a workspace publishes its events");
        m.failSpawn = true;
        var before = m.state;
        assertThrows(IOException.class, () -> m.change(OptionalLong.empty(),
                (s, sp) -> Lifecycle.of(sp).openWorkspace(s, tmp, null, sp)));
        assertEquals(before, m.state, "a failed spawn changes nothing");
    }
}

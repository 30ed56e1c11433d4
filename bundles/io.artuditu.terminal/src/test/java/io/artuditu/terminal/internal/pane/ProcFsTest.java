package io.artuditu.terminal.internal.pane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {
    @TempDir
    Path proc;

    private void stat(long pid, String comm, long ppid) throws Exception {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("stat"), pid + " (" + comm + ") S " + ppid + " 1 1 0 -1 4194304 0 0 0 0\n");
        // A cmdline that must never be read: the name comes from stat alone.
        Files.writeString(dir.resolve("cmdline"), "SECRET\0token\0");
    }

    @Test
    void parsesNamesWithParenthesesAndSpaces() {
        assertEquals(new ProcessSource.Entry(42, 7, "a) (b c"), ProcFs.parseStat("42 (a) (b c) R 7 42 42 0 -1"));
        assertEquals(new ProcessSource.Entry(3, 1, "x?y"), ProcFs.parseStat("3 (x\ty) S 1 3 3"));
        assertNull(ProcFs.parseStat("garbage"));
        assertNull(ProcFs.parseStat("x (y) S z"));
    }

    @Test
    void theTreeUnderARootBreadthFirst() throws Exception {
        stat(1, "init", 0);
        stat(10, "bash", 1);
        stat(12, "vim", 10);
        stat(11, "sleep", 10);
        stat(20, "git", 12);
        stat(30, "other", 1);
        Files.createDirectories(proc.resolve("self"));
        ProcessSource.Tree t = new ProcFs(proc).tree(10);
        assertTrue(t.ok());
        assertEquals(new ProcessSource.Entry(10, 1, "bash"), t.root());
        assertEquals(List.of(new ProcessSource.Entry(11, 10, "sleep"), new ProcessSource.Entry(12, 10, "vim"),
                new ProcessSource.Entry(20, 12, "git")), t.descendants());
        assertTrue(Math.abs(System.currentTimeMillis() - t.sampledMillis()) < TimeUnit.MINUTES.toMillis(1));
        assertFalse(t.toString().contains("SECRET"));
    }

    @Test
    void aMissingRootOrProcIsUnavailable() throws Exception {
        stat(1, "init", 0);
        ProcessSource.Tree gone = new ProcFs(proc).tree(99);
        assertFalse(gone.ok());
        assertNull(gone.root());
        assertEquals(List.of(), gone.descendants());
        assertFalse(new ProcFs(proc.resolve("nothing")).tree(1).ok());
    }

    @Test
    void theListIsBounded() throws Exception {
        stat(1, "root", 0);
        for (int i = 0; i < 300; i++) {
            stat(1000 + i, "child", 1);
        }
        assertEquals(ProcessSource.MAX_DESCENDANTS, new ProcFs(proc).tree(1).descendants().size());
    }

    @Test
    void theRealProcHasThisProcess() {
        ProcessSource.Tree t = new ProcFs().tree(ProcessHandle.current().pid());
        assertTrue(t.ok());
        assertEquals(ProcessHandle.current().pid(), t.root().pid());
    }
}

package io.artuditu.terminal.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interim process scan: names from stat only, breadth first, unavailable when it cannot say. */
class ProcScanTest {
    @TempDir
    Path proc;

    private void stat(long pid, String comm, long ppid) throws IOException {
        Path d = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(d.resolve("stat"), pid + " (" + comm + ") S " + ppid + " 1 1 0 -1 4194560 0 0");
        Files.writeString(d.resolve("cmdline"), "SECRET-ARGUMENT");
    }

    @Test
    void rootThenChildrenBreadthFirstWithNamesFromStat() throws IOException {
        stat(1, "init", 0);
        stat(10, "bash", 1);
        stat(12, "vim", 10);
        stat(11, "make", 10);
        stat(20, "cc1", 11);
        stat(30, "other", 1);
        ProcessSource.Tree t = new ProcScan(proc).tree(10);
        assertTrue(t.ok());
        assertEquals(List.of(new ProcessSource.Entry(10, 1, "bash", 0), new ProcessSource.Entry(11, 10, "make", 1),
                new ProcessSource.Entry(12, 10, "vim", 1), new ProcessSource.Entry(20, 11, "cc1", 2)), t.entries());
    }

    @Test
    void aNameWithParenthesesAndControlCharactersIsReadWhole() throws IOException {
        stat(5, "a) (b\u0001", 1);
        assertEquals("a) (b?", new ProcScan(proc).tree(5).entries().get(0).name());
    }

    @Test
    void anUnknownRootOrNoProcIsUnavailableNotEmpty() throws IOException {
        stat(1, "init", 0);
        ProcessSource.Tree t = new ProcScan(proc).tree(999);
        assertFalse(t.ok());
        assertTrue(t.entries().isEmpty());
        assertFalse(new ProcScan(proc.resolve("missing")).tree(1).ok());
    }

    @Test
    void atMostTheBoundedNumberOfDescendants() throws IOException {
        stat(1, "root", 0);
        for (int i = 0; i < 300; i++) {
            stat(100 + i, "kid", 1);
        }
        assertEquals(1 + ProcessSource.MAX_DESCENDANTS, new ProcScan(proc).tree(1).entries().size());
    }

    @Test
    void theRealProcSeesThisJvm() {
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return;
        }
        ProcessSource.Tree t = new ProcScan().tree(ProcessHandle.current().pid());
        assertTrue(t.ok());
        assertEquals(ProcessHandle.current().pid(), t.entries().get(0).pid());
    }
}

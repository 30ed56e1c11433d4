package io.artuditu.pty.internal.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.pty.proc.ProcessEntry;
import io.artuditu.pty.proc.ProcessTree;
import io.artuditu.pty.proc.ProcessTree.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Parsing, naming, bounds and freshness against a crafted proc directory. */
@Timeout(30)
class FakeProcTest {
    @TempDir
    Path dir;
    ProcessScanner scanner;

    @AfterEach
    void stop() {
        if (scanner != null) {
            scanner.stop();
        }
    }

    ProcessScanner started(Path root) {
        scanner = new ProcessScanner(root, System::currentTimeMillis, 20);
        scanner.start();
        return scanner;
    }

    static List<String> names(ProcessTree t) {
        return t.descendants().stream().map(ProcessEntry::name).collect(Collectors.toList());
    }

    @Test
    void oddCommsTruncatedCommsAndTheTree() throws IOException {
        FakeProc p = new FakeProc(dir);
        p.add(100, 1, "bash");
        p.add(101, 100, "a) b (c) d");
        p.add(102, 100, "abcdefghijklmno", "/opt/tools/abcdefghijklmnopqrstu");
        p.add(103, 100, "abcdefghijklmno", "/usr/bin/something-else-entirely");
        p.add(104, 100, "node-inspector1", "/usr/lib/node-inspector1234 (deleted)");
        p.add(105, 100, "short", "/usr/bin/shorter-than-it-looks");
        p.add(106, 101, "grand child");
        Files.createDirectories(dir.resolve("self"));
        Files.createDirectories(dir.resolve("12abc"));
        Files.createDirectories(dir.resolve("200")); // no stat: skipped
        Files.createDirectories(dir.resolve("201")).resolve("stat").toFile().createNewFile(); // empty: skipped

        ProcessTree t = started(dir).awaitFresh(100, 0, 10_000);

        assertEquals(Status.OK, t.scan());
        assertEquals(new ProcessEntry(100, 1, "bash", 0), t.root());
        assertEquals(List.of(
                new ProcessEntry(101, 100, "a) b (c) d", 1),
                new ProcessEntry(102, 100, "abcdefghijklmnopqrstu", 1),
                new ProcessEntry(103, 100, "abcdefghijklmno", 1),
                new ProcessEntry(104, 100, "node-inspector1234", 1),
                new ProcessEntry(105, 100, "short", 1),
                new ProcessEntry(106, 101, "grand child", 2)), t.descendants());
        assertEquals(Status.UNAVAILABLE, scanner.tree(200).scan());
        assertEquals(Status.OK, scanner.tree(106).scan());
        assertTrue(scanner.tree(106).descendants().isEmpty());
    }

    /**
     * Every process's cmdline and environ are FIFOs with no writer: opening one would block
     * the scan forever, so a fresh OK answer proves neither was opened.
     */
    @Test
    void neverOpensCmdlineOrEnviron() throws Exception {
        FakeProc p = new FakeProc(dir);
        p.add(300, 1, "sh");
        p.add(301, 300, "claude");
        p.add(302, 300, "abcdefghijklmno", "/x/abcdefghijklmnop");
        for (long pid : new long[] {300, 301, 302}) {
            for (String name : new String[] {"cmdline", "environ"}) {
                Path fifo = dir.resolve(pid + "/" + name);
                Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
                assertTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo");
            }
        }

        ProcessTree t = started(dir).awaitFresh(300, 0, 10_000);

        assertEquals(Status.OK, t.scan());
        assertEquals(List.of("claude", "abcdefghijklmnop"), names(t));
    }

    /**
     * An interpreter's cmdline is read and only its script's base name kept; a cmdline that is
     * not a regular file (a FIFO here) is never opened; environ never is, for anyone.
     */
    @Test
    void readsOnlyAnInterpretersScriptName() throws Exception {
        FakeProc p = new FakeProc(dir);
        p.add(400, 1, "bash");
        p.addWithArgs(401, 400, "node", "node", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "-p", "a secret");
        p.addWithArgs(402, 400, "python3.12", "python3.12", "/tmp/x/claude.py", "--token", "t0p");
        p.addWithArgs(403, 400, "bash", "bash", "/tmp/claude.py");
        p.add(404, 400, "node");
        mkfifo(dir.resolve("404/cmdline"));
        for (long pid : new long[] {400, 401, 402, 403, 404}) {
            mkfifo(dir.resolve(pid + "/environ"));
        }
        mkfifo(dir.resolve("400/cmdline"));

        ProcessTree t = started(dir).awaitFresh(400, 0, 10_000);

        assertEquals(Status.OK, t.scan());
        assertEquals(List.of(
                new ProcessEntry(401, 400, "node", 1, "gemini-cli"),
                new ProcessEntry(402, 400, "python3.12", 1, "claude"),
                new ProcessEntry(403, 400, "bash", 1),
                new ProcessEntry(404, 400, "node", 1)), t.descendants());
        assertNull(t.root().script());
    }

    static void mkfifo(Path fifo) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo");
    }

    @Test
    void atMost256DescendantsBreadthFirst() throws IOException {
        FakeProc p = new FakeProc(dir);
        p.add(1000, 1, "root");
        for (long pid = 1001; pid <= 1300; pid++) {
            p.add(pid, pid <= 1010 ? 1000 : 1001, "c" + pid);
        }

        ProcessTree t = started(dir).awaitFresh(1000, 0, 10_000);

        assertEquals(ProcessTree.MAX_DESCENDANTS, t.descendants().size());
        // First the ten children (depth 1), then grandchildren under 1001 by pid.
        assertEquals(LongStream.rangeClosed(1001, 1256).boxed().collect(Collectors.toList()),
                t.descendants().stream().map(ProcessEntry::pid).collect(Collectors.toList()));
        assertEquals(1, t.descendants().get(9).depth());
        assertEquals(2, t.descendants().get(10).depth());
    }

    @Test
    void atMost32LevelsDeep() throws IOException {
        FakeProc p = new FakeProc(dir);
        p.add(2000, 1, "root");
        for (long pid = 2001; pid <= 2040; pid++) {
            p.add(pid, pid - 1, "level" + (pid - 2000));
        }

        ProcessTree t = started(dir).awaitFresh(2000, 0, 10_000);

        assertEquals(ProcessTree.MAX_DEPTH, t.descendants().size());
        ProcessEntry last = t.descendants().get(t.descendants().size() - 1);
        assertEquals(new ProcessEntry(2032, 2031, "level32", 32), last);
    }

    @Test
    void aLoopBackToTheRootIsNotFollowed() throws IOException {
        FakeProc p = new FakeProc(dir);
        p.add(10, 11, "a");
        p.add(11, 10, "b");

        ProcessTree t = started(dir).awaitFresh(10, 0, 10_000);

        assertEquals(List.of(new ProcessEntry(11, 10, "b", 1)), t.descendants());
    }

    @Test
    void atMostMaxProcessesPerScan() throws IOException {
        FakeProc p = new FakeProc(dir);
        for (long pid = 1; pid <= 20; pid++) {
            p.add(pid, 0, "p" + pid);
        }
        scanner = new ProcessScanner(dir, System::currentTimeMillis, 20, 10, true);
        scanner.start();
        scanner.awaitFresh(1, 0, 10_000);

        long seen = LongStream.rangeClosed(1, 20).filter(pid -> scanner.tree(pid).scan() == Status.OK).count();

        assertEquals(10, seen);
    }

    @Test
    void missingProcRootIsUnavailable() {
        ProcessTree t = started(dir.resolve("missing")).awaitFresh(1, 0, 10_000);

        assertUnavailable(t);
        assertTrue(t.sampledAtMillis() > 0, "a failed scan still answers, and says when");
    }

    @Test
    void emptyProcRootIsUnavailable() {
        assertUnavailable(started(dir).awaitFresh(1, 0, 10_000));
    }

    @Test
    void notLinuxIsUnavailable() throws IOException {
        new FakeProc(dir).add(1, 0, "init");
        scanner = new ProcessScanner(dir, System::currentTimeMillis, 20, ProcFs.MAX_PROCESSES, false);
        scanner.start();

        assertUnavailable(scanner.awaitFresh(1, 0, 10_000));
    }

    @Test
    void beforeTheFirstScanEverythingIsUnavailable() throws IOException {
        new FakeProc(dir).add(1, 0, "init");
        scanner = new ProcessScanner(dir, System::currentTimeMillis, 20);

        ProcessTree t = scanner.tree(1);

        assertUnavailable(t);
        assertEquals(0, t.sampledAtMillis());
        assertEquals(0, scanner.scans());
    }

    /**
     * tree() answers from the cache and only asks for a scan once the cache is older than the
     * interval; the new scan shows up in a later call.
     */
    @Test
    void treeServesTheCacheAndRefreshesWhenStale() throws Exception {
        FakeProc p = new FakeProc(dir);
        p.add(50, 1, "sh");
        AtomicLong clock = new AtomicLong(1_000_000);
        scanner = new ProcessScanner(dir, clock::get, 500);
        scanner.start();

        ProcessTree first = scanner.awaitFresh(50, 1, 10_000);
        assertEquals(List.of(), first.descendants());
        assertEquals(1, scanner.scans());

        p.add(51, 50, "claude");
        clock.addAndGet(499);
        for (int i = 0; i < 1000; i++) {
            assertEquals(first, scanner.tree(50));
        }
        Thread.sleep(200);
        assertEquals(1, scanner.scans(), "younger than the interval: no scan");

        clock.addAndGet(1);
        assertEquals(first, scanner.tree(50), "stale: still the cache, and a scan is asked for");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (scanner.sampledAtMillis() == first.sampledAtMillis() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        ProcessTree second = scanner.tree(50);
        assertEquals(1_000_500, second.sampledAtMillis());
        assertEquals(List.of("claude"), names(second));
        assertEquals(2, scanner.scans());
    }

    @Test
    void stopEndsTheThreadAndLaterCallsAnswerFromTheCache() throws IOException {
        new FakeProc(dir).add(1, 0, "init");
        started(dir).awaitFresh(1, 0, 10_000);
        scanner.stop();

        assertTrue(!scanner.running(), "the thread has ended");
        long start = System.nanoTime();
        assertEquals(Status.OK, scanner.awaitFresh(1, 0, 5_000).scan());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4), "a stopped scan does not make callers wait");
    }

    static void assertUnavailable(ProcessTree t) {
        assertUnavailable(t, "");
    }

    static void assertUnavailable(ProcessTree t, String what) {
        assertEquals(Status.UNAVAILABLE, t.scan(), what + " " + t);
        assertNull(t.root(), what);
        assertTrue(t.descendants().isEmpty(), what);
    }
}

package io.artuditu.pty.internal.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.pty.proc.ProcessEntry;
import io.artuditu.pty.proc.ProcessTree;
import io.artuditu.pty.proc.ProcessTree.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The scan against this host's {@code /proc}, with real children. */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class RealProcTest {
    static final long INTERVAL = 20;
    ProcessScanner scanner;
    final List<Process> children = new ArrayList<>();

    @BeforeEach
    void start() {
        scanner = new ProcessScanner(Path.of("/proc"), System::currentTimeMillis, INTERVAL);
        scanner.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        scanner.stop();
        for (Process p : children) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    Process spawn(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        children.add(p);
        return p;
    }

    /** Fresh trees until {@code done} holds (children appear a little after their parent). */
    ProcessTree awaitTree(long pid, Predicate<ProcessTree> done) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        ProcessTree t;
        do {
            t = scanner.awaitFresh(pid, 0, 5_000);
        } while (!done.test(t) && System.nanoTime() < end);
        return t;
    }

    @Test
    void shellWithTwoSleeps() throws IOException {
        Process sh = spawn("sh", "-c", "sleep 30 & sleep 30 & wait");

        ProcessTree t = awaitTree(sh.pid(), x -> x.descendants().size() >= 2);

        assertEquals(Status.OK, t.scan());
        assertEquals(new ProcessEntry(sh.pid(), ProcessHandle.current().pid(), "sh", 0), t.root());
        assertEquals(2, t.descendants().size(), t.toString());
        for (ProcessEntry e : t.descendants()) {
            assertEquals("sleep", e.name(), "the name only, never arguments");
            assertEquals(1, e.depth());
            assertEquals(sh.pid(), e.ppid());
        }
    }

    @Test
    void aProcessThatIsGoneIsUnavailable() throws Exception {
        Process sh = spawn("sh", "-c", "sleep 30");
        long pid = sh.pid();
        assertEquals(Status.OK, awaitTree(pid, x -> x.scan() == Status.OK).scan());

        sh.destroyForcibly();
        sh.waitFor(10, TimeUnit.SECONDS);
        ProcessTree t = awaitTree(pid, x -> x.scan() != Status.OK);

        FakeProcTest.assertUnavailable(t);
    }

    @Test
    void pidsThatCannotExistAreUnavailable() throws IOException {
        // Files.readString returns "3" for this sysctl file on JDK 17 here; readAllLines reads it whole.
        long pidMax = Long.parseLong(Files.readAllLines(Path.of("/proc/sys/kernel/pid_max")).get(0).trim());
        for (long pid : new long[] {pidMax + 1, 0, -1, Long.MAX_VALUE}) {
            ProcessTree t = scanner.awaitFresh(pid, 0, 5_000);
            FakeProcTest.assertUnavailable(t, "pid " + pid);
            assertTrue(t.sampledAtMillis() > 0, "a scan happened; the pid is just not in it");
        }
    }

    @Test
    void thisJvmIsJava() {
        ProcessTree t = scanner.awaitFresh(ProcessHandle.current().pid(), 0, 5_000);

        assertEquals(Status.OK, t.scan());
        assertEquals("java", t.root().name());
    }

    /** A copy of sleep named past 15 bytes: comm is cut, the exe link gives the whole name. */
    @Test
    void longExecutableNameComesFromExe(@TempDir Path dir) throws IOException {
        Path exe = dir.resolve("sleep-with-a-very-long-name");
        Files.copy(Path.of("/bin/sleep"), exe, StandardCopyOption.COPY_ATTRIBUTES);
        assertTrue(exe.toFile().setExecutable(true));
        Process p = spawn(exe.toString(), "30");

        ProcessTree t = awaitTree(p.pid(), x -> x.scan() == Status.OK);

        assertEquals("sleep-with-a-very-long-name", t.root().name());
        assertEquals(List.of("sleep-with-a-ve"), Files.readAllLines(Path.of("/proc/" + p.pid() + "/comm")));
    }

    /** An interpreter's script, by base name, for python3 and node; nothing else of the argument vector. */
    @Test
    void interpretersShowTheirScript(@TempDir Path dir) throws IOException {
        Path py = Files.writeString(dir.resolve("claude.py"), "import time\ntime.sleep(30)\n");
        Path js = Files.createDirectories(dir.resolve("node_modules/@google/gemini-cli/dist")).resolve("index.js");
        Files.writeString(js, "setTimeout(() => {}, 30000);\n");
        Process sh = spawn("sh", "-c", "python3 " + py + " --secret s3 & node --no-warnings " + js
                + " -p hush & wait");

        // Waits for the settled tree, not the first with two scripts: a python3 reached through
        // a pyenv shim is first a bash script named python3 that execs twice before it is Python.
        List<String> expected = List.of("node:gemini-cli", "python3:claude");
        ProcessTree t = awaitTree(sh.pid(), x -> scripts(x).equals(expected));

        assertEquals(2, t.descendants().size(), t.toString());
        assertEquals(expected, scripts(t));
        assertEquals(null, t.root().script(), "sh is no interpreter");
        assertFalse(t.toString().contains("s3") || t.toString().contains("hush"), "no argument but the script's name");
    }

    private static List<String> scripts(ProcessTree t) {
        List<String> scripts = new ArrayList<>();
        for (ProcessEntry e : t.descendants()) {
            scripts.add(e.name() + ":" + e.script());
        }
        scripts.sort(null);
        return scripts;
    }

    /** Many callers at once: never two scans at a time, and no more scans than the interval allows. */
    @Test
    void concurrentCallersShareOneScan() throws Exception {
        long self = ProcessHandle.current().pid();
        scanner.awaitFresh(self, 0, 5_000);
        int before = scanner.scans();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(1);
        List<Thread> callers = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<Status> bad = new java.util.concurrent.atomic.AtomicReference<>();
        for (int i = 0; i < 16; i++) {
            boolean waits = i % 4 == 0;
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    ProcessTree tree = waits ? scanner.awaitFresh(self, 0, 1_000) : scanner.tree(self);
                    if (tree.scan() != Status.OK) {
                        bad.set(tree.scan());
                    }
                    // Callers ask often but do not spin: 16 spinning threads on 2 cores would
                    // starve the scan thread itself and measure the scheduler instead.
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                }
            });
            callers.add(t);
            t.start();
        }
        for (Thread t : callers) {
            t.join();
        }
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        int scans = scanner.scans() - before;

        assertEquals(null, bad.get(), "every caller got an answer");
        assertEquals(1, scanner.maxConcurrentScans());
        assertTrue(scans >= 2, "the cache was refreshed: " + scans);
        // Each scan starts at least INTERVAL after the one before.
        assertTrue(scans <= elapsedMillis / INTERVAL + 2, scans + " scans in " + elapsedMillis + " ms");
        assertFalse(scanner.tree(self).descendants().stream().anyMatch(e -> e.name().contains(" ")));
    }
}

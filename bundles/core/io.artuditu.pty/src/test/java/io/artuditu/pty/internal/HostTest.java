package io.artuditu.pty.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real PTYs, real children. */
class HostTest {
    @TempDir
    static Path home;
    static Host host;
    static Set<String> tmpBefore;

    @BeforeAll
    static void start() throws IOException {
        tmpBefore = tmpNames();
        host = new Host(home.resolve("native"));
    }

    @AfterAll
    static void stop() {
        host.close();
    }

    static Set<String> tmpNames() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("pty4j") || n.startsWith("jna"))
                    .collect(Collectors.toSet());
        }
    }

    /** Collects output; wakes waiters on every chunk. */
    static final class Sink implements PtyListener {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public synchronized void output(byte[] buf, int off, int len) {
            bytes.write(buf, off, len);
            notifyAll();
        }

        @Override
        public void closed() {
            closed.countDown();
        }

        synchronized String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }

        synchronized String await(String needle) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!text().contains(needle)) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (left <= 0) {
                    throw new AssertionError("no '" + needle + "' in output: " + text());
                }
                wait(left);
            }
            return text();
        }
    }

    static SpawnRequest sh(String script, int cols, int rows) {
        return new SpawnRequest(List.of("sh", "-c", script), home, Map.of(), cols, rows);
    }

    @Test
    void outputAndExitStatus() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("printf hello; exit 3", 80, 24), sink);
        assertEquals(3, pty.exit().get(10, TimeUnit.SECONDS));
        assertTrue(sink.text().contains("hello"), sink.text());
        assertFalse(pty.isAlive());
        assertTrue(host.find(pty.id()).isEmpty(), "a reaped PTY leaves the host");
    }

    @Test
    void terminalEnvironmentAndAdditions() throws Exception {
        Sink sink = new Sink();
        SpawnRequest r = new SpawnRequest(List.of("sh", "-c", "printf '%s|%s|%s' \"$TERM\" \"$COLORTERM\" \"$ARTU_X\""),
                home, Map.of("ARTU_X", "yes", "TERM", "dumb"), 80, 24);
        Pty pty = host.spawn(r, sink);
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
        assertTrue(sink.text().contains("xterm-256color|truecolor|yes"), sink.text());
    }

    @Test
    void catEchoesInput() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(new SpawnRequest(List.of("cat"), home, Map.of(), 80, 24), sink);
        assertTrue(pty.id().startsWith("term-"));
        assertTrue(host.find(pty.id()).isPresent());
        pty.write("abc\n".getBytes(StandardCharsets.US_ASCII));
        // The line discipline echoes "abc\r\n", then cat writes "abc\r\n" again.
        String out = sink.await("abc\r\nabc\r\n");
        assertTrue(out.startsWith("abc\r\n"), out);
        pty.write(new byte[] {4}); // ^D: end of input
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
    }

    /**
     * coreutils close stdin, stdout and stderr before exiting, so the slave's last holder is
     * gone a moment before the exit; closing the master in that moment hangs the child up
     * (it reported 129 about once in 60 runs under load). Many short runs make a regression
     * likely to show.
     */
    @org.junit.jupiter.api.RepeatedTest(50)
    void aChildThatClosesItsTerminalBeforeExitingIsNotHungUp() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(new SpawnRequest(List.of("cat"), home, Map.of(), 80, 24), sink);
        pty.write("x\n".getBytes(StandardCharsets.US_ASCII));
        sink.await("x\r\nx\r\n");
        pty.write(new byte[] {4});
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
    }

    @Test
    void resizeReachesTheChild() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("stty size; read x; stty size", 80, 24), sink);
        sink.await("24 80");
        pty.resize(132, 50);
        assertEquals(132, pty.cols());
        assertEquals(50, pty.rows());
        pty.write("\n".getBytes(StandardCharsets.US_ASCII));
        sink.await("50 132");
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
    }

    @Test
    void floodIsReadToTheEndInBoundedMemory() throws Exception {
        AtomicLong total = new AtomicLong();
        AtomicLong biggest = new AtomicLong();
        CountDownLatch closed = new CountDownLatch(1);
        PtyListener counter = new PtyListener() {
            @Override
            public void output(byte[] buf, int off, int len) {
                total.addAndGet(len);
                biggest.accumulateAndGet(len, Math::max);
            }

            @Override
            public void closed() {
                closed.countDown();
            }
        };
        // stty raw: no \n -> \r\n translation, so the count is exact.
        Pty pty = host.spawn(sh("stty raw -echo; yes | head -c 10000000", 80, 24), counter);
        assertEquals(0, pty.exit().get(60, TimeUnit.SECONDS));
        assertTrue(closed.await(10, TimeUnit.SECONDS));
        assertEquals(10_000_000L, total.get());
        assertTrue(biggest.get() <= UnixPty.CHUNK, "chunks come from one fixed buffer: " + biggest.get());
    }

    @Test
    void terminateEndsAChildAndKillFollowsWhenHangupIsIgnored() throws Exception {
        Pty sleeper = host.spawn(new SpawnRequest(List.of("sleep", "1000"), home, Map.of(), 80, 24), new Sink());
        sleeper.terminate(5000);
        sleeper.exit().get(10, TimeUnit.SECONDS);
        assertFalse(sleeper.isAlive());

        Sink sink = new Sink();
        Pty stubborn = host.spawn(sh("trap '' HUP; echo ready; sleep 1000", 80, 24), sink);
        sink.await("ready");
        long t0 = System.nanoTime();
        stubborn.terminate(200);
        stubborn.exit().get(10, TimeUnit.SECONDS);
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) >= 150, "SIGKILL only after the grace");
    }

    @Test
    void signalInterrupts() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("trap 'echo got-int; exit 7' INT; echo ready; while :; do sleep 0.05; done", 80, 24), sink);
        sink.await("ready");
        pty.signal(2);
        assertEquals(7, pty.exit().get(10, TimeUnit.SECONDS));
        assertTrue(sink.text().contains("got-int"), sink.text());
    }

    @Test
    void nativeLibraryComesFromTheHomeNotTmp() throws Exception {
        Pty pty = host.spawn(sh("exit 0", 80, 24), new Sink());
        pty.exit().get(10, TimeUnit.SECONDS);
        Path lib = home.resolve("native/pty4j").resolve(NativeLibs.osArchSubPath()).resolve("libpty.so");
        assertTrue(Files.isRegularFile(lib), lib.toString());
        assertEquals(home.resolve("native/pty4j").toString(), System.getProperty(NativeLibs.PTY4J_FOLDER_KEY));
        assertEquals(home.resolve("native/jna").toString(), System.getProperty(NativeLibs.JNA_TMPDIR_KEY));
        assertEquals(tmpBefore, tmpNames(), "pty4j/JNA left something in the temp folder");
    }

    @Test
    void outputDrivesTheEmulator() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("printf '\\033[2J\\033[3;5Hhello \\033[1mvt\\033[0m'", 40, 10), sink);
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
        assertTrue(sink.closed.await(10, TimeUnit.SECONDS));
        Terminal term = Terminal.create(40, 10, Limits.DEFAULT);
        byte[] out = sink.bytes.toByteArray();
        term.feed(out, 0, out.length);
        String screen = term.screenText(false);
        assertEquals("    hello vt", screen.lines().toList().get(2), screen);
    }

    @Test
    void idsAreUniqueAndTrackersSeeEveryPty() throws Exception {
        java.util.List<String> added = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.Map<String, Integer> exited = new java.util.concurrent.ConcurrentHashMap<>();
        Sink sink = new Sink();
        Pty before = host.spawn(sh("echo up; read x", 80, 24), sink);
        sink.await("up");
        try (AutoCloseable reg = host.track(new io.artuditu.pty.PtyTracker() {
            @Override
            public void added(Pty pty) {
                added.add(pty.id());
            }

            @Override
            public void exited(Pty pty, int status) {
                exited.put(pty.id(), status);
            }
        })) {
            assertTrue(added.contains(before.id()), "a tracker learns about PTYs alive when it registers");
            Pty after = host.spawn(sh("exit 4", 80, 24), null);
            assertTrue(added.contains(after.id()), "added runs before spawn returns");
            assertEquals(4, after.exit().get(10, TimeUnit.SECONDS));
            assertEquals(4, exited.get(after.id()));
            assertEquals(java.util.OptionalInt.of(4), after.exitStatus());
            assertFalse(before.id().equals(after.id()));
            assertTrue(after.id().matches("term-[0-9a-f]{6}-[0-9]+"), after.id());
        }
        before.write("\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, before.exit().get(10, TimeUnit.SECONDS));
    }

    @Test
    void aLateListenerGetsTheRetainedOutputThenLiveOutput() throws Exception {
        Pty pty = host.spawn(sh("echo first; read x; echo second", 80, 24), null);
        Sink early = new Sink();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pty.outputBytes() < 5 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        pty.listen(early);
        assertTrue(early.text().contains("first"), "replayed on the calling thread: " + early.text());
        Sink late = new Sink();
        pty.listen(late); // replaces the first listener
        pty.write("\n".getBytes(StandardCharsets.US_ASCII));
        late.await("second");
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
        assertTrue(late.closed.await(10, TimeUnit.SECONDS));
        assertFalse(early.text().contains("second"), "a replaced listener hears nothing more");
        Sink afterEnd = new Sink();
        pty.listen(afterEnd);
        assertTrue(afterEnd.text().contains("first") && afterEnd.text().contains("second"), afterEnd.text());
        assertEquals(0, afterEnd.closed.getCount(), "a listener added after the end is told so");
    }

    @Test
    void writesNeverBlockAndABacklogIsRefused() throws Exception {
        // The child never reads: the kernel's buffer fills, then the host's queue, then a refusal.
        Pty pty = host.spawn(sh("stty raw -echo; echo ready; sleep 60", 80, 24), new Sink());
        byte[] chunk = new byte[64 * 1024];
        java.util.Arrays.fill(chunk, (byte) 'x');
        long t0 = System.nanoTime();
        io.artuditu.pty.PtyInputException refused = null;
        for (int i = 0; i < 40 && refused == null; i++) {
            try {
                pty.write(chunk);
            } catch (io.artuditu.pty.PtyInputException e) {
                refused = e;
            }
        }
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) < 5, "writes returned at once");
        assertTrue(refused != null, "a backlog past the limit is refused");
        assertEquals(io.artuditu.pty.PtyInputException.Reason.BACKLOG, refused.reason());
        assertTrue(pty.pendingInput() <= Pty.MAX_PENDING_INPUT);
        pty.terminate(100);
        pty.exit().get(10, TimeUnit.SECONDS);
        io.artuditu.pty.PtyInputException exited = org.junit.jupiter.api.Assertions.assertThrows(
                io.artuditu.pty.PtyInputException.class, () -> pty.write(new byte[] {'a'}));
        assertEquals(io.artuditu.pty.PtyInputException.Reason.EXITED, exited.reason());
    }

    @Test
    void aKilledChildReports128PlusTheSignal() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("echo ready; sleep 60", 80, 24), sink);
        sink.await("ready");
        pty.signal(9);
        assertEquals(137, pty.exit().get(10, TimeUnit.SECONDS));
    }

    /**
     * One reader for every child, and it reaps them itself: spawning starts no thread of its
     * own (no per-PTY reader, no pty4j "PtyProcess Reaper"), output of several children
     * arrives at once, and each child's exit is still reported with its own status.
     */
    @Test
    void oneReaderThreadServesEveryChild() throws Exception {
        long readersBefore = threads("pty-read");
        Sink[] sinks = new Sink[8];
        Pty[] ptys = new Pty[sinks.length];
        for (int i = 0; i < sinks.length; i++) {
            sinks[i] = new Sink();
            ptys[i] = host.spawn(sh("echo ready" + i + "; read x; exit " + i, 80, 24), sinks[i]);
        }
        for (int i = 0; i < sinks.length; i++) {
            sinks[i].await("ready" + i);
        }
        assertTrue(readersBefore >= 1, "a host's reader exists before its first spawn");
        assertEquals(readersBefore, threads("pty-read"), "no thread more with " + sinks.length + " children");
        assertEquals(0, threads("PtyProcess Reaper"));
        for (int i = sinks.length - 1; i >= 0; i--) {
            ptys[i].write("\n".getBytes(StandardCharsets.US_ASCII));
        }
        for (int i = 0; i < sinks.length; i++) {
            assertEquals(i, ptys[i].exit().get(10, TimeUnit.SECONDS));
        }
        // With no grace the SIGKILL sometimes overtakes the SIGHUP (137): about 1 in 4 runs,
        // with fork and posix_spawn alike. A grace makes the hang-up's 129 certain.
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("echo ready; sleep 60", 80, 24), sink);
        sink.await("ready");
        assertTrue(pty.pid() > 0);
        pty.terminate(5000);
        assertEquals(129, pty.exit().get(10, TimeUnit.SECONDS));
    }

    /** The reader thread belongs to its host: closing the host ends it, children and all. */
    @Test
    void closingAHostEndsItsReader() throws Exception {
        Host other = new Host(home.resolve("native"));
        Sink sink = new Sink();
        Pty pty = other.spawn(sh("echo ready; sleep 60", 80, 24), sink);
        sink.await("ready");
        assertTrue(other.readerAlive());
        other.close();
        assertTrue(pty.exit().isDone(), "close waits for its children");
        assertFalse(other.readerAlive(), "and then ends its reader");
        assertTrue(sink.closed.await(1, TimeUnit.SECONDS), "the listener heard the end of the output");
    }

    static long threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .count();
    }

    /**
     * The child exits while a background grandchild still holds the terminal: no end of file
     * comes, so the reader's idle poll finds the exit (waitpid without waiting) and reports
     * the child's own status without waiting for the grandchild.
     */
    @Test
    void anExitIsReportedWhileAGrandchildStillHoldsTheTerminal() throws Exception {
        Sink sink = new Sink();
        long t0 = System.nanoTime();
        // The grandchild ignores the hangup its session leader's exit sends, so it keeps the slave.
        Pty pty = host.spawn(sh("trap '' HUP; sleep 30 & echo \"bg=$!.\"; exit 5", 80, 24), sink);
        String out = sink.await(".");
        long grandchild = Long.parseLong(out.substring(out.indexOf("bg=") + 3, out.indexOf('.', out.indexOf("bg="))));
        try {
            assertEquals(5, pty.exit().get(20, TimeUnit.SECONDS));
            assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) < 20);
            assertTrue(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false), "the grandchild still runs");
            assertFalse(pty.isAlive());
        } finally {
            ProcessHandle.of(grandchild).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void waitStatusesReadAsAShellReportsThem() {
        assertEquals(0, Posix.decode(0));
        assertEquals(3, Posix.decode(3 << 8));
        assertEquals(255, Posix.decode(255 << 8));
        assertEquals(137, Posix.decode(9)); // SIGKILL
        assertEquals(139, Posix.decode(11 | 0x80)); // SIGSEGV with a core dump
    }

    @Test
    void aMissingProgramIsRefusedAndLeavesNoPty() {
        int before = host.list().size();
        org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> host.spawn(
                new SpawnRequest(List.of("no-such-program-artuditu"), home, Map.of(), 80, 24), null));
        assertEquals(before, host.list().size());
    }

    // --- what the child sees (posix_spawn, and pty4j's fork as the fallback) ---

    /** Fields after the command name in /proc/<pid>/stat: [0] state, [1] ppid, [2] pgrp, [3] session, [4] tty_nr, [5] tpgid. */
    static String[] stat(long pid) throws IOException {
        String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return s.substring(s.lastIndexOf(')') + 2).split(" ");
    }

    static Pty sleeper(Host h, Path cwd, Map<String, String> env) throws IOException {
        return h.spawn(new SpawnRequest(List.of("sleep", "60"), cwd, env, 80, 24), new Sink());
    }

    /**
     * Waits until the child has exec'd {@code name}: its name in /proc has changed and its new
     * environment is in place (exec renames the process a moment before it sets up the new
     * environment, so a read in between finds /proc/PID/environ empty; every child here has
     * at least TERM).
     */
    static void awaitExec(Pty pty, String name) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Path proc = Path.of("/proc/" + pty.pid());
        while (!Files.readString(proc.resolve("comm")).trim().equals(name)
                || Files.readAllBytes(proc.resolve("environ")).length == 0) {
            assertTrue(System.nanoTime() < end, "the child never ran " + name);
            Thread.sleep(5);
        }
    }

    /** Waits until the child has a child of its own running {@code name}. */
    static void awaitChild(Pty pty, String name) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Path children = Path.of("/proc/" + pty.pid() + "/task/" + pty.pid() + "/children");
        while (true) {
            for (String c : Files.readString(children).trim().split(" ")) {
                try {
                    if (!c.isEmpty() && Files.readString(Path.of("/proc/" + c + "/comm")).trim().equals(name)) {
                        return;
                    }
                } catch (IOException gone) {
                    // exited meanwhile
                }
            }
            assertTrue(System.nanoTime() < end, "the child never started " + name);
            Thread.sleep(5);
        }
    }

    static void assertSessionLeaderOnItsTerminal(Host h) throws Exception {
        Pty pty = sleeper(h, home, Map.of());
        try {
            awaitExec(pty, "sleep");
            String[] st = stat(pty.pid());
            String pid = Long.toString(pty.pid());
            assertEquals(pid, st[3], "session leader");
            assertEquals(pid, st[2], "its own process group");
            assertEquals(pid, st[5], "the foreground group of its terminal");
            assertFalse(st[4].equals("0"), "a controlling terminal");
            String slave = Files.readSymbolicLink(Path.of("/proc/" + pid + "/fd/0")).toString();
            assertTrue(slave.startsWith("/dev/pts/"), slave);
            // sleep opens and closes its locale files just after exec; an inherited fd stays open, so
            // look until the program has settled (2 s at most) and judge what is open then.
            Map<String, String> expected = Map.of("0", slave, "1", slave, "2", slave);
            Map<String, String> links = openFds(pid);
            for (long deadline = System.nanoTime() + 2_000_000_000L; !links.equals(expected)
                    && System.nanoTime() < deadline; links = openFds(pid)) {
                Thread.sleep(20);
            }
            assertEquals(expected, links, "stdio on the slave and no other fd");
        } finally {
            pty.terminate(0);
            pty.exit().get(10, TimeUnit.SECONDS);
        }
    }

    private static Map<String, String> openFds(String pid) throws java.io.IOException {
        Map<String, String> links = new java.util.TreeMap<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    links.put(fd.getFileName().toString(), Files.readSymbolicLink(fd).toString());
                } catch (java.nio.file.NoSuchFileException closedMeanwhile) {
                    // an fd the program closed while we listed
                }
            }
        }
        return links;
    }

    @Test
    void theChildLeadsASessionOnTheSlaveAndInheritsNoOtherFd() throws Exception {
        // An fd the JDK opens without close-on-exec, alive while the child starts.
        try (java.io.FileInputStream open = new java.io.FileInputStream("/proc/self/stat")) {
            assertSessionLeaderOnItsTerminal(host);
        }
    }

    @Test
    void theForkFallbackGivesTheSameChild() throws Exception {
        System.setProperty(Host.FORK_PROPERTY, "true");
        Host forking;
        try {
            forking = new Host(home.resolve("native"));
        } finally {
            System.clearProperty(Host.FORK_PROPERTY);
        }
        try (forking) {
            assertSessionLeaderOnItsTerminal(forking);
            Sink sink = new Sink();
            Pty pty = forking.spawn(sh("exit 6", 80, 24), sink);
            assertEquals(6, pty.exit().get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void ttyNamesTheSlave() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("tty; ps -o tty= -p $$", 80, 24), sink);
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
        String[] lines = sink.text().trim().split("\\r?\\n");
        assertTrue(lines[0].matches("/dev/pts/[0-9]+"), sink.text());
        assertEquals(lines[0].substring("/dev/".length()), lines[1].trim(), sink.text());
    }

    @Test
    void ctrlCOnTheTerminalInterruptsTheForegroundJob() throws Exception {
        Sink sink = new Sink();
        Pty pty = host.spawn(sh("trap 'echo trapped' INT; echo ready; sleep 30; echo \"after=$?\"", 80, 24), sink);
        sink.await("ready");
        awaitChild(pty, "sleep"); // sh waits on it; both are in the foreground group
        pty.write(new byte[] {3}); // ^C: the line discipline sends SIGINT to the foreground group
        sink.await("after=130");
        assertEquals(0, pty.exit().get(10, TimeUnit.SECONDS));
        assertTrue(sink.text().contains("trapped"), sink.text());

        Pty direct = sleeper(host, home, Map.of());
        awaitExec(direct, "sleep");
        direct.write(new byte[] {3});
        assertEquals(130, direct.exit().get(10, TimeUnit.SECONDS));
    }

    @Test
    void signalsStartAtTheirDefaultsAndUnblocked() throws Exception {
        Pty pty = sleeper(host, home, Map.of());
        try {
            awaitExec(pty, "sleep");
            Map<String, Long> masks = new java.util.HashMap<>();
            for (String line : Files.readAllLines(Path.of("/proc/" + pty.pid() + "/status"))) {
                if (line.startsWith("SigBlk:") || line.startsWith("SigIgn:")) {
                    masks.put(line.substring(0, 6), Long.parseUnsignedLong(line.substring(7).trim(), 16));
                }
            }
            assertEquals(0L, masks.get("SigBlk"));
            // glibc keeps its two internal signals (32, 33) ignored in a spawned child; nothing else.
            assertEquals(0L, masks.get("SigIgn") & ~0x180000000L, Long.toHexString(masks.get("SigIgn")));
        } finally {
            pty.terminate(0);
            pty.exit().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void cwdEnvironmentAndPathLookupComeFromTheRequest() throws Exception {
        Path dir = Files.createDirectories(home.resolve("cwd test"));
        Path bin = Files.createDirectories(home.resolve("bin"));
        Path tool = bin.resolve("artu-tool");
        Files.writeString(tool, "#!/bin/sh\necho \"tool in $(pwd) with $ARTU_Y\"\n");
        tool.toFile().setExecutable(true);
        Pty pty = sleeper(host, dir, Map.of("ARTU_Y", "a b=c"));
        try {
            awaitExec(pty, "sleep");
            assertEquals(dir.toRealPath(), Files.readSymbolicLink(Path.of("/proc/" + pty.pid() + "/cwd")));
            List<String> environ = List.of(Files.readString(Path.of("/proc/" + pty.pid() + "/environ")).split("\0"));
            assertTrue(environ.contains("ARTU_Y=a b=c"), environ.toString());
            assertTrue(environ.contains("TERM=xterm-256color"), environ.toString());
        } finally {
            pty.terminate(0);
            pty.exit().get(10, TimeUnit.SECONDS);
        }
        // argv[0] is looked up on the child's PATH (the request's), not the server's.
        Sink sink = new Sink();
        Pty found = host.spawn(new SpawnRequest(List.of("artu-tool"), dir,
                Map.of("PATH", bin + ":/usr/bin:/bin", "ARTU_Y", "y"), 80, 24), sink);
        assertEquals(0, found.exit().get(10, TimeUnit.SECONDS));
        assertTrue(sink.text().contains("tool in " + dir + " with y"), sink.text());
        // A name starting with "." is taken from the child's cwd.
        Files.copy(tool, dir.resolve("local-tool"));
        Sink local = new Sink();
        Pty rel = host.spawn(new SpawnRequest(List.of("./local-tool"), dir, Map.of("ARTU_Y", "z"), 80, 24), local);
        assertEquals(0, rel.exit().get(10, TimeUnit.SECONDS));
        assertTrue(local.text().contains("tool in " + dir + " with z"), local.text());
    }

    @Test
    void exitStatusesAreTheCodeOr128PlusTheSignal() throws Exception {
        Map<String, Integer> cases = new java.util.LinkedHashMap<>();
        cases.put("exit 0", 0);
        cases.put("exit 1", 1);
        cases.put("exit 255", 255);
        cases.put("kill -TERM $$", 143);
        cases.put("kill -INT $$", 130);
        cases.put("kill -KILL $$", 137);
        for (Map.Entry<String, Integer> c : cases.entrySet()) {
            Pty pty = host.spawn(sh(c.getKey(), 80, 24), new Sink());
            assertEquals(c.getValue(), pty.exit().get(10, TimeUnit.SECONDS), c.getKey());
            assertEquals(java.util.OptionalInt.of(c.getValue()), pty.exitStatus(), c.getKey());
        }
    }

    @Test
    void aProgramThatCannotRunIsRefused() throws Exception {
        Path plain = Files.writeString(home.resolve("not-executable"), "echo no\n");
        int before = host.list().size();
        for (String argv0 : List.of(plain.toString(), home.toString() + "/nothing-here", "/")) {
            org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> host.spawn(
                    new SpawnRequest(List.of(argv0), home, Map.of(), 80, 24), null), argv0);
        }
        assertEquals(before, host.list().size());
    }

    @Test
    void badRequestsAreRefused() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> sh("true", 0, 24));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new SpawnRequest(List.of(), home, Map.of(), 80, 24));
    }
}

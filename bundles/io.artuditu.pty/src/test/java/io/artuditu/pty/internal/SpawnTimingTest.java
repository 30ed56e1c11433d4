package io.artuditu.pty.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.pty4j.PtyProcess;
import com.pty4j.unix.PtyHelpers;
import com.pty4j.unix.UnixPtyProcess;
import io.artuditu.pty.Pty;
import io.artuditu.pty.SpawnRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a spawn's time goes, phase by phase, through the same calls {@link Host#spawn}
 * makes, beside the alternatives (pty4j's own process object, the JDK's launcher); prints medians and asserts nothing about time. Off by default (it starts a few
 * hundred shells): {@code mvn -o verify -pl bundles/io.artuditu.pty -Dartuditu.spawntiming=true
 * -Dtest=SpawnTimingTest}; {@code -Dartuditu.spawntiming.n=100} sets the count and
 * {@code -Dartuditu.spawntiming.ballast=MB} first touches that much heap, to see how fork
 * grows with the JVM's resident size.
 */
@EnabledOnOs(OS.LINUX)
@EnabledIfSystemProperty(named = "artuditu.spawntiming", matches = "true")
class SpawnTimingTest {
    @TempDir
    static Path home;
    /** Keeps the ballast reachable. */
    static byte[][] ballast;

    @Test
    void phases() throws Exception {
        int n = Integer.getInteger("artuditu.spawntiming.n", 100);
        int mb = Integer.getInteger("artuditu.spawntiming.ballast", 0);
        ballast = new byte[mb][];
        for (int i = 0; i < mb; i++) {
            ballast[i] = new byte[1 << 20];
            Arrays.fill(ballast[i], (byte) 1);
        }
        System.out.printf("spawn timing: n=%d, ballast %d MB, VmRSS %s%n", n, mb, rss());
        try (Host host = new Host(home.resolve("native"))) {
            List<String> sh = List.of("/bin/sh");
            // Warm up class loading and JIT a little (not counted).
            for (int i = 0; i < 5; i++) {
                host.spawn(new SpawnRequest(sh, home, Map.of(), 80, 24), null).terminate(0);
            }

            // 1. The phases of Host.spawn, one by one, as it does them.
            Map<String, long[]> t = new LinkedHashMap<>();
            for (String k : List.of("env", "openpty", "winsize", "fork_exec_pty", "host_reader", "total")) {
                t.put(k, new long[n]);
            }
            List<Pty> keep = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long a = System.nanoTime();
                Map<String, String> env = new HashMap<>(System.getenv());
                env.putAll(Host.TERMINAL_ENV);
                String[] envp = env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
                long b = System.nanoTime();
                com.pty4j.unix.Pty master = new com.pty4j.unix.Pty();
                long c = System.nanoTime();
                Posix.windowSize(master.getMasterFD(), 80, 24);
                long d = System.nanoTime();
                int pid = PtyHelpers.execPty(sh.get(0), sh.toArray(String[]::new), envp, home.toString(),
                        master.getSlaveName(), master.getMasterFD(), null, -1, false);
                long e = System.nanoTime();
                UnixPty pty = new UnixPty("t-" + i, master, pid, new SpawnRequest(sh, home, Map.of(), 80, 24), null, s -> { });
                pty.start();
                long f = System.nanoTime();
                keep.add(pty);
                t.get("env")[i] = b - a;
                t.get("openpty")[i] = c - b;
                t.get("winsize")[i] = d - c;
                t.get("fork_exec_pty")[i] = e - d;
                t.get("host_reader")[i] = f - e;
                t.get("total")[i] = f - a;
            }
            print("phases of one spawn (" + n + " live shells at the end)", t);
            System.out.printf("VmRSS with %d shells: %s%n", n, rss());

            // 2. pty4j's native exec_pty alone, on this thread (no Reaper thread): in the parent it is
            // pfind (a stat per PATH entry) plus fork(); the child's exec runs concurrently.
            Map<String, long[]> u = new LinkedHashMap<>();
            u.put("native_exec_pty", new long[n]);
            u.put("pty4j_UnixPtyProcess", new long[n]);
            u.put("thread_start_join", new long[n]);
            u.put("jdk_processbuilder", new long[n]);
            Map<String, String> env = new HashMap<>(System.getenv());
            String[] envp = env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
            List<Integer> pids = new ArrayList<>();
            List<com.pty4j.unix.Pty> masters = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                com.pty4j.unix.Pty master = new com.pty4j.unix.Pty();
                masters.add(master);
                long a = System.nanoTime();
                int pid = PtyHelpers.execPty("/bin/true", new String[] {"/bin/true"}, envp, home.toString(),
                        master.getSlaveName(), master.getMasterFD(), null, -1, false);
                long b = System.nanoTime();
                pids.add(pid);
                u.get("native_exec_pty")[i] = b - a;

                // pty4j's process object (what Host used before): a Reaper thread forks and waits.
                com.pty4j.unix.Pty m2 = new com.pty4j.unix.Pty();
                masters.add(m2);
                a = System.nanoTime();
                PtyProcess pp = new UnixPtyProcess(new String[] {"/bin/true"}, envp, home.toString(), m2, null, false);
                b = System.nanoTime();
                u.get("pty4j_UnixPtyProcess")[i] = b - a;
                pp.waitFor();

                a = System.nanoTime();
                Thread th = new Thread(() -> { }, "probe");
                th.setDaemon(true);
                th.start();
                th.join();
                b = System.nanoTime();
                u.get("thread_start_join")[i] = b - a;

                // The JDK's own launcher (posix_spawn of jspawnhelper on Linux, i.e. vfork semantics):
                // until the process handle exists.
                a = System.nanoTime();
                Process jp = new ProcessBuilder("/bin/true").start();
                b = System.nanoTime();
                u.get("jdk_processbuilder")[i] = b - a;
                jp.waitFor(10, TimeUnit.SECONDS);
            }
            for (int pid : pids) {
                PtyHelpers.waitpid(pid, new int[1], 0);
            }
            for (com.pty4j.unix.Pty m : masters) {
                m.close();
            }
            print("isolated (" + n + " live shells meanwhile)", u);

            for (Pty p : keep) {
                p.terminate(0);
            }
            for (Pty p : keep) {
                p.exit().get(10, TimeUnit.SECONDS);
            }
            assertEquals(n, keep.size());
        }
    }

    static void print(String title, Map<String, long[]> t) {
        System.out.println(title + ": median / p90 / max ms");
        for (var e : t.entrySet()) {
            long[] v = e.getValue().clone();
            Arrays.sort(v);
            System.out.printf("  %-20s %8.3f %8.3f %8.3f%n", e.getKey(), v[v.length / 2] / 1e6, v[v.length * 9 / 10] / 1e6,
                    v[v.length - 1] / 1e6);
        }
    }

    static String rss() throws IOException {
        return java.nio.file.Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmRSS")).findFirst().orElse("?").replaceAll("\\s+", " ");
    }
}

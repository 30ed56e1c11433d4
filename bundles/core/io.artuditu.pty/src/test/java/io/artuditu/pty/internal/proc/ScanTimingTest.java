package io.artuditu.pty.internal.proc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Times full scans of this host's {@code /proc} and prints the median; asserts nothing about
 * time. {@code -Dartuditu.procscan.extra=N} first starts N extra {@code sleep} processes to
 * see how the scan grows with the process count.
 */
@EnabledOnOs(OS.LINUX)
class ScanTimingTest {
    static final int WARMUP = 50;
    static final int RUNS = 201;

    @Test
    void medianFullScan() throws Exception {
        int extra = Integer.getInteger("artuditu.procscan.extra", 0);
        Process sleeps = null;
        if (extra > 0) {
            sleeps = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt " + extra + " ]; do sleep 120 & i=$((i+1)); done; wait").start();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (sleeps.descendants().count() < extra && System.nanoTime() < end) {
                Thread.sleep(50);
            }
        }
        try {
            ProcFs fs = new ProcFs(Path.of("/proc"), ProcFs.MAX_PROCESSES);
            for (int i = 0; i < WARMUP; i++) {
                fs.scan(1);
            }
            long[] nanos = new long[RUNS];
            int processes = 0;
            for (int i = 0; i < RUNS; i++) {
                long t0 = System.nanoTime();
                processes = scanOnce(fs);
                nanos[i] = System.nanoTime() - t0;
            }
            Arrays.sort(nanos);
            System.out.printf("process scan: %d processes, median %.3f ms, p90 %.3f ms, min %.3f ms (%d runs)%n",
                    processes, nanos[RUNS / 2] / 1e6, nanos[RUNS * 9 / 10] / 1e6, nanos[0] / 1e6, RUNS);
            assertTrue(processes > extra);
        } finally {
            if (sleeps != null) {
                sleeps.descendants().forEach(ProcessHandle::destroyForcibly);
                sleeps.destroyForcibly();
                sleeps.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static int scanOnce(ProcFs fs) throws IOException {
        return fs.scan(1).size();
    }
}

package io.artuditu.pty.internal.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.pty.proc.ProcessTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Each detection_performance counter moves when, and only when, its work happens. */
@Timeout(30)
class ScanCountersTest {
    @TempDir
    Path dir;
    ProcessScanner scanner;
    final AtomicLong clock = new AtomicLong(1_000_000);

    @AfterEach
    void stop() {
        if (scanner != null) {
            scanner.stop();
        }
    }

    long count(String name) {
        return scanner.counters().get(name);
    }

    /** Moves the clock past the interval and waits for the scan a stale ask starts. */
    void nextScan() throws InterruptedException {
        long before = scanner.sampledAtMillis();
        clock.addAndGet(500);
        scanner.tree(50);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (scanner.sampledAtMillis() == before && System.nanoTime() < end) {
            Thread.sleep(2);
        }
        assertTrue(scanner.sampledAtMillis() > before, "a new scan ran");
    }

    @Test
    void theCountersAreTheDocumentedOnesInOrderAndStartAtZero() {
        scanner = new ProcessScanner(dir, clock::get, 500);
        Map<String, Long> c = scanner.counters();
        assertEquals(List.of("panes_considered", "panes_extracted", "full_fleet_audits", "audit_recoveries",
                "detection_extractions", "detection_skips"), List.copyOf(c.keySet()));
        c.values().forEach(v -> assertEquals(0L, v));
    }

    @Test
    void asksAreConsideredAndEitherExtractedFromAStaleCacheOrSkippedOnAFreshOne() throws Exception {
        FakeProc p = new FakeProc(dir);
        p.add(1, 0, "init");
        p.add(50, 1, "sh");
        scanner = new ProcessScanner(dir, clock::get, 500);
        scanner.start();
        scanner.awaitFresh(50, 1, 10_000);
        assertEquals(1, count("full_fleet_audits"), "the first pass");
        long considered = count("panes_considered");
        long extracted = count("panes_extracted");
        long skips = count("detection_skips");

        for (int i = 0; i < 10; i++) {
            assertEquals(ProcessTree.Status.OK, scanner.tree(50).scan());
        }
        assertEquals(considered + 10, count("panes_considered"));
        assertEquals(skips + 10, count("detection_skips"), "a fresh cache: no scan asked for");
        assertEquals(1, extracted, "awaitFresh built the tree");
        assertEquals(1, count("panes_extracted"), "built once for this scan, then looked up");
        long stale = count("detection_extractions");

        clock.addAndGet(500);
        scanner.tree(50);
        assertEquals(stale + 1, count("detection_extractions"), "a stale cache asks for a pass");
        assertEquals(considered + 11, count("panes_considered"));
    }

    @Test
    void eachPassIsAnAuditThatReExtractsKnownPanesAndCountsTheAnswersItCorrected() throws Exception {
        FakeProc p = new FakeProc(dir);
        p.add(1, 0, "init");
        p.add(50, 1, "sh");
        p.add(60, 1, "bash");
        scanner = new ProcessScanner(dir, clock::get, 500);
        scanner.start();
        scanner.awaitFresh(50, 1, 10_000);
        scanner.tree(60);
        long extracted = count("panes_extracted");
        assertEquals(2, extracted, "two panes asked about, two trees built");

        nextScan(); // nothing changed under either pane
        assertEquals(2, count("full_fleet_audits"));
        assertEquals(0, count("audit_recoveries"), "an audit that found everything as it was");
        assertEquals(extracted + 2, count("panes_extracted"), "the pass re-extracted both known panes");
        long afterAudit = count("panes_extracted");
        scanner.tree(50);
        scanner.tree(60);
        assertEquals(afterAudit, count("panes_extracted"), "asks after the audit are lookups");

        p.add(51, 50, "claude"); // a child appears under one pane
        Files.walk(dir.resolve("60")).sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        nextScan();
        assertEquals(3, count("full_fleet_audits"));
        assertEquals(2, count("audit_recoveries"), "one pane gained a child, the other's process vanished");
        assertEquals(List.of(51L), scanner.tree(50).descendants().stream().map(e -> e.pid()).toList());

        nextScan(); // pid 60 is gone, so it is no longer audited; 50 is unchanged
        assertEquals(2, count("audit_recoveries"));
    }

    @Test
    void aFailedPassIsNoAudit() throws Exception {
        scanner = new ProcessScanner(dir.resolve("missing"), clock::get, 500);
        scanner.start();
        scanner.awaitFresh(1, 1, 10_000);
        assertEquals(0, count("full_fleet_audits"));
        assertEquals(0, count("panes_extracted"));
        assertTrue(count("panes_considered") >= 1);
    }

    @Test
    void aRealProcScanCountsTheTestsOwnProcess() throws Exception {
        scanner = new ProcessScanner(Path.of("/proc"), System::currentTimeMillis, 20);
        scanner.start();
        long self = ProcessHandle.current().pid();
        assertEquals(ProcessTree.Status.OK, scanner.awaitFresh(self, 0, 10_000).scan());
        assertTrue(count("full_fleet_audits") >= 1);
        assertTrue(count("panes_extracted") >= 1);
    }
}

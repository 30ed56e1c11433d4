package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The memory targets of issue 4, measured two ways: the exact accounting model (asserted) and
 * the heap growth of many instances after full collections (printed, and checked with room
 * for the collector's noise). Not a timed test. Method and figures: docs/vt.md, "Memory".
 */
class MemoryTest {

    static final String LINE = "0123456789".repeat(10) + "\r\n";

    @Test
    void plainHundredCharacterLineCostsAtMost300Bytes() {
        Terminal t = Terminal.create(120, 24, new Limits(64L << 20, 4096));
        byte[] line = LINE.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 10_000; i++) {
            t.feed(line);
        }
        int lines = t.historySize();
        assertEquals(10_000 - 23, lines);
        long perLine = t.historyBytes() / lines;
        assertEquals(216, perLine);
        // The ring's slot: a 4-byte reference in an array at most twice the line count.
        assertTrue(perLine + 8 <= 300);

        long before = usedAfterGc();
        Terminal u = Terminal.create(120, 24, new Limits(64L << 20, 4096));
        for (int i = 0; i < 100_000; i++) {
            u.feed(line);
        }
        long measured = (usedAfterGc() - before) / u.historySize();
        System.out.printf("vt memory: 100-char line, model %d B + ring slot, heap delta %d B%n", perLine, measured);
        assertTrue(measured <= 300, "heap delta per line " + measured);
    }

    @Test
    void idle80x24PaneFitsIn32KiB() {
        int n = 2000;
        Terminal[] keep = new Terminal[n];
        long before = usedAfterGc();
        for (int i = 0; i < n; i++) {
            keep[i] = Terminal.create(80, 24);
        }
        long measured = (usedAfterGc() - before) / n;
        // One grid: 24 rows × (Line object 32 B + int[80] 336 B + long[80] 656 B) + the row array.
        long grid = 24 * (32 + HistoryLine.array(80, 4) + HistoryLine.array(80, 8)) + HistoryLine.array(24, 4);
        System.out.printf("vt memory: idle 80x24 pane, grid model %d B, heap delta %d B%n", grid, measured);
        assertTrue(keep[n - 1].cols() == 80);
        assertTrue(measured <= 32 * 1024, "idle pane " + measured);
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 6; i++) {
            System.gc();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}

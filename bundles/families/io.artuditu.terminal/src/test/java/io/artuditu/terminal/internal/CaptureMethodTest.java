package io.artuditu.terminal.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** capture's addressing: one numbering across scrollback and screen, negative from the end, bounded. */
class CaptureMethodTest {
    /** 10 columns, 3 rows, lines "0".."9" printed: 7 in the scrollback, "7","8","9" on screen. */
    private static Terminal tenLines() {
        Terminal t = Terminal.create(10, 3);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            b.append(i).append(i < 9 ? "\r\n" : "");
        }
        t.feed(b.toString().getBytes(StandardCharsets.UTF_8));
        return t;
    }

    @Test
    void byDefaultTheScreen() {
        CaptureMethod.Range r = CaptureMethod.read(tenLines(), 5, null, null, false);
        assertEquals(7, r.history());
        assertEquals(10, r.total());
        assertEquals(7, r.start());
        assertEquals(3, r.lines());
        assertEquals("7\n8\n9", r.text());
        assertFalse(r.truncated());
        assertEquals(5, r.revision());
    }

    @Test
    void lineZeroIsTheOldestScrollbackLineAndTheRangeCrossesIntoTheScreen() {
        CaptureMethod.Range r = CaptureMethod.read(tenLines(), 0, 5L, 4, false);
        assertEquals("5\n6\n7\n8", r.text());
        assertEquals(CaptureMethod.read(tenLines(), 0, 0L, null, false).text(), "0\n1\n2\n3\n4\n5\n6\n7\n8\n9");
    }

    @Test
    void negativeStartCountsFromTheEndAndIsClampedToZero() {
        assertEquals("8\n9", CaptureMethod.read(tenLines(), 0, -2L, null, false).text());
        assertEquals("9", CaptureMethod.read(tenLines(), 0, -1L, null, false).text());
        CaptureMethod.Range all = CaptureMethod.read(tenLines(), 0, -1000L, 2, false);
        assertEquals(0, all.start());
        assertEquals("0\n1", all.text());
    }

    @Test
    void aStartPastTheEndGivesNoLinesAndLinesStopAtTheEnd() {
        CaptureMethod.Range past = CaptureMethod.read(tenLines(), 0, 50L, 5, false);
        assertEquals(10, past.start());
        assertEquals(0, past.lines());
        assertEquals("", past.text());
        assertFalse(past.truncated());
        CaptureMethod.Range tail = CaptureMethod.read(tenLines(), 0, 8L, 100, false);
        assertEquals(2, tail.lines());
        assertFalse(tail.truncated(), "running into the end is not truncation");
    }

    @Test
    void moreThanTenThousandLinesAreCut() {
        Terminal t = Terminal.create(20, 5);
        byte[] line = "x\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 12_000; i++) {
            t.feed(line);
        }
        CaptureMethod.Range r = CaptureMethod.read(t, 0, 0L, null, false);
        assertEquals(CaptureMethod.MAX_LINES, r.lines());
        assertTrue(r.truncated());
    }

    @Test
    void moreThanFourMebibytesAreCutAtALineBoundary() {
        Terminal t = Terminal.create(1000, 5, new io.artuditu.vt.Limits(64L << 20, 4096));
        byte[] line = ("y".repeat(1000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 5_000; i++) {
            t.feed(line);
        }
        CaptureMethod.Range r = CaptureMethod.read(t, 0, 0L, CaptureMethod.MAX_LINES, false);
        assertTrue(r.truncated());
        long bytes = r.text().getBytes(StandardCharsets.UTF_8).length;
        assertTrue(bytes <= CaptureMethod.MAX_BYTES, "bytes " + bytes);
        assertTrue(bytes > CaptureMethod.MAX_BYTES - 1002, "filled up to the last whole line: " + bytes);
        assertTrue(r.text().endsWith("y"), "no partial line");
    }

    @Test
    void utf8LengthCountsLikeTheEncoder() {
        for (String s : new String[] {"", "abc", "é", "€", "😀", "a😀é\n"}) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, io.artuditu.terminal.internal.Utf8.length(s), s);
        }
    }
}

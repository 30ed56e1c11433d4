package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hostile input: nothing grows past its bound and nothing throws. */
class BoundsTest {
    private static final String ALPHABET = "\033[];?:0123456789m\007\030\r\n\tP_X^\\hlHJK@PLMr";

    private static Emulator emu() {
        return new Emulator(80, 24, new Limits(64 * 1024, 4096));
    }

    private static void feedChunks(Emulator t, byte[] b) {
        for (int off = 0; off < b.length; off += 4093) {
            t.feed(b, off, Math.min(4093, b.length - off));
        }
    }

    @Test
    void endlessOscIsDiscardedNotBuffered() {
        Emulator t = emu();
        t.feed("\033]2;".getBytes(StandardCharsets.US_ASCII));
        byte[] junk = new byte[1 << 20];
        Arrays.fill(junk, (byte) 'a');
        for (int i = 0; i < 16; i++) {
            t.feed(junk);
            assertTrue(t.parserRetainedBytes() <= 4096 + 1024, "parser holds " + t.parserRetainedBytes());
        }
        t.feed("\007ok".getBytes(StandardCharsets.US_ASCII));
        assertEquals("", t.title(), "an over-long OSC is ignored as a whole");
        assertEquals("ok", t.rowText(0, false));
        t.feed("\033]2;short\007".getBytes(StandardCharsets.US_ASCII));
        assertEquals("short", t.title());
    }

    @Test
    void thousandsOfParametersAreClamped() {
        Emulator t = emu();
        StringBuilder sb = new StringBuilder("\033[");
        for (int i = 0; i < 10000; i++) {
            sb.append("99999999999;");
        }
        sb.append("31mX\033[");
        for (int i = 0; i < 5000; i++) {
            sb.append(":");
        }
        sb.append("HY\033[999999999999999999999;99999999999999999999HZ");
        feedChunks(t, sb.toString().getBytes(StandardCharsets.US_ASCII));
        assertEquals("Y", t.rowText(0, false), "colons alone are default parameters: CUP 1;1");
        assertEquals(23, t.cursorRow());
        assertEquals(79, t.cursorCol());
        assertTrue(t.parserRetainedBytes() <= 4096 + 1024);
    }

    @Test
    void queryFloodIsCapped() {
        Emulator t = emu();
        byte[] q = "\033[6n".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
        feedChunks(t, q);
        assertTrue(t.takeReplies().length <= Emulator.MAX_REPLY_BYTES);
    }

    @Test
    void randomBytesNeverThrowAndStayInBounds() {
        for (long seed = 1; seed <= 20; seed++) {
            Random r = new Random(seed);
            Emulator t = emu();
            byte[] b = new byte[200_000];
            r.nextBytes(b);
            // Bias towards escape-sequence bytes so the parser goes everywhere.
            for (int i = 0; i < b.length; i += 7) {
                b[i] = (byte) ALPHABET.charAt(r.nextInt(ALPHABET.length()));
            }
            int off = 0;
            while (off < b.length) {
                int n = Math.min(b.length - off, 1 + r.nextInt(512));
                t.feed(b, off, n);
                off += n;
                if (r.nextInt(200) == 0) {
                    t.resize(1 + r.nextInt(120), 1 + r.nextInt(40));
                }
                assertTrue(t.cursorRow() >= 0 && t.cursorRow() < t.rows());
                assertTrue(t.cursorCol() >= 0 && t.cursorCol() < t.cols());
            }
            t.takeReplies();
            assertTrue(t.historyBytes() <= 64 * 1024);
            assertTrue(t.parserRetainedBytes() <= 4096 + 1024);
            t.screenText(true);
            for (int i = 0; i < t.historySize(); i++) {
                t.historyText(i, true);
            }
        }
    }

    @Test
    void historyKeepsItsByteBudgetExactly() {
        Terminal t = Terminal.create(100, 5, new Limits(100_000, 4096));
        String line = "x".repeat(100) + "\r\n";
        long expectedPerLine = HistoryLine.OBJECT_BYTES + HistoryLine.array(100, 1);
        for (int i = 0; i < 10; i++) {
            t.feed(line.getBytes(StandardCharsets.US_ASCII));
        }
        assertEquals(6, t.historySize());
        assertEquals(6 * expectedPerLine, t.historyBytes());
        assertTrue(expectedPerLine <= 300, "a 100-character plain line costs " + expectedPerLine);
        for (int i = 0; i < 5000; i++) {
            t.feed(line.getBytes(StandardCharsets.US_ASCII));
        }
        assertEquals(100_000 / expectedPerLine, t.historySize());
        assertEquals(t.historySize() * expectedPerLine, t.historyBytes());
        assertEquals("x".repeat(100), t.historyText(0, false));
        assertTrue(t.historyWrapped(0) == false);
    }

    @Test
    void zeroBudgetKeepsNoHistory() {
        Terminal t = Terminal.create(10, 2, new Limits(0, 4096));
        t.feed("a\r\nb\r\nc\r\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, t.historySize());
        assertEquals(0, t.historyBytes());
    }

    @Test
    void historyKeepsWideTextColoursAndWrapFlags() {
        Terminal t = Terminal.create(4, 1, Limits.DEFAULT);
        t.feed("\033[31mab\u4e2d\033[0mz\r\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(2, t.historySize());
        assertEquals("\033[0;31mab\u4e2d\033[0m", t.historyText(0, true));
        assertTrue(t.historyWrapped(0));
        assertEquals("z", t.historyText(1, false));
    }

    @Test
    void endlessClipboardIsDiscardedWhetherAllowedOrNot() {
        for (int allowed : new int[] {0, 1000}) {
            Emulator t = new Emulator(80, 24, new Limits(64 * 1024, 4096, allowed));
            t.feed("\033]52;c;".getBytes(StandardCharsets.US_ASCII));
            byte[] junk = new byte[1 << 20];
            Arrays.fill(junk, (byte) 'Q');
            for (int i = 0; i < 8; i++) {
                t.feed(junk);
                assertTrue(t.parserRetainedBytes() <= 4096 + 1024, "parser holds " + t.parserRetainedBytes());
            }
            t.feed("\007ok".getBytes(StandardCharsets.US_ASCII));
            assertEquals(null, t.takeClipboardWrite(), "an over-long OSC 52 is ignored as a whole");
            assertEquals("ok", t.rowText(0, false));
        }
    }

    @Test
    void clipboardStringBoundFollowsThePolicy() {
        Emulator t = new Emulator(80, 24, new Limits(0, 64, 30_000));
        t.feed("\033]52;c;".getBytes(StandardCharsets.US_ASCII));
        byte[] junk = new byte[1 << 20];
        Arrays.fill(junk, (byte) 'Q');
        t.feed(junk);
        // 30,000 bytes encode to 40,000 characters; the parser keeps at most that plus slack.
        assertTrue(t.parserRetainedBytes() <= 40_064 + 1024, "parser holds " + t.parserRetainedBytes());
        t.feed("\007".getBytes(StandardCharsets.US_ASCII));
        assertTrue(t.parserRetainedBytes() <= 1024, "a long OSC's buffer is released");
    }

    @Test
    void aLinkFloodKeepsTheTableBoundedAndTheLinkedHistoryCounted() {
        Emulator t = new Emulator(20, 4, new Limits(64 * 1024, 4096));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            sb.append("\033]8;;https://x/").append(i).append("\007L\033]8;;\007\r\n");
        }
        feedChunks(t, sb.toString().getBytes(StandardCharsets.US_ASCII));
        assertEquals(LinkTable.CAPACITY, t.liveLinks());
        int last = t.historySize() - 1;
        assertEquals("https://x/4996", t.historyLink(last, 0).uri());
        assertEquals(null, t.historyLink(0, 0), "the oldest lines' links were evicted");
        long perLine = HistoryLine.OBJECT_BYTES + HistoryLine.array(1, 1) + HistoryLine.array(1, 4);
        assertEquals(t.historySize() * perLine, t.historyBytes(), "the link array is counted");
        assertTrue(t.historyBytes() <= 64 * 1024);
    }
}

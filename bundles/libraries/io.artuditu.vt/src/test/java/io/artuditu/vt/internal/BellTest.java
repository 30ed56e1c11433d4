package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link Terminal#bells()}: BEL rings outside strings, never as an OSC terminator. */
class BellTest {
    private static Terminal fed(String s) {
        Terminal t = Terminal.create(20, 4);
        t.feed(s.getBytes(StandardCharsets.UTF_8));
        return t;
    }

    @Test
    void countsEveryBellInText() {
        assertEquals(0, fed("quiet").bells());
        assertEquals(3, fed("a\007b\007\007").bells());
    }

    @Test
    void theBellThatEndsAnOscStringIsNoBell() {
        Terminal t = fed("\033]0;title\007\033]9;hello\007");
        assertEquals(0, t.bells());
        assertEquals("title", t.title());
    }

    @Test
    void aBellInsideACsiSequenceRingsAndTheSequenceGoesOn() {
        Terminal t = fed("\033[1\0072Cx");
        assertEquals(1, t.bells());
        assertEquals("            x", t.rowText(0, false));
    }

    @Test
    void aBellSplitFromItsNeighboursAcrossFeedsStillCountsOnce() {
        Terminal t = Terminal.create(20, 4);
        t.feed(new byte[] {0x1b, ']', '0', ';', 'x'});
        t.feed(new byte[] {0x07, 0x07});
        assertEquals(1, t.bells(), "the first BEL ends the OSC, the second rings");
    }

    @Test
    void aBellMovesNoRevisionAndSurvivesAReset() {
        Terminal t = fed("x");
        long rev = t.revision();
        t.feed(new byte[] {0x07});
        assertEquals(rev, t.revision(), "nothing visible changed");
        t.feed("\033c\007".getBytes(StandardCharsets.US_ASCII));
        assertEquals(2, t.bells());
    }
}

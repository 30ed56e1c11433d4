package io.artuditu.pty.internal.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The stat line's comm and ppid, including comms that look like the line's own syntax. */
class StatTest {
    static Stat parse(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return Stat.parse(b, b.length);
    }

    @Test
    void plainLine() {
        Stat s = parse("19381 (cat) R 19373 19373 18063 0 -1 4194304 98 0 0 0\n");
        assertEquals("cat", s.commText());
        assertEquals(19373, s.ppid());
    }

    @Test
    void commWithSpacesAndParentheses() {
        Stat s = parse("42 (a) b (c) d) S 7 42 42 0 -1\n");
        assertEquals("a) b (c) d", s.commText());
        assertEquals(7, s.ppid());
    }

    @Test
    void commThatLooksLikeFields() {
        Stat s = parse("42 (x) R 999 9) S 3 42 42 0\n");
        assertEquals("x) R 999 9", s.commText());
        assertEquals(3, s.ppid());
    }

    @Test
    void emptyCommAndKernelRoot() {
        Stat s = parse("2 () S 0 0 0 0 -1");
        assertEquals("", s.commText());
        assertEquals(0, s.ppid());
    }

    @Test
    void controlCharactersAreShownAsQuestionMarks() {
        assertEquals("a?b?", parse("5 (a\nb\u007f) S 1 5").commText());
    }

    @Test
    void fifteenBytesMayBeTruncated() {
        assertTrue(parse("5 (abcdefghijklmno) S 1 5").commMayBeTruncated());
        assertFalse(parse("5 (abcdefghijklmn) S 1 5").commMayBeTruncated());
    }

    @Test
    void malformedLinesAreRejected() {
        assertNull(parse(""));
        assertNull(parse("5 cat S 1"));
        assertNull(parse("5 (cat S 1"));
        assertNull(parse("5 )cat( S 1"));
        assertNull(parse("5 (cat)"));
        assertNull(parse("5 (cat) S"));
        assertNull(parse("5 (cat) S x1"));
        assertNull(parse("5 (cat) S 1x 5"));
    }

    @Test
    void directoryNamesThatArePids() {
        assertEquals(1, ProcFs.pid("1"));
        assertEquals(4194304, ProcFs.pid("4194304"));
        assertEquals(-1, ProcFs.pid("self"));
        assertEquals(-1, ProcFs.pid("12a"));
        assertEquals(-1, ProcFs.pid(""));
        assertEquals(-1, ProcFs.pid("1234567890123456789"));
    }
}

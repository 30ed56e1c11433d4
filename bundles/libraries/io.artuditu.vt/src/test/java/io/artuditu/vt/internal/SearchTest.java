package io.artuditu.vt.internal;

import static io.artuditu.vt.internal.ScreenTest.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.artuditu.vt.Match;
import io.artuditu.vt.Terminal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scrollback ranges and search over the retained text. */
class SearchTest {

    @Test
    void historyRangeAsTextWithAndWithoutSgr() {
        Terminal t = term(10, 2, "one\r\n\033[1mtwo\033[m\r\nthree\r\nfour");
        assertEquals(2, t.historySize());
        assertEquals("one\ntwo", t.historyText(0, 2, false));
        assertEquals("one\n\033[0;1mtwo\033[0m", t.historyText(0, 2, true));
        assertEquals("", t.historyText(1, 1, false));
        assertThrows(IndexOutOfBoundsException.class, () -> t.historyText(0, 3, false));
        assertThrows(IndexOutOfBoundsException.class, () -> t.historyText(2, 1, false));
    }

    @Test
    void findsInHistoryAndScreenWithLineNumbersAcrossBoth() {
        Terminal t = term(10, 2, "error one\r\nok\r\nan error\r\nERROR");
        // history: "error one", "ok"; screen: "an error", "ERROR"
        assertEquals(List.of(new Match(0, 0, 0, 5), new Match(2, 3, 2, 8)), t.search("error", true, 100));
        assertEquals(List.of(new Match(0, 0, 0, 5), new Match(2, 3, 2, 8), new Match(3, 0, 3, 5)),
                t.search("Error", false, 100));
        assertEquals(List.of(), t.search("Error", true, 100));
        assertEquals(List.of(), t.search("", false, 100));
    }

    @Test
    void matchCrossesAWrapButNotALineEnd() {
        Terminal t = term(5, 4, "hello world\r\nab\r\ncd");
        // rows: "hello", " worl", "d" (wrapped), "ab", then "cd"
        assertEquals(List.of(new Match(0, 3, 1, 3)), t.search("lo wo", true, 10));
        assertEquals(List.of(new Match(1, 3, 2, 1)), t.search("rld", true, 10));
        assertEquals(List.of(), t.search("dab", true, 10));
        assertEquals(List.of(), t.search("abcd", true, 10));
    }

    @Test
    void wideCharactersCountTwoColumns() {
        Terminal t = term(10, 1, "\u4e00\u4e8cab");
        assertEquals(List.of(new Match(0, 2, 0, 5)), t.search("\u4e8ca", true, 10));
    }

    @Test
    void resultCountIsBounded() {
        Terminal t = term(40, 3, "x".repeat(30));
        assertEquals(7, t.search("x", true, 7).size());
        assertEquals(30, t.search("x", true, Integer.MAX_VALUE).size());
        assertEquals(15, t.search("xx", true, 100).size());
        assertEquals(0, t.search("x", true, 0).size());
        Terminal big = term(200, 60, ("x".repeat(199) + "\r\n").repeat(60));
        assertEquals(Terminal.MAX_MATCHES, big.search("x", true, Integer.MAX_VALUE).size());
    }
}

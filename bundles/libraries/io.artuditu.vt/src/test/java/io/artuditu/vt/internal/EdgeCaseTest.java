package io.artuditu.vt.internal;

import static io.artuditu.vt.internal.ScreenTest.cursor;
import static io.artuditu.vt.internal.ScreenTest.screen;
import static io.artuditu.vt.internal.ScreenTest.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Style;
import io.artuditu.vt.Terminal;
import org.junit.jupiter.api.Test;

/**
 * The edge cases of docs/vt.md "Edge cases, as xterm": each test states xterm's behaviour
 * for one control in one state. Where tmux 3.3a differs the test says so; TmuxDiffTest holds
 * the same cases against the recorded corpus.
 */
class EdgeCaseTest {

    // --- the pending wrap after writing the last column

    @Test
    void backspaceWhileTheWrapIsPendingMovesToTheColumnBeforeTheLast() {
        // tmux: to the last column.
        screen(term(5, 2, "abcde\b*"), "abc*e", "");
        screen(term(5, 2, "abcde\033[2D*"), "ab*de", "");
    }

    @Test
    void lineFeedWhileTheWrapIsPendingLeavesTheCursorInTheLastColumnNoLongerPending() {
        // tmux keeps the wrap pending, so its '*' starts the row after.
        Terminal t = term(5, 3, "abcde\n*");
        screen(t, "abcde", "    *", "");
        cursor(t, 1, 4);
    }

    @Test
    void aTabWhileTheWrapIsPendingKeepsItPending() {
        Terminal t = term(5, 3, "abcde\t*");
        screen(t, "abcde", "*", "");
        cursor(t, 1, 1);
    }

    @Test
    void eraseToTheEndOfTheLineWhileTheWrapIsPendingErasesTheLastCellAndCancelsTheWrap() {
        screen(term(5, 2, "abcde\033[K*"), "abcd*", "");
        screen(term(5, 2, "abcde\033[X*"), "abcd*", "");
        screen(term(5, 2, "abcde\033[J*"), "abcd*", "");
    }

    @Test
    void eraseToTheStartOfTheLineWhileTheWrapIsPendingKeepsItPending() {
        screen(term(5, 2, "abcde\033[1K*"), "", "*");
    }

    @Test
    void insertAndDeleteCharacterWhileTheWrapIsPendingActOnTheLastColumn() {
        screen(term(5, 2, "abcde\033[@*"), "abcd*", "");
        screen(term(5, 2, "abcde\033[P*"), "abcd*", "");
    }

    @Test
    void restoringTheCursorBringsBackAPendingWrap() {
        // tmux clamps the restored column and forgets the pending wrap.
        screen(term(5, 3, "abcde\0337\033[3;1Hx\0338*"), "abcde", "*", "x");
        screen(term(5, 3, "abcde\033[s\033[3;1Hx\033[u*"), "abcde", "*", "x");
    }

    @Test
    void savingTheCursorDoesNotSaveAutowrap() {
        Terminal t = term(5, 2, "\0337\033[?7l\0338abcdefg");
        screen(t, "abcdg", "");
    }

    @Test
    void aWideCharacterThatDoesNotFitWrapsWholeAndLeavesTheLastCellAsItWas() {
        Terminal t = term(5, 3, "\033[1;5H\033[41m\u4e2d");
        screen(t, "", "\u4e2d", "");
        assertEquals(0, t.style(0, 4), "the skipped last cell keeps its rendition");
        assertTrue(t.wrapped(0));
        Terminal u = term(5, 3, "abcdz\033[1;5H\u4e2d");
        screen(u, "abcdz", "\u4e2d", "");
    }

    @Test
    void aWideCharacterThatDoesNotFitIsDroppedWithoutAutowrap() {
        Terminal t = term(5, 2, "\033[?7l\033[1;5Hx\u4e2dy");
        screen(t, "    y", "");
        cursor(t, 0, 4);
    }

    @Test
    void backspaceAtTheStartOfAContinuationRowStaysThere() {
        // tmux moves back to the end of the row before when that row wrapped.
        Terminal t = term(5, 3, "abcdefg\r\bX");
        screen(t, "abcde", "Xg", "");
        cursor(t, 1, 1);
    }

    @Test
    void switchingColumnModeClearsTheScreenAndHomesTheCursorButKeepsTheWidth() {
        Terminal t = term(5, 3, "abc\r\ndef\033[?3hx");
        screen(t, "x", "", "");
        assertEquals(5, t.cols());
        Terminal u = term(5, 3, "abc\033[2;3H\033[?3l");
        screen(u, "", "", "");
        cursor(u, 0, 0);
    }

    // --- character sets

    @Test
    void theBritishSetShowsThePoundSignForTheHashSign() {
        // tmux ignores ESC ( A.
        screen(term(10, 1, "\033(A#a#\033(B#"), "\u00a3a\u00a3#");
    }

    @Test
    void lockingShiftsInvokeG2AndG3() {
        // tmux 3.3a ignores G2, G3, LS2, LS3, SS2 and SS3.
        screen(term(10, 2, "\033*0\033+A\033nq#\033o#\017#"), "\u2500#\u00a3#", "");
    }

    @Test
    void aSingleShiftAppliesToTheNextCharacterOnly() {
        screen(term(10, 1, "\033*0\033+0\033Nqq\033Oxx"), "\u2500q\u2502x");
        // a character outside ASCII uses the single shift up too
        screen(term(10, 1, "\033*0\033N\u00e9q"), "\u00e9q");
    }

    @Test
    void anUnknownDesignationLeavesTheSetAsItWas() {
        screen(term(10, 1, "\033(0q\033(1q\033(Kq\033(Bq"), "\u2500\u2500\u2500q");
    }

    @Test
    void savingTheCursorKeepsAllFourDesignationsAndTheInvokedSet() {
        Terminal t = term(10, 1, "\033*0\033n\0337\017\033*B\033(0q\0338q");
        // after DECRC: G2 is graphics again and invoked, G0 back to ASCII.
        screen(t, "\u2500");
        t.feed("\017q".getBytes());
        screen(t, "\u2500q");
    }

    @Test
    void aSoftResetDesignatesAsciiAgainAndEndsInsertMode() {
        // tmux 3.3a ignores DECSTR.
        screen(term(10, 2, "\033(0q\033[!pq"), "\u2500q", "");
        screen(term(10, 2, "abc\033[4h\033[!p\033[1;1HX"), "Xbc", "");
    }

    // --- combining marks

    @Test
    void aCombiningMarkOnTheLastColumnWithoutAutowrapJoinsTheCharacterWrittenThere() {
        // tmux puts it on the cell before the cursor.
        Terminal t = term(5, 1, "\033[?7l\033[1;5Hab\u0304");
        assertEquals("b\u0304", t.grapheme(0, 4));
    }

    @Test
    void aCombiningMarkWhileTheWrapIsPendingJoinsTheLastCharacter() {
        Terminal t = term(5, 2, "abcde\u0301");
        assertEquals("e\u0301", t.grapheme(0, 4));
        screen(t, "abcde\u0301", "");
    }

    @Test
    void aCombiningMarkAfterTheCursorMovedJoinsTheCharacterUnderTheCursor() {
        Terminal t = term(5, 1, "abcde\033[3G\u0302");
        assertEquals("c\u0302", t.grapheme(0, 2));
        assertEquals("e", t.grapheme(0, 4));
    }

    @Test
    void aCombiningMarkAfterAScrollDoesNotJoinTheRowThatMovedAway() {
        Terminal t = term(5, 2, "ab\033D\u0301");
        // the cursor (1, 2) sits on an empty cell of the new row: the mark is dropped.
        screen(t, "ab", "");
        assertEquals("b", t.grapheme(0, 1));
    }

    // --- lines, tabs and movement tmux 3.3a lacks or treats otherwise

    @Test
    void insertAndDeleteLineOutsideTheScrollRegionDoNothing() {
        // tmux inserts or deletes between the cursor and the bottom of the screen.
        Terminal t = term(3, 4, "a\r\nb\r\nc\r\nd\033[2;3r\033[1;1H\033[L\033[4;1H\033[M");
        screen(t, "a", "b", "c", "d");
    }

    @Test
    void insertLineMovesTheCursorToTheFirstColumn() {
        Terminal t = term(5, 3, "\033[2;3H\033[L");
        cursor(t, 1, 0);
    }

    @Test
    void forwardTabulationMovesByTabStopsAndStopsAtTheLastColumn() {
        Terminal t = term(20, 1, "\033[2I");
        cursor(t, 0, 16);
        t.feed("\033[5I".getBytes());
        cursor(t, 0, 19);
    }

    @Test
    void relativeMovesByColumnAndRowClampAtTheEdges() {
        Terminal t = term(10, 5, "\033[1;3H\033[4a");
        cursor(t, 0, 6);
        t.feed("\033[99a\033[99e".getBytes());
        cursor(t, 4, 9);
    }

    @Test
    void eraseInAColourLeavesOnlyTheBackgroundOnTheErasedCells() {
        Terminal t = term(5, 2, "abcde\033[1;4;41m\033[1;3H\033[K");
        long s = t.style(0, 3);
        assertEquals(Style.indexed(1), Style.bg(s));
        assertEquals(0, s & ~Style.BG_MASK, "bold and underline are not part of an erased cell");
        assertEquals(0, t.style(1, 0));
    }
}

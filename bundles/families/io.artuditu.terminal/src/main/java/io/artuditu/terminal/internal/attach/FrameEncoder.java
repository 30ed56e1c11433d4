package io.artuditu.terminal.internal.attach;

import io.artuditu.vt.CursorShape;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Style;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * What one attached client has on its screen, and the frame that brings it up to the
 * terminal's current state. State-based: however many changes happened since the last
 * frame, the next one is a single diff from what the client was last sent, so a slow
 * client gets fewer, larger frames and never a backlog.
 *
 * <p>The client state is one code point and one style per cell (the right half of a wide
 * character is {@link #TAIL}) plus, only for rows where a cell carries them, combining marks
 * and underline colours: about 12 bytes per cell, the same order as the emulator's own
 * screen.
 *
 * <p>{@link #next} reads the terminal and must run under the screen's lock; the
 * {@link Frame} it returns owns its data and is serialized outside the lock. Not
 * thread-safe: one encoder per stream, used by the stream's writer thread only.
 */
final class FrameEncoder {
    /** The code point kept for the right half of a wide character (it has no cell of its own). */
    static final int TAIL = -1;
    /** Unchanged cells between two changed spans of a row below which the spans go as one run. */
    static final int MERGE_GAP = 3;

    /**
     * One row-contiguous span of cells starting at (x, y); {@code ch[i]}, {@code style[i]} and
     * {@code underlineColor[i]} per cell sent. {@code underlineColor} is null when no cell of
     * the run has one (most runs).
     */
    record Run(int x, int y, String[] ch, long[] style, int[] underlineColor) {
        /** Cell {@code i}'s underline colour, 0 for the default. */
        int underlineColor(int i) {
            return underlineColor == null ? 0 : underlineColor[i];
        }
    }

    /**
     * One frame. {@code cursor} is {@code {x, y}} or null; {@code shape} is "underline",
     * "bar" or null for block (the default, not sent).
     */
    record Frame(boolean full, List<Run> runs, int[] cursor, String shape, boolean wantsMouse) {
    }

    private int cols = -1;
    private int rows = -1;
    private int[][] cps;
    private long[][] styles;
    private String[][] marks;
    /** Per row, the underline colours the client has; a row is null while all are the default. */
    private int[][] underlineColors;
    /** The terminal revision the client state matches; meaningful only while {@link #live}. */
    private long seenRevision;
    /** Whether the client state came from the live screen (not a scrolled-back view). */
    private boolean live;
    private int[] cursor;
    private String shape;
    private boolean wantsMouse;
    /** The history view, rendered when the viewport is scrolled back. */
    private Terminal scratch;

    /**
     * Forgets the client's state: the next frame is full (attach, resize, watch). Call it
     * before {@link #next} is given another terminal: change tracking is per terminal.
     */
    void reset() {
        cols = -1;
        rows = -1;
    }

    /**
     * The frame from what the client has to {@code term}'s current picture, or null when the
     * client already has it. Call with the screen locked.
     *
     * @param scrollOffset rows the viewport is scrolled back into history (0 for live)
     * @param cursorAllowed false when the pane's process has exited (no cursor then)
     */
    Frame next(Terminal term, int scrollOffset, boolean cursorAllowed) {
        boolean full = cols != term.cols() || rows != term.rows();
        if (full) {
            clientCleared(term.cols(), term.rows());
        }
        int offset = Math.min(Math.max(0, scrollOffset), term.historySize());
        Terminal view = offset == 0 ? term : history(term, offset);
        BitSet changed;
        if (!full && offset == 0 && live) {
            changed = term.rowsChangedSince(seenRevision);
        } else {
            changed = new BitSet(rows);
            changed.set(0, rows);
        }
        List<Run> runs = new ArrayList<>();
        int[] cp = new int[cols];
        long[] st = new long[cols];
        String[] mk = new String[cols];
        int[] uc = new int[cols];
        for (int r = changed.nextSetBit(0); r >= 0 && r < rows; r = changed.nextSetBit(r + 1)) {
            diffRow(view, r, cp, st, mk, uc, runs);
        }
        int[] cur = null;
        if (offset == 0 && cursorAllowed && term.cursorVisible()) {
            cur = new int[] {Math.min(term.cursorCol(), cols - 1), Math.min(term.cursorRow(), rows - 1)};
        }
        String sh = shape(term.cursorShape());
        boolean mouse = term.wantsMouse();
        seenRevision = term.revision();
        live = offset == 0;
        if (!full && runs.isEmpty() && Arrays.equals(cur, cursor) && java.util.Objects.equals(sh, shape)
                && mouse == wantsMouse) {
            return null;
        }
        cursor = cur;
        shape = sh;
        wantsMouse = mouse;
        return new Frame(full, runs, cur, sh, mouse);
    }

    /** The client has just cleared a {@code c} × {@code r} screen: every cell a default blank. */
    private void clientCleared(int c, int r) {
        cols = c;
        rows = r;
        cps = new int[r][c];
        styles = new long[r][c];
        marks = new String[r][];
        underlineColors = new int[r][];
        for (int[] row : cps) {
            Arrays.fill(row, ' ');
        }
        live = false;
        cursor = null;
        shape = null;
        wantsMouse = false;
    }

    /**
     * Compares one row of {@code view} with what the client has, adds the runs that differ
     * and records them as sent. Spans closer than {@link #MERGE_GAP} go as one run; a run
     * never starts on the right half of a wide character and never cuts one.
     */
    private void diffRow(Terminal view, int r, int[] cp, long[] st, String[] mk, int[] uc, List<Run> out) {
        boolean anyMarks = false;
        boolean anyColors = false;
        for (int c = 0; c < cols; c++) {
            String g = view.grapheme(r, c);
            st[c] = view.style(r, c);
            uc[c] = view.underlineColor(r, c);
            anyColors |= uc[c] != 0;
            if (g.isEmpty()) {
                cp[c] = TAIL;
                mk[c] = null;
            } else {
                int code = g.codePointAt(0);
                cp[c] = code;
                int n = Character.charCount(code);
                mk[c] = g.length() > n ? g.substring(n) : null;
                anyMarks |= mk[c] != null;
            }
        }
        int[] had = cps[r];
        long[] hadSt = styles[r];
        String[] hadMk = marks[r];
        int[] hadUc = underlineColors[r];
        int c = 0;
        while (c < cols) {
            if (same(had, hadSt, hadMk, hadUc, cp, st, mk, uc, c)) {
                c++;
                continue;
            }
            int start = c;
            int end = c; // inclusive
            int gap = 0;
            for (c++; c < cols && gap < MERGE_GAP; c++) {
                if (same(had, hadSt, hadMk, hadUc, cp, st, mk, uc, c)) {
                    gap++;
                } else {
                    gap = 0;
                    end = c;
                }
            }
            while (start > 0 && cp[start] == TAIL) {
                start--;
            }
            if (end + 1 < cols && cp[end + 1] == TAIL) {
                end++;
            }
            out.add(run(r, start, end, cp, st, mk, uc));
            System.arraycopy(cp, start, had, start, end - start + 1);
            System.arraycopy(st, start, hadSt, start, end - start + 1);
            if (anyMarks || hadMk != null) {
                if (hadMk == null) {
                    hadMk = marks[r] = new String[cols];
                }
                System.arraycopy(mk, start, hadMk, start, end - start + 1);
            }
            if (anyColors || hadUc != null) {
                if (hadUc == null) {
                    hadUc = underlineColors[r] = new int[cols];
                }
                System.arraycopy(uc, start, hadUc, start, end - start + 1);
            }
            c = end + 1;
        }
    }

    private static boolean same(int[] had, long[] hadSt, String[] hadMk, int[] hadUc, int[] cp, long[] st, String[] mk,
            int[] uc, int c) {
        return had[c] == cp[c] && hadSt[c] == st[c] && (hadUc == null ? 0 : hadUc[c]) == uc[c]
                && java.util.Objects.equals(hadMk == null ? null : hadMk[c], mk[c]);
    }

    private static Run run(int y, int start, int end, int[] cp, long[] st, String[] mk, int[] uc) {
        int n = 0;
        boolean anyColors = false;
        for (int c = start; c <= end; c++) {
            if (cp[c] != TAIL) {
                n++;
                anyColors |= uc[c] != 0;
            }
        }
        String[] ch = new String[n];
        long[] style = new long[n];
        int[] colors = anyColors ? new int[n] : null;
        int i = 0;
        for (int c = start; c <= end; c++) {
            if (cp[c] == TAIL) {
                continue;
            }
            if ((st[c] & Style.HIDDEN) != 0) {
                // Concealed text (SGR 8) is not shown; a blank of the same width keeps the columns.
                ch[i] = c + 1 < cp.length && cp[c + 1] == TAIL ? "\u3000" : " ";
            } else {
                // A lone surrogate has no UTF-8 form; the emulator should never keep one.
                String g = Character.toString(Character.getType(cp[c]) == Character.SURROGATE ? 0xFFFD : cp[c]);
                ch[i] = mk[c] == null ? g : g + mk[c];
            }
            if (colors != null) {
                colors[i] = uc[c];
            }
            style[i++] = st[c];
        }
        return new Run(start, y, ch, style, colors);
    }

    /**
     * The viewport scrolled back {@code offset} rows, as a terminal of the same size: the
     * newest {@code offset} scrollback lines on top, the screen's first rows below them.
     * Each row is replayed from its text with SGR, so cells, widths, renditions and underline
     * colours come out exactly as the emulator keeps them (links are not part of a frame).
     */
    private Terminal history(Terminal term, int offset) {
        if (scratch == null || scratch.cols() != cols || scratch.rows() != rows) {
            scratch = Terminal.create(cols, rows, new Limits(0, 16));
        }
        return viewport(term, offset, scratch);
    }

    /** Draws into {@code into} (a terminal of the viewport's size) the viewport of {@code term} scrolled back {@code offset} rows. */
    static Terminal viewport(Terminal term, int offset, Terminal into) {
        int h = term.historySize();
        int rows = into.rows();
        StringBuilder sb = new StringBuilder(rows * (into.cols() + 16));
        sb.append("\033[0m\033[?7l\033[H\033[2J");
        for (int r = 0; r < rows; r++) {
            int v = h - offset + r;
            String text = v < 0 ? "" : v < h ? term.historyText(v, true) : v - h < term.rows() ? term.rowText(v - h, true) : "";
            sb.append("\033[").append(r + 1).append(";1H").append(text).append("\033[0m");
        }
        into.feed(sb.toString().getBytes(StandardCharsets.UTF_8));
        return into;
    }

    private static String shape(CursorShape s) {
        return switch (s) {
            case BLINKING_UNDERLINE, STEADY_UNDERLINE -> "underline";
            case BLINKING_BAR, STEADY_BAR -> "bar";
            default -> null;
        };
    }
}

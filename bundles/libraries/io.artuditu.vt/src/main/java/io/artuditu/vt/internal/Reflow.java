package io.artuditu.vt.internal;

import io.artuditu.vt.ShellMarks;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * Re-wraps the primary screen and its scrollback to a new size. Rows joined by their wrap
 * flags form one logical line; every logical line is laid out again at the new width, so
 * text that wrapped un-wraps when the screen widens and wraps when it narrows.
 *
 * <p>Rules (see {@code docs/vt.md}, "Resize"):
 * <ul>
 * <li>A wide character never straddles two rows: one that would start in the last column
 *     moves to the next row and leaves that cell empty. At width 1 a wide character cannot
 *     be shown and is dropped.
 * <li>Trailing empty cells (no character, default rendition) are not part of a row. Cells
 *     with no character but a coloured background are kept, but never start a new row.
 * <li>The cursor and the primary screen's saved cursor keep their place in their logical
 *     line. A position past the end of the text keeps its distance from the end on the same
 *     row, limited to the last column.
 * <li>When the text reached the bottom row (a shell at its prompt), it stays at the bottom:
 *     rows it no longer fits into go into the scrollback, and rows gained, by widening or
 *     by adding rows, are filled from the scrollback while it has lines. Otherwise the top
 *     row's text stays at the top and blank rows below absorb growth; text is pushed into
 *     the scrollback only when it no longer fits. Either way the cursor stays on screen;
 *     rows below the new bottom are dropped.
 * <li>Hyperlink serials and underline colours go with their cells. Shell marks and an exit
 *     status belong to a row: they move to the new row holding the cell their row started
 *     with (the last row when that cell is past the text). Rows that end up together OR
 *     their marks, and the status of the last FINISHED mark among them wins.
 * </ul>
 *
 * <p>Scrollback lines that are neither wrapped nor continued and fit the new width are kept
 * as the same objects, so a resize allocates only for lines that actually change. The
 * scrollback is rebuilt by {@link History#push}, so its byte count and budget stay exact.
 */
final class Reflow {
    /** The new primary grid. */
    Line[] grid;
    int row;
    int col;
    int savedRow;
    int savedCol;

    private final int width;
    private final ArrayList<HistoryLine> out = new ArrayList<>();
    private final Line rowBuf;

    // The logical line being collected.
    private int[] cp = new int[256];
    private long[] st = new long[256];
    private String[] marks;
    /** Link serials of the collected cells; null until a line with links is collected. */
    private int[] links;
    /** Underline colours of the collected cells; null until a line with any is collected. */
    private int[] ul;
    private int n;
    // Shell marks of the collected rows, in order: the offset of the row's first cell, its
    // ShellMarks bits and its exit status.
    private int[] markAt = new int[4];
    private byte[] markBits = new byte[4];
    private short[] markStatus = new short[4];
    private int nMarks;
    private boolean open;

    // Positions tracked through the re-wrap: [0] the cursor, [1] the saved cursor, [2] the
    // start of the old screen's top row.
    private final int[] offset = {-1, -1, -1};
    private final int[] atRow = {-1, -1, -1};
    private final int[] atCol = {0, 0, 0};

    private Reflow(int width) {
        this.width = width;
        this.rowBuf = new Line(width);
    }

    /**
     * Re-wraps {@code history} (in place) and {@code screen} ({@code oldRows} rows) to
     * {@code newCols} × {@code newRows}; the result is in the returned object's fields.
     */
    static Reflow primary(History history, Line[] screen, int oldRows, int newCols, int newRows, int curRow, int curCol,
            int saveRow, int saveCol) {
        Reflow r = new Reflow(newCols);
        curRow = Math.min(curRow, oldRows - 1);
        saveRow = Math.min(saveRow, oldRows - 1);
        int last = Math.max(curRow, saveRow);
        for (int i = oldRows - 1; i > last; i--) {
            if (!blank(screen[i]) || screen[i].shellMarks != 0) {
                last = i;
                break;
            }
        }
        int h = history.size();
        for (int i = 0; i < h; i++) {
            r.add(history.get(i));
        }
        r.offset[2] = -2; // set to the logical line's length when row 0 is added
        for (int i = 0; i <= last; i++) {
            r.add(screen[i], i == curRow ? curCol : -1, i == saveRow ? saveCol : -1, i == last);
        }
        int cursorAt = r.atRow[0];
        int end = r.out.size();
        int start;
        if (last == oldRows - 1) {
            // The text reached the bottom row: it stays at the bottom, so rows lost push the
            // top into the scrollback and rows gained pull it back.
            start = Math.max(0, end - newRows);
        } else {
            // Blank rows below the text absorb growth first; the top stays where it was.
            start = Math.max(r.atRow[2], end - newRows);
        }
        start = Math.max(0, Math.min(start, cursorAt));
        history.clear();
        for (int i = 0; i < start; i++) {
            history.push(r.out.get(i));
        }
        r.grid = new Line[newRows];
        for (int i = 0; i < newRows; i++) {
            int k = start + i;
            r.grid[i] = k < r.out.size() ? r.out.get(k).toLine(newCols) : new Line(newCols);
        }
        r.row = cursorAt - start;
        r.col = r.atCol[0];
        r.savedRow = Math.max(0, Math.min(newRows - 1, r.atRow[1] - start));
        r.savedCol = r.atCol[1];
        return r;
    }

    private static boolean blank(Line l) {
        return !l.wrapped && l.length() == 0;
    }

    private void add(HistoryLine h) {
        int len = h.length();
        if (!open && !h.wrapped && len <= width) {
            out.add(h);
            return;
        }
        ensure(n + len, h.hasMarks(), h.hasLinks(), h.hasUnderlineColors());
        h.copyTo(cp, st, marks, links, ul, n);
        rowMarks(h.shellMarks, h.exitStatus);
        n += len;
        open = true;
        if (!h.wrapped) {
            flush();
        }
    }

    private void add(Line l, int cursorCol, int savedCol, boolean last) {
        int len = l.length();
        boolean hasMarks = l.marks != null;
        ensure(n + len, hasMarks, l.links != null, l.ul != null);
        l.copyTo(cp, st, n, len);
        if (marks != null) {
            if (hasMarks) {
                System.arraycopy(l.marks, 0, marks, n, len);
            } else {
                Arrays.fill(marks, n, n + len, null);
            }
        }
        if (links != null) {
            if (l.links != null) {
                System.arraycopy(l.links, 0, links, n, len);
            } else {
                Arrays.fill(links, n, n + len, 0);
            }
        }
        if (ul != null) {
            if (l.ul != null) {
                System.arraycopy(l.ul, 0, ul, n, len);
            } else {
                Arrays.fill(ul, n, n + len, 0);
            }
        }
        rowMarks(l.shellMarks, l.exitStatus);
        // Inside a wrapped row a position past its text means the start of the next row's text.
        if (cursorCol >= 0) {
            offset[0] = n + (l.wrapped ? Math.min(cursorCol, len) : cursorCol);
        }
        if (savedCol >= 0) {
            offset[1] = n + (l.wrapped ? Math.min(savedCol, len) : savedCol);
        }
        if (offset[2] == -2) {
            offset[2] = n;
        }
        n += len;
        open = true;
        if (!l.wrapped || last) {
            flush();
        }
    }

    private void ensure(int size, boolean needMarks, boolean needLinks, boolean needUl) {
        if (size > cp.length) {
            int cap = Math.max(size, cp.length * 2);
            cp = Arrays.copyOf(cp, cap);
            st = Arrays.copyOf(st, cap);
            if (marks != null) {
                marks = Arrays.copyOf(marks, cap);
            }
            if (links != null) {
                links = Arrays.copyOf(links, cap);
            }
            if (ul != null) {
                ul = Arrays.copyOf(ul, cap);
            }
        }
        if (needMarks && marks == null) {
            // Cells already collected for this line have none.
            marks = new String[cp.length];
        }
        if (needLinks && links == null) {
            links = new int[cp.length];
        }
        if (needUl && ul == null) {
            ul = new int[cp.length];
        }
    }

    /** Records the shell marks of the row whose cells start at {@link #n}. */
    private void rowMarks(byte bits, short status) {
        if (bits == 0) {
            return;
        }
        if (nMarks == markAt.length) {
            markAt = Arrays.copyOf(markAt, nMarks * 2);
            markBits = Arrays.copyOf(markBits, nMarks * 2);
            markStatus = Arrays.copyOf(markStatus, nMarks * 2);
        }
        markAt[nMarks] = n;
        markBits[nMarks] = bits;
        markStatus[nMarks] = status;
        nMarks++;
    }

    /** Puts the recorded shell marks of rows starting before cell {@code end} on the row being built. */
    private int placeMarks(int next, int end) {
        for (; next < nMarks && markAt[next] < end; next++) {
            rowBuf.shellMarks |= markBits[next];
            if ((markBits[next] & ShellMarks.FINISHED) != 0) {
                rowBuf.exitStatus = markStatus[next];
            }
        }
        return next;
    }

    private void linkCell(int c, int serial) {
        if (serial != 0) {
            if (rowBuf.links == null) {
                rowBuf.links = new int[width];
            }
            rowBuf.links[c] = serial;
        }
    }

    /** Lays the collected logical line out in rows of {@link #width}. */
    private void flush() {
        int contentEnd = n;
        while (contentEnd > 0 && cp[contentEnd - 1] == 0) {
            contentEnd--;
        }
        int c = 0;
        int i = 0;
        int mark = 0;
        for (; i < n; i++) {
            int v = cp[i];
            boolean wide = (v & Line.WIDE) != 0 && i + 1 < n && (cp[i + 1] & Line.TAIL) != 0;
            if (c == width || (wide && c == width - 1 && width > 1)) {
                if (i >= contentEnd) {
                    break;
                }
                mark = placeMarks(mark, i);
                emit(true);
                c = 0;
            }
            if (wide && width == 1) {
                track(i, c);
                track(i + 1, c);
                i++;
                continue;
            }
            if (!wide && (v & (Line.WIDE | Line.TAIL)) != 0) {
                v = 0; // half a wide character; well-formed lines have none
            }
            track(i, c);
            rowBuf.put(c, v, st[i]);
            if (marks != null && marks[i] != null) {
                if (rowBuf.marks == null) {
                    rowBuf.marks = new String[width];
                }
                rowBuf.marks[c] = marks[i];
            }
            if (links != null) {
                linkCell(c, links[i]);
            }
            if (ul != null) {
                rowBuf.underline(c, c + 1, ul[i]);
            }
            c++;
            if (wide) {
                i++;
                track(i, c);
                rowBuf.put(c, cp[i], st[i]);
                if (links != null) {
                    linkCell(c, links[i]);
                }
                if (ul != null) {
                    rowBuf.underline(c, c + 1, ul[i]);
                }
                c++;
            }
        }
        for (int k = 0; k < offset.length; k++) {
            if (offset[k] >= i) {
                atRow[k] = out.size();
                atCol[k] = Math.min(width - 1, c + offset[k] - i);
                offset[k] = -1;
            }
        }
        placeMarks(mark, Integer.MAX_VALUE);
        emit(false);
        n = 0;
        nMarks = 0;
        open = false;
    }

    private void track(int index, int c) {
        for (int k = 0; k < offset.length; k++) {
            if (offset[k] == index) {
                atRow[k] = out.size();
                atCol[k] = c;
                offset[k] = -1;
            }
        }
    }

    private void emit(boolean wrapped) {
        rowBuf.wrapped = wrapped;
        out.add(HistoryLine.of(rowBuf));
        rowBuf.reset(0);
    }
}

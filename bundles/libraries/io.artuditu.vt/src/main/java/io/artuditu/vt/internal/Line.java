package io.artuditu.vt.internal;

import java.util.Arrays;

/**
 * One screen row as parallel arrays: {@code cp[i]} is the code point of cell {@code i} (0 when
 * empty) with the {@link #WIDE} / {@link #TAIL} flags above bit 20, {@code st[i]} its packed
 * {@link io.artuditu.vt.Style}. Combining marks, hyperlink serials and underline colours,
 * rare, live in {@code marks}, {@code links} and {@code ul}, each allocated on first use.
 *
 * <p>Both cell arrays are allocated lazily, so a blank row costs only this object:
 * <ul>
 * <li>{@code cp == null}: every cell is empty (code point 0, no flags);
 * <li>{@code st == null}: every cell has the rendition {@link #fill} (0 for a row never
 *     written, the background of the erase for a row erased in a colour). {@code fill} means
 *     nothing once {@code st} exists.
 * </ul>
 * The two are independent: a row of plain text has {@code cp} and no {@code st}; a row erased
 * in part with a background colour has {@code st} and no {@code cp}. Readers go through
 * {@link #cp(int)} and {@link #st(int)}; writers call {@link #cps()} / {@link #sts()} once
 * (they allocate on first need) and then index the array. Which operations give the arrays
 * back is in {@link #reset} and {@link #clear}.
 *
 * <p>Invariant: a cell flagged WIDE is always followed by a TAIL cell and a TAIL cell always
 * follows a WIDE one; every mutator keeps that by blanking the other half of a wide
 * character it splits.
 */
final class Line {
    static final int CP_MASK = 0x1FFFFF;
    static final int WIDE = 1 << 21;
    static final int TAIL = 1 << 22;
    /** Combining marks kept per cell, in UTF-16 units; more are dropped. */
    static final int MAX_MARK_CHARS = 16;
    /**
     * This object's shallow size under the model of {@code docs/vt.md} (12-byte header, a
     * long, an int, five compressed references, a short, a byte and a boolean, 8-aligned).
     */
    static final int OBJECT_BYTES = 48;

    /** Code points, or null while every cell is empty. */
    int[] cp;
    /** Renditions, or null while every cell has {@link #fill}. */
    long[] st;
    /** The rendition of every cell while {@link #st} is null. */
    long fill;
    private int cols;
    String[] marks;
    boolean wrapped;
    /** Per cell, the {@link LinkTable} serial of its hyperlink (0 none); null while the row has none. */
    int[] links;
    /**
     * Per cell, its underline colour (SGR 58) as a {@link io.artuditu.vt.Style} colour, 0 for
     * the default; null while no cell of the row has one. Kept apart from {@link #st} because
     * the packed rendition has no room for a third colour and few rows ever carry one.
     */
    int[] ul;
    /** {@link io.artuditu.vt.ShellMarks} bits recorded on this row. */
    byte shellMarks;
    /** Exit status of the command whose FINISHED mark is on this row, else NO_STATUS. */
    short exitStatus = io.artuditu.vt.ShellMarks.NO_STATUS;

    /** A blank row: no arrays until something is written. */
    Line(int cols) {
        this.cols = cols;
    }

    int cols() {
        return cols;
    }

    /** Cell {@code i}'s code point and flags. */
    int cp(int i) {
        return cp == null ? 0 : cp[i];
    }

    /** Cell {@code i}'s rendition. */
    long st(int i) {
        return st == null ? fill : st[i];
    }

    /** Cell {@code i}'s underline colour, 0 for the default. */
    int ul(int i) {
        return ul == null ? 0 : ul[i];
    }

    /** The code point array, allocated (all empty) on first need. */
    int[] cps() {
        int[] a = cp;
        if (a == null) {
            a = cp = new int[cols];
        }
        return a;
    }

    /** The rendition array, allocated (every cell {@link #fill}) on first need. */
    long[] sts() {
        long[] a = st;
        if (a == null) {
            a = st = new long[cols];
            if (fill != 0) {
                Arrays.fill(a, fill);
            }
        }
        return a;
    }

    /** Writes one cell: code point and flags {@code v}, rendition {@code s}. */
    void put(int i, int v, long s) {
        cps()[i] = v;
        if (st != null) {
            st[i] = s;
        } else if (s != fill) {
            sts()[i] = s;
        }
    }

    /** The rendition array if cells written with {@code s} need one, else null (they already have it). */
    long[] stsFor(long s) {
        return st != null || s != fill ? sts() : null;
    }

    /** Cells up to the last one that holds a character, a non-default rendition or an underline colour. */
    int length() {
        int n = textLength();
        int[] u = ul;
        if (u != null) {
            for (int i = cols; i > n; i--) {
                if (u[i - 1] != 0) {
                    return i;
                }
            }
        }
        return n;
    }

    private int textLength() {
        int n = cols;
        int[] c = cp;
        long[] s = st;
        if (s == null) {
            if (fill != 0) {
                return n;
            }
            if (c == null) {
                return 0;
            }
            while (n > 0 && c[n - 1] == 0) {
                n--;
            }
        } else if (c == null) {
            while (n > 0 && s[n - 1] == 0) {
                n--;
            }
        } else {
            while (n > 0 && c[n - 1] == 0 && s[n - 1] == 0) {
                n--;
            }
        }
        return n;
    }

    /** Copies cells [0, n) into {@code toCp} and {@code toSt} at {@code at}. */
    void copyTo(int[] toCp, long[] toSt, int at, int n) {
        if (cp != null) {
            System.arraycopy(cp, 0, toCp, at, n);
        } else {
            Arrays.fill(toCp, at, at + n, 0);
        }
        if (st != null) {
            System.arraycopy(st, 0, toSt, at, n);
        } else {
            Arrays.fill(toSt, at, at + n, fill);
        }
    }

    /** Retained bytes of this row: the object and the arrays it holds (marks' strings not counted). */
    long bytes() {
        return OBJECT_BYTES + HistoryLine.array(cp == null ? -1 : cols, 4) + HistoryLine.array(st == null ? -1 : cols, 8)
                + HistoryLine.array(marks == null ? -1 : cols, 4) + HistoryLine.array(links == null ? -1 : cols, 4)
                + HistoryLine.array(ul == null ? -1 : cols, 4);
    }

    /** Before cells [from, to) are overwritten: blank the halves of wide characters cut at the edges. */
    void prepare(int from, int to) {
        int[] c = cp;
        if (c != null) {
            if (from > 0 && from < cols && (c[from] & TAIL) != 0) {
                c[from - 1] = 0;
            }
            if (to < cols && to > 0 && (c[to] & TAIL) != 0) {
                c[to] = 0;
            }
        }
        if (marks != null) {
            Arrays.fill(marks, from, to, null);
        }
    }

    void erase(int from, int to, long fill) {
        if (from >= to) {
            return;
        }
        prepare(from, to);
        if (cp != null) {
            Arrays.fill(cp, from, to, 0);
        }
        if (st != null) {
            Arrays.fill(st, from, to, fill);
        } else if (fill != this.fill) {
            if (from == 0 && to == cols) {
                this.fill = fill;
            } else {
                Arrays.fill(sts(), from, to, fill);
            }
        }
        if (links != null) {
            Arrays.fill(links, from, to, 0);
        }
        if (ul != null) {
            // An erase gives the background only (xterm): no underline colour.
            Arrays.fill(ul, from, to, 0);
        }
    }

    /** Cells [from, to) now belong to the link with this serial (0: to none). */
    void link(int from, int to, int serial) {
        if (links == null) {
            if (serial == 0) {
                return;
            }
            links = new int[cols];
        }
        Arrays.fill(links, from, to, serial);
    }

    /** Cells [from, to) now have the underline colour {@code color} (0: the default). */
    void underline(int from, int to, int color) {
        if (ul == null) {
            if (color == 0) {
                return;
            }
            ul = new int[cols];
        }
        Arrays.fill(ul, from, to, color);
    }

    /**
     * Blanks the row with rendition {@code fill}, keeping the arrays it has: for rows about to
     * be written again (the row a scroll brings in at the bottom or top, rows erased on the
     * alternate screen, a reused buffer), so a program that scrolls or redraws continuously
     * allocates nothing per row.
     */
    void reset(long fill) {
        reset(fill, cols);
    }

    /**
     * {@link #reset(long)} for a row whose {@link #length()} is at most {@code used}: cells
     * from there on are already empty, in rendition 0 and without an underline colour, so
     * only the first {@code used} cells need clearing when {@code fill} is 0 (a scrolled line
     * is usually shorter than the row).
     */
    void reset(long fill, int used) {
        if (cp != null) {
            Arrays.fill(cp, 0, used, 0);
        }
        if (st != null) {
            Arrays.fill(st, 0, fill == 0 ? used : cols, fill);
        } else {
            this.fill = fill;
        }
        if (ul != null) {
            Arrays.fill(ul, 0, used, 0);
        }
        resetRow();
    }

    /**
     * Blanks the row with rendition {@code fill} and gives its arrays back: for erasing whole
     * rows of the primary screen (ED, RIS), after which rows often stay blank, such as below
     * a shell prompt after {@code clear}.
     */
    void clear(long fill) {
        cp = null;
        st = null;
        ul = null;
        this.fill = fill;
        resetRow();
    }

    private void resetRow() {
        marks = null;
        wrapped = false;
        links = null;
        shellMarks = 0;
        exitStatus = io.artuditu.vt.ShellMarks.NO_STATUS;
    }

    void insert(int at, int n, long fill) {
        n = Math.min(n, cols - at);
        prepare(at, at);
        int keep = cols - at - n;
        int[] c = cp;
        if (c != null) {
            if (keep > 0 && (c[cols - n - 1] & WIDE) != 0) {
                // The wide character straddling the new right edge falls off whole.
                c[cols - n - 1] = 0;
            }
            System.arraycopy(c, at, c, at + n, keep);
            Arrays.fill(c, at, at + n, 0);
        }
        if (st != null || fill != this.fill) {
            long[] s = sts();
            System.arraycopy(s, at, s, at + n, keep);
            Arrays.fill(s, at, at + n, fill);
        }
        if (marks != null) {
            System.arraycopy(marks, at, marks, at + n, keep);
            Arrays.fill(marks, at, at + n, null);
        }
        if (links != null) {
            System.arraycopy(links, at, links, at + n, keep);
            Arrays.fill(links, at, at + n, 0);
        }
        if (ul != null) {
            System.arraycopy(ul, at, ul, at + n, keep);
            Arrays.fill(ul, at, at + n, 0);
        }
    }

    void delete(int at, int n, long fill) {
        n = Math.min(n, cols - at);
        prepare(at, at + n);
        int keep = cols - at - n;
        if (cp != null) {
            System.arraycopy(cp, at + n, cp, at, keep);
            Arrays.fill(cp, cols - n, cols, 0);
        }
        if (st != null || fill != this.fill) {
            long[] s = sts();
            System.arraycopy(s, at + n, s, at, keep);
            Arrays.fill(s, cols - n, cols, fill);
        }
        if (marks != null) {
            System.arraycopy(marks, at + n, marks, at, keep);
            Arrays.fill(marks, cols - n, cols, null);
        }
        if (links != null) {
            System.arraycopy(links, at + n, links, at, keep);
            Arrays.fill(links, cols - n, cols, 0);
        }
        if (ul != null) {
            System.arraycopy(ul, at + n, ul, at, keep);
            Arrays.fill(ul, cols - n, cols, 0);
        }
    }

    void addMark(int col, int mark) {
        if (marks == null) {
            marks = new String[cols];
        }
        String old = marks[col];
        int len = old == null ? 0 : old.length();
        if (len + Character.charCount(mark) > MAX_MARK_CHARS) {
            return;
        }
        marks[col] = old == null ? Character.toString(mark) : old + Character.toString(mark);
    }

    void resize(int cols) {
        int old = this.cols;
        if (cols > old && st == null && fill != 0) {
            // Cells gained have the default rendition, not this row's fill.
            sts();
        }
        this.cols = cols;
        if (cp != null) {
            cp = Arrays.copyOf(cp, cols);
        }
        if (st != null) {
            st = Arrays.copyOf(st, cols);
        }
        if (marks != null) {
            marks = Arrays.copyOf(marks, cols);
        }
        if (links != null) {
            links = Arrays.copyOf(links, cols);
        }
        if (ul != null) {
            ul = Arrays.copyOf(ul, cols);
        }
        if (cols < old && cp != null && (cp[cols - 1] & WIDE) != 0) {
            cp[cols - 1] = 0;
        }
        if (cols < old) {
            wrapped = false;
        }
    }
}

package io.artuditu.vt.internal;

import java.util.Arrays;

/**
 * One screen row as parallel arrays: {@code cp[i]} is the code point of cell {@code i} (0 when
 * empty) with the {@link #WIDE} / {@link #TAIL} flags above bit 20, {@code st[i]} its packed
 * {@link io.artuditu.vt.Style}. Combining marks, rare, live in {@code marks}, allocated on
 * first use.
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

    int[] cp;
    long[] st;
    String[] marks;
    boolean wrapped;
    /** Per cell, the {@link LinkTable} serial of its hyperlink (0 none); null while the row has none. */
    int[] links;
    /** {@link io.artuditu.vt.ShellMarks} bits recorded on this row. */
    byte shellMarks;
    /** Exit status of the command whose FINISHED mark is on this row, else NO_STATUS. */
    short exitStatus = io.artuditu.vt.ShellMarks.NO_STATUS;

    Line(int cols) {
        cp = new int[cols];
        st = new long[cols];
    }

    int cols() {
        return cp.length;
    }

    /** Before cells [from, to) are overwritten: blank the halves of wide characters cut at the edges. */
    void prepare(int from, int to) {
        if (from > 0 && from < cp.length && (cp[from] & TAIL) != 0) {
            cp[from - 1] = 0;
        }
        if (to < cp.length && to > 0 && (cp[to] & TAIL) != 0) {
            cp[to] = 0;
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
        Arrays.fill(cp, from, to, 0);
        Arrays.fill(st, from, to, fill);
        if (links != null) {
            Arrays.fill(links, from, to, 0);
        }
    }

    /** Cells [from, to) now belong to the link with this serial (0: to none). */
    void link(int from, int to, int serial) {
        if (links == null) {
            if (serial == 0) {
                return;
            }
            links = new int[cp.length];
        }
        Arrays.fill(links, from, to, serial);
    }

    void reset(long fill) {
        Arrays.fill(cp, 0);
        Arrays.fill(st, fill);
        marks = null;
        wrapped = false;
        links = null;
        shellMarks = 0;
        exitStatus = io.artuditu.vt.ShellMarks.NO_STATUS;
    }

    void insert(int at, int n, long fill) {
        int cols = cp.length;
        n = Math.min(n, cols - at);
        prepare(at, at);
        int keep = cols - at - n;
        if (keep > 0 && (cp[cols - n - 1] & WIDE) != 0) {
            // The wide character straddling the new right edge falls off whole.
            cp[cols - n - 1] = 0;
        }
        System.arraycopy(cp, at, cp, at + n, keep);
        System.arraycopy(st, at, st, at + n, keep);
        if (marks != null) {
            System.arraycopy(marks, at, marks, at + n, keep);
        }
        Arrays.fill(cp, at, at + n, 0);
        Arrays.fill(st, at, at + n, fill);
        if (marks != null) {
            Arrays.fill(marks, at, at + n, null);
        }
        if (links != null) {
            System.arraycopy(links, at, links, at + n, keep);
            Arrays.fill(links, at, at + n, 0);
        }
    }

    void delete(int at, int n, long fill) {
        int cols = cp.length;
        n = Math.min(n, cols - at);
        prepare(at, at + n);
        int keep = cols - at - n;
        System.arraycopy(cp, at + n, cp, at, keep);
        System.arraycopy(st, at + n, st, at, keep);
        if (marks != null) {
            System.arraycopy(marks, at + n, marks, at, keep);
            Arrays.fill(marks, cols - n, cols, null);
        }
        if (links != null) {
            System.arraycopy(links, at + n, links, at, keep);
            Arrays.fill(links, cols - n, cols, 0);
        }
        Arrays.fill(cp, cols - n, cols, 0);
        Arrays.fill(st, cols - n, cols, fill);
    }

    void addMark(int col, int mark) {
        if (marks == null) {
            marks = new String[cp.length];
        }
        String old = marks[col];
        int len = old == null ? 0 : old.length();
        if (len + Character.charCount(mark) > MAX_MARK_CHARS) {
            return;
        }
        marks[col] = old == null ? Character.toString(mark) : old + Character.toString(mark);
    }

    void resize(int cols) {
        int old = cp.length;
        cp = Arrays.copyOf(cp, cols);
        st = Arrays.copyOf(st, cols);
        if (marks != null) {
            marks = Arrays.copyOf(marks, cols);
        }
        if (links != null) {
            links = Arrays.copyOf(links, cols);
        }
        if (cols < old && (cp[cols - 1] & WIDE) != 0) {
            cp[cols - 1] = 0;
        }
        if (cols < old) {
            wrapped = false;
        }
    }
}

package io.artuditu.vt.internal;

import java.util.Arrays;

/**
 * A line that scrolled off the top, frozen into its smallest form: trailing empty cells
 * dropped, code points in a {@code byte[]} when every cell is below U+0100 (else an
 * {@code int[]} keeping the wide flags), renditions run-length encoded as
 * {@code runEnd[k]} (exclusive end cell of run k) and {@code runStyle[k]}. A line whose cells
 * all have one rendition (most lines) holds no run arrays: {@link #style} is that rendition.
 * Link serials and underline colours are per cell, each array kept only when a cell has one.
 *
 * <p>{@link #bytes} is this line's retained size under the model in {@code docs/vt.md}:
 * shallow sizes on a 64-bit JVM with compressed references (16-byte array headers, 8-byte
 * alignment), computed from the arrays actually held (the one shared empty array of blank
 * lines is not counted).
 */
final class HistoryLine {
    /** Header and fields: seven references, a long, an int, a short, a byte and a boolean, 8-aligned. */
    static final int OBJECT_BYTES = 56;
    private static final byte[] EMPTY = new byte[0];

    private final byte[] narrow;
    private final int[] cells;
    /** Run ends and renditions; both null when the line has at most one run. */
    private final int[] runEnd;
    private final long[] runStyle;
    /** The rendition of every cell while {@link #runEnd} is null. */
    private final long style;
    private final String[] marks;
    final boolean wrapped;
    final int bytes;
    /** Per cell, a {@link LinkTable} serial; null when no cell had a link. */
    private final int[] links;
    /** Per cell, the underline colour ({@link Line#ul}); null when no cell had one. */
    private final int[] ul;
    final byte shellMarks;
    final short exitStatus;

    private HistoryLine(byte[] narrow, int[] cells, int[] runEnd, long[] runStyle, long style, String[] marks,
            boolean wrapped, int[] links, int[] ul, byte shellMarks, short exitStatus) {
        this.narrow = narrow;
        this.cells = cells;
        this.runEnd = runEnd;
        this.runStyle = runStyle;
        this.style = style;
        this.marks = marks;
        this.wrapped = wrapped;
        this.links = links;
        this.ul = ul;
        this.shellMarks = shellMarks;
        this.exitStatus = exitStatus;
        long b = OBJECT_BYTES + array(narrow == null || narrow == EMPTY ? -1 : narrow.length, 1)
                + array(cells == null ? -1 : cells.length, 4) + array(runEnd == null ? -1 : runEnd.length, 4)
                + array(runStyle == null ? -1 : runStyle.length, 8) + array(links == null ? -1 : links.length, 4)
                + array(ul == null ? -1 : ul.length, 4);
        if (marks != null) {
            b += array(marks.length, 4);
            for (String m : marks) {
                if (m != null) {
                    b += 24 + array(m.length() * 2, 1);
                }
            }
        }
        this.bytes = (int) b;
    }

    /** Shallow size of an array of {@code n} elements of {@code size} bytes; 0 for no array (n < 0). */
    static long array(int n, int size) {
        return n < 0 ? 0 : (16L + (long) n * size + 7) & ~7L;
    }

    static HistoryLine of(Line line) {
        return of(line, line.length());
    }

    /**
     * Freezes {@code line}, whose {@link Line#length()} is {@code n}. Scrolling calls this for
     * every line that leaves the screen, so it makes one pass per array it reads and allocates
     * only what the line keeps (no run arrays for a line in one rendition).
     */
    static HistoryLine of(Line line, int n) {
        // A null array stands for cells that are all empty (cp) or all line.fill (st).
        int[] cp = line.cp;
        long[] st = line.st;
        int runs = 0;
        long first = line.fill;
        if (n > 0 && st != null) {
            first = st[0];
            runs = 1;
            long prev = first;
            for (int i = 1; i < n; i++) {
                long s = st[i];
                if (s != prev) {
                    runs++;
                    prev = s;
                }
            }
        }
        int[] runEnd = null;
        long[] runStyle = null;
        if (runs > 1) {
            runEnd = new int[runs];
            runStyle = new long[runs];
            int r = 0;
            long prev = first;
            runStyle[0] = first;
            for (int i = 1; i < n; i++) {
                long s = st[i];
                if (s != prev) {
                    runEnd[r++] = i;
                    runStyle[r] = s;
                    prev = s;
                }
            }
            runEnd[r] = n;
        }
        byte[] narrow = null;
        int[] cells = null;
        if (n == 0) {
            narrow = EMPTY;
        } else if (cp == null) {
            narrow = new byte[n];
        } else {
            int any = 0;
            for (int i = 0; i < n; i++) {
                any |= cp[i];
            }
            if ((any & ~0xFF) == 0) {
                narrow = new byte[n];
                for (int i = 0; i < n; i++) {
                    narrow[i] = (byte) cp[i];
                }
            } else {
                cells = Arrays.copyOf(cp, n);
            }
        }
        String[] marks = null;
        if (line.marks != null) {
            for (int i = 0; i < n; i++) {
                if (line.marks[i] != null) {
                    marks = Arrays.copyOf(line.marks, n);
                    break;
                }
            }
        }
        int[] links = null;
        if (line.links != null) {
            for (int i = 0; i < n; i++) {
                if (line.links[i] != 0) {
                    links = Arrays.copyOf(line.links, n);
                    break;
                }
            }
        }
        int[] ul = null;
        if (line.ul != null) {
            for (int i = 0; i < n; i++) {
                if (line.ul[i] != 0) {
                    ul = Arrays.copyOf(line.ul, n);
                    break;
                }
            }
        }
        return new HistoryLine(narrow, cells, runEnd, runStyle, first, marks, line.wrapped, links, ul,
                line.shellMarks, line.exitStatus);
    }

    /** Writes the renditions of cells [0, length()) into {@code st} from {@code at}. */
    private void fillStyles(long[] st, int at) {
        if (runEnd == null) {
            Arrays.fill(st, at, at + length(), style);
            return;
        }
        int from = 0;
        for (int k = 0; k < runEnd.length; k++) {
            Arrays.fill(st, at + from, at + runEnd[k], runStyle[k]);
            from = runEnd[k];
        }
    }

    /** The link serial of cell {@code col}, 0 for none or beyond the kept cells. */
    int link(int col) {
        return links != null && col >= 0 && col < links.length ? links[col] : 0;
    }

    int length() {
        return narrow != null ? narrow.length : cells.length;
    }

    void text(StringBuilder sb, boolean sgr) {
        int n = length();
        int[] cp = new int[n];
        long[] st = new long[n];
        for (int i = 0; i < n; i++) {
            cp[i] = narrow != null ? narrow[i] & 0xFF : cells[i];
        }
        fillStyles(st, 0);
        Render.row(sb, cp, st, 0, ul, marks, n, sgr);
    }

    /**
     * Writes this line's {@link #length()} cells into {@code cp}, {@code st} and, when it has
     * combining marks, {@code marks} (which the caller must then provide), starting at
     * {@code at}; likewise its link serials into {@code links} and its underline colours into
     * {@code ul} when it has any. A non-null {@code marks}, {@code links} or {@code ul} is
     * written either way (nulls or zeros for none).
     */
    void copyTo(int[] cp, long[] st, String[] marks, int[] links, int[] ul, int at) {
        int n = length();
        for (int i = 0; i < n; i++) {
            cp[at + i] = narrow != null ? narrow[i] & 0xFF : cells[i];
        }
        fillStyles(st, at);
        if (marks != null) {
            if (this.marks != null) {
                System.arraycopy(this.marks, 0, marks, at, n);
            } else {
                Arrays.fill(marks, at, at + n, null);
            }
        }
        if (links != null) {
            if (this.links != null) {
                System.arraycopy(this.links, 0, links, at, n);
            } else {
                Arrays.fill(links, at, at + n, 0);
            }
        }
        if (ul != null) {
            if (this.ul != null) {
                System.arraycopy(this.ul, 0, ul, at, n);
            } else {
                Arrays.fill(ul, at, at + n, 0);
            }
        }
    }

    boolean hasMarks() {
        return marks != null;
    }

    boolean hasLinks() {
        return links != null;
    }

    boolean hasUnderlineColors() {
        return ul != null;
    }

    /** Copies this line back into screen form (for resize), padded or cut to {@code cols}. */
    Line toLine(int cols) {
        Line line = new Line(cols);
        int n = Math.min(length(), cols);
        if (n > 0) {
            // Arrays only for what the cells need: a blank or plain row stays without them.
            int[] cp = null;
            for (int i = 0; i < n; i++) {
                int v = narrow != null ? narrow[i] & 0xFF : cells[i];
                if (v != 0) {
                    if (cp == null) {
                        cp = line.cps();
                    }
                    cp[i] = v;
                }
            }
            if (runEnd == null) {
                if (style != 0) {
                    Arrays.fill(line.sts(), 0, n, style);
                }
            } else {
                int from = 0;
                for (int k = 0; k < runEnd.length && from < n; k++) {
                    if (runStyle[k] != 0) {
                        Arrays.fill(line.sts(), from, Math.min(runEnd[k], n), runStyle[k]);
                    }
                    from = runEnd[k];
                }
            }
            if (cp != null && (cp[cols - 1] & Line.WIDE) != 0) {
                cp[cols - 1] = 0;
            }
        }
        if (marks != null) {
            line.marks = Arrays.copyOf(marks, cols);
        }
        line.wrapped = wrapped && length() <= cols;
        if (links != null) {
            line.links = Arrays.copyOf(links, cols);
        }
        if (ul != null) {
            line.ul = Arrays.copyOf(ul, cols);
        }
        line.shellMarks = shellMarks;
        line.exitStatus = exitStatus;
        return line;
    }
}

package io.artuditu.vt.internal;

import io.artuditu.vt.ClipboardWrite;
import io.artuditu.vt.CursorShape;
import io.artuditu.vt.Hyperlink;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Match;
import io.artuditu.vt.Mode;
import io.artuditu.vt.Notification;
import io.artuditu.vt.Style;
import io.artuditu.vt.Terminal;
import io.artuditu.vt.WorkingDirectory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The screen model behind {@link Terminal}: two grids of {@link Line}s (primary, alternate),
 * the cursor, margins, tab stops, modes and the scrollback, changed by the sequences the
 * {@link Parser} recognises. Not thread-safe; see {@link Terminal}.
 */
public final class Emulator implements Terminal {
    static final int MAX_DIM = 4096;
    /** Replies owed to the program are capped here; a flood of queries beyond it is dropped. */
    static final int MAX_REPLY_BYTES = 64 * 1024;

    /** DEC special graphics for 0x5F–0x7E. */
    private static final char[] DEC_GRAPHICS = (
            "\u00A0\u25C6\u2592\u2409\u240C\u240D\u240A\u00B0\u00B1\u2424\u240B\u2518\u2510\u250C\u2514\u253C"
            + "\u23BA\u23BB\u2500\u23BC\u23BD\u251C\u2524\u2534\u252C\u2502\u2264\u2265\u03C0\u2260\u00A3\u00B7")
            .toCharArray();

    private final Limits limits;
    private final Parser parser;
    private final History history;
    private final OscExtensions ext;

    private int cols;
    private int rows;
    private Line[] primary;
    private Line[] alternate;
    private Line[] lines;
    private boolean[] tabs;

    private int row;
    private int col;
    private boolean pendingWrap;
    private long style;
    /** The pen's underline colour (SGR 58), 0 for the default; cells keep it in {@link Line#ul}. */
    private int underlineColor;
    private int top;
    private int bottom;
    private int lastPrinted = -1;

    private final boolean[] modes = new boolean[Mode.values().length];
    private CursorShape shape = CursorShape.DEFAULT;
    /** The sets designated as G0..G3: 'B' ASCII, '0' DEC special graphics, 'A' British. */
    private final char[] charsets = {'B', 'B', 'B', 'B'};
    /** Which of G0..G3 is invoked into GL (SI, SO, LS2, LS3). */
    private int shift;
    /** G2 or G3 for the next printed character only (SS2, SS3), else -1. */
    private int singleShift = -1;
    /**
     * Where the last character was written (row, column of its first cell) and where that
     * left the cursor; a combining mark joins that character while the cursor has not moved
     * since, as in xterm.
     */
    private int writtenRow = -1;
    private int writtenCol;
    private int writtenCursorRow;
    private int writtenCursorCol;
    private boolean writtenPending;
    private final Saved savedPrimary = new Saved();
    private final Saved savedAlternate = new Saved();
    private String title = "";

    private byte[] replies = new byte[0];
    private int replyLen;

    private long revision;
    /** BEL (0x07) executed outside strings; never reset, not even by RIS. */
    private long bells;
    private long resizedAt;
    private long[] rowRevision;
    private boolean changed;

    /** What DECSC keeps. */
    private static final class Saved {
        int row;
        int col;
        boolean pendingWrap;
        long style;
        int underlineColor;
        boolean origin;
        final char[] charsets = {'B', 'B', 'B', 'B'};
        int shift;
    }

    public Emulator(int cols, int rows, Limits limits) {
        this.limits = limits;
        this.cols = clampDim(cols);
        this.rows = clampDim(rows);
        this.parser = new Parser(this, limits.maxStringBytes(), OscExtensions.clipboardStringBytes(limits));
        this.ext = new OscExtensions(limits);
        this.history = new History(limits.historyBytes());
        primary = grid(this.cols, this.rows);
        lines = primary;
        rowRevision = new long[this.rows];
        tabs = new boolean[this.cols];
        resetTabs(0);
        modes[Mode.AUTOWRAP.ordinal()] = true;
        modes[Mode.CURSOR_VISIBLE.ordinal()] = true;
        bottom = this.rows - 1;
    }

    private static int clampDim(int n) {
        return Math.max(1, Math.min(MAX_DIM, n));
    }

    private static Line[] grid(int cols, int rows) {
        Line[] g = new Line[rows];
        for (int i = 0; i < rows; i++) {
            g[i] = new Line(cols);
        }
        return g;
    }

    private void resetTabs(int from) {
        for (int i = from; i < cols; i++) {
            tabs[i] = i % 8 == 0 && i > 0;
        }
    }

    // ------------------------------------------------------------------ feeding

    @Override
    public void feed(byte[] buf, int off, int len) {
        parser.feed(buf, off, len);
        if (changed) {
            changed = false;
            revision++;
        }
    }

    private void touch(int r) {
        rowRevision[r] = revision + 1;
        changed = true;
    }

    private void touch(int from, int to) {
        Arrays.fill(rowRevision, from, to + 1, revision + 1);
        changed = true;
    }

    private boolean on(Mode m) {
        return modes[m.ordinal()];
    }

    private long blank() {
        return style & Style.BG_MASK;
    }

    /** Prints the run of printable ASCII starting at {@code i}; returns the index after it. */
    int printAscii(byte[] b, int i, int end) {
        if (charsets[shift] != 'B' || singleShift >= 0 || on(Mode.INSERT)) {
            print(b[i]);
            return i + 1;
        }
        int j = i + 1;
        while (j < end) {
            int c = b[j];
            // Bytes >= 0x80 are negative here and end the run with the controls.
            if (c < 0x20 || c == 0x7F) {
                break;
            }
            j++;
        }
        lastPrinted = b[j - 1];
        boolean autowrap = on(Mode.AUTOWRAP);
        long s = style;
        int link = ext.currentLink;
        int uc = underlineColor;
        while (i < j) {
            if (pendingWrap) {
                wrap();
            }
            Line line = lines[row];
            int from = col;
            int n = Math.min(cols - from, j - i);
            int to = from + n;
            line.prepare(from, to);
            int[] cp = line.cps();
            long[] st = line.stsFor(s);
            if (st == null) {
                // The row's cells already have this rendition (plain text on a plain row).
                for (int k = 0; k < n; k++) {
                    cp[from + k] = b[i + k];
                }
            } else {
                for (int k = 0; k < n; k++) {
                    cp[from + k] = b[i + k];
                    st[from + k] = s;
                }
            }
            if (link != 0 || line.links != null) {
                line.link(from, to, link);
            }
            if (uc != 0 || line.ul != null) {
                line.underline(from, to, uc);
            }
            i += n;
            touch(row);
            writtenRow = row;
            writtenCol = to - 1;
            if (to == cols) {
                col = cols - 1;
                if (autowrap) {
                    pendingWrap = true;
                } else if (i < j) {
                    // Without autowrap the rest land on the last cell; the last one stays.
                    cp[cols - 1] = b[j - 1];
                    i = j;
                }
            } else {
                col = to;
            }
        }
        writtenCursorRow = row;
        writtenCursorCol = col;
        writtenPending = pendingWrap;
        return j;
    }

    void print(int c) {
        int invoked = singleShift >= 0 ? singleShift : shift;
        singleShift = -1;
        if (c < 0x80) {
            char set = charsets[invoked];
            if (set == '0' && c >= 0x5F && c <= 0x7E) {
                c = DEC_GRAPHICS[c - 0x5F];
            } else if (set == 'A' && c == '#') {
                c = '\u00A3';
            }
        }
        int w = CharWidth.of(c);
        if (w == 0) {
            combine(c);
            return;
        }
        lastPrinted = c;
        boolean autowrap = on(Mode.AUTOWRAP);
        if (pendingWrap) {
            wrap();
        }
        if (w == 2 && col == cols - 1) {
            // It does not fit: without autowrap it is dropped; with it, it goes to the next
            // row whole and the last cell keeps what it had (xterm).
            if (!autowrap || cols < 2) {
                return;
            }
            lines[row].wrapped = true;
            index();
            col = 0;
        }
        Line line = lines[row];
        if (on(Mode.INSERT)) {
            line.insert(col, w, blank());
        }
        line.prepare(col, col + w);
        line.put(col, w == 2 ? c | Line.WIDE : c, style);
        if (w == 2) {
            line.put(col + 1, Line.TAIL, style);
        }
        if (ext.currentLink != 0 || line.links != null) {
            line.link(col, col + w, ext.currentLink);
        }
        if (underlineColor != 0 || line.ul != null) {
            line.underline(col, col + w, underlineColor);
        }
        touch(row);
        writtenRow = row;
        writtenCol = col;
        int to = col + w;
        if (to >= cols) {
            col = cols - 1;
            pendingWrap = autowrap;
        } else {
            col = to;
        }
        writtenCursorRow = row;
        writtenCursorCol = col;
        writtenPending = pendingWrap;
    }

    /**
     * A combining mark joins the character written last while the cursor is still where that
     * left it (so also on the last column with autowrap off, or while a wrap is pending);
     * after the cursor moved it joins the character under the cursor. With neither it is
     * dropped.
     */
    private void combine(int mark) {
        int r = row;
        int at = col;
        if (writtenRow >= 0 && row == writtenCursorRow && col == writtenCursorCol && pendingWrap == writtenPending) {
            r = writtenRow;
            at = writtenCol;
        }
        Line line = lines[r];
        if ((line.cp(at) & Line.TAIL) != 0 && at > 0) {
            at--;
        }
        if (line.cp(at) == 0) {
            return;
        }
        line.addMark(at, mark);
        touch(r);
    }

    private void wrap() {
        pendingWrap = false;
        if (!on(Mode.AUTOWRAP)) {
            return;
        }
        lines[row].wrapped = true;
        index();
        col = 0;
    }

    void execute(int c) {
        switch (c) {
            case 0x07: // BEL (one that ends an OSC string never gets here)
                bells++;
                return;
            case 0x08: // BS
                if (col > 0) {
                    col--;
                }
                pendingWrap = false;
                break;
            case 0x09: // HT
                tabForward(1);
                break;
            case 0x0A: // LF
            case 0x0B: // VT
            case 0x0C: // FF
                index();
                if (on(Mode.NEWLINE)) {
                    col = 0;
                }
                break;
            case 0x0D: // CR
                col = 0;
                pendingWrap = false;
                break;
            case 0x0E: // SO: G1 into GL
                shift = 1;
                break;
            case 0x0F: // SI: G0 into GL
                shift = 0;
                break;
            default:
                break;
        }
        changed = true;
    }

    // ------------------------------------------------------------------ movement and scrolling

    private void index() {
        pendingWrap = false;
        if (row == bottom) {
            scrollUp(top, bottom, 1);
        } else if (row < rows - 1) {
            row++;
        }
    }

    private void reverseIndex() {
        pendingWrap = false;
        if (row == top) {
            scrollDown(top, bottom, 1);
        } else if (row > 0) {
            row--;
        }
    }

    private void scrollUp(int from, int to, int n) {
        writtenRow = -1;
        n = Math.min(n, to - from + 1);
        long fill = blank();
        boolean keep = from == 0 && lines == primary;
        for (int k = 0; k < n; k++) {
            Line gone = lines[from];
            int used = gone.length();
            if (keep) {
                history.push(HistoryLine.of(gone, used));
            }
            System.arraycopy(lines, from + 1, lines, from, to - from);
            gone.reset(fill, used);
            lines[to] = gone;
        }
        touch(from, to);
    }

    private void scrollDown(int from, int to, int n) {
        writtenRow = -1;
        n = Math.min(n, to - from + 1);
        long fill = blank();
        for (int k = 0; k < n; k++) {
            Line gone = lines[to];
            System.arraycopy(lines, from, lines, from + 1, to - from);
            gone.reset(fill);
            lines[from] = gone;
        }
        touch(from, to);
    }

    private void moveTo(int r, int c) {
        int minRow = on(Mode.ORIGIN) ? top : 0;
        int maxRow = on(Mode.ORIGIN) ? bottom : rows - 1;
        row = Math.max(minRow, Math.min(maxRow, r));
        col = Math.max(0, Math.min(cols - 1, c));
        pendingWrap = false;
    }

    /** CUP with 1-based, origin-relative arguments. */
    private void position(int r1, int c1) {
        moveTo((on(Mode.ORIGIN) ? top : 0) + r1 - 1, c1 - 1);
    }

    private void up(int n) {
        int min = row >= top ? top : 0;
        row = Math.max(min, row - n);
        pendingWrap = false;
    }

    private void down(int n) {
        int max = row <= bottom ? bottom : rows - 1;
        row = Math.min(max, row + n);
        pendingWrap = false;
    }

    /** HT and CHT: a pending wrap stays pending (xterm), so text after a tab at the margin wraps. */
    private void tabForward(int n) {
        while (n-- > 0 && col < cols - 1) {
            col++;
            while (col < cols - 1 && !tabs[col]) {
                col++;
            }
        }
    }

    private void tabBackward(int n) {
        while (n-- > 0 && col > 0) {
            col--;
            while (col > 0 && !tabs[col]) {
                col--;
            }
        }
        pendingWrap = false;
    }

    // ------------------------------------------------------------------ ESC

    void escDispatch(int inter, int fin) {
        changed = true;
        if (inter == 0) {
            switch (fin) {
                case '7':
                    saveCursor();
                    break;
                case '8':
                    restoreCursor();
                    break;
                case 'D':
                    index();
                    break;
                case 'E':
                    index();
                    col = 0;
                    break;
                case 'H':
                    tabs[col] = true;
                    break;
                case 'M':
                    reverseIndex();
                    break;
                case 'c':
                    fullReset();
                    break;
                case '=':
                    modes[Mode.APPLICATION_KEYPAD.ordinal()] = true;
                    break;
                case '>':
                    modes[Mode.APPLICATION_KEYPAD.ordinal()] = false;
                    break;
                case 'n': // LS2
                    shift = 2;
                    break;
                case 'o': // LS3
                    shift = 3;
                    break;
                case 'N': // SS2
                    singleShift = 2;
                    break;
                case 'O': // SS3
                    singleShift = 3;
                    break;
                default:
                    break;
            }
        } else if (inter == '(' || inter == ')' || inter == '*' || inter == '+') {
            // Sets we do not know (the VT100's alternate ROM '1' and '2', national sets that
            // need NRCS mode) leave the designation as it was, as xterm does above VT100 level.
            if (fin == '0' || fin == 'A' || fin == 'B') {
                charsets[inter == '(' ? 0 : inter == ')' ? 1 : inter == '*' ? 2 : 3] = (char) fin;
            }
        } else if (inter == '#' && fin == '8') {
            // DECALN: fill with E, margins reset, cursor home.
            for (int r = 0; r < rows; r++) {
                lines[r].reset(0);
                Arrays.fill(lines[r].cps(), 'E');
            }
            top = 0;
            bottom = rows - 1;
            moveTo(0, 0);
            touch(0, rows - 1);
        }
    }

    private Saved saved() {
        return lines == primary ? savedPrimary : savedAlternate;
    }

    private void saveCursor() {
        Saved s = saved();
        s.row = row;
        s.col = col;
        s.pendingWrap = pendingWrap;
        s.style = style;
        s.underlineColor = underlineColor;
        s.origin = on(Mode.ORIGIN);
        System.arraycopy(charsets, 0, s.charsets, 0, 4);
        s.shift = shift;
    }

    private void restoreCursor() {
        Saved s = saved();
        // DECAWM is not part of what DECSC saves (xterm; DEC's own manuals disagree).
        modes[Mode.ORIGIN.ordinal()] = s.origin;
        row = Math.min(s.row, rows - 1);
        col = Math.min(s.col, cols - 1);
        pendingWrap = s.pendingWrap && s.col == col;
        style = s.style;
        underlineColor = s.underlineColor;
        System.arraycopy(s.charsets, 0, charsets, 0, 4);
        shift = s.shift;
        singleShift = -1;
    }

    private void fullReset() {
        writtenRow = -1;
        for (Line l : primary) {
            l.clear(0);
        }
        alternate = null;
        lines = primary;
        Arrays.fill(modes, false);
        modes[Mode.AUTOWRAP.ordinal()] = true;
        modes[Mode.CURSOR_VISIBLE.ordinal()] = true;
        shape = CursorShape.DEFAULT;
        resetTabs(0);
        softState();
        row = 0;
        col = 0;
        title = "";
        ext.reset();
        copySaved(new Saved(), savedPrimary);
        copySaved(new Saved(), savedAlternate);
        touch(0, rows - 1);
    }

    private static void copySaved(Saved from, Saved to) {
        to.row = from.row;
        to.col = from.col;
        to.pendingWrap = from.pendingWrap;
        to.style = from.style;
        to.underlineColor = from.underlineColor;
        to.origin = from.origin;
        System.arraycopy(from.charsets, 0, to.charsets, 0, 4);
        to.shift = from.shift;
    }

    /** What DECSTR and RIS both reset. */
    private void softState() {
        style = 0;
        underlineColor = 0;
        top = 0;
        bottom = rows - 1;
        pendingWrap = false;
        Arrays.fill(charsets, 'B');
        shift = 0;
        singleShift = -1;
        modes[Mode.ORIGIN.ordinal()] = false;
        modes[Mode.INSERT.ordinal()] = false;
    }

    // ------------------------------------------------------------------ CSI

    private static int arg(Parser p, int i, int def) {
        if (i >= p.paramCount || p.params[i] == 0) {
            return def;
        }
        return p.params[i];
    }

    void csiDispatch(Parser p, int fin) {
        changed = true;
        int prefix = p.prefix;
        int inter = p.intermediate;
        if (inter == ' ' && fin == 'q' && prefix == 0) {
            int ps = arg(p, 0, 0);
            shape = ps <= 6 ? CursorShape.values()[ps == 0 ? 0 : ps] : shape;
            return;
        }
        if (inter == '!' && fin == 'p') {
            softState();
            modes[Mode.AUTOWRAP.ordinal()] = true;
            modes[Mode.CURSOR_VISIBLE.ordinal()] = true;
            copySaved(new Saved(), saved());
            return;
        }
        if (inter != 0) {
            return;
        }
        if (prefix == '?') {
            switch (fin) {
                case 'h':
                case 'l':
                    for (int i = 0; i < Math.max(1, p.paramCount); i++) {
                        decMode(p.paramCount == 0 ? 0 : p.params[i], fin == 'h');
                    }
                    break;
                case 'J':
                    eraseDisplay(arg(p, 0, 0));
                    break;
                case 'K':
                    eraseLine(arg(p, 0, 0));
                    break;
                case 'n':
                    if (arg(p, 0, 0) == 6) {
                        reply("\033[?" + reportRow() + ";" + (col + 1) + "R");
                    }
                    break;
                default:
                    break;
            }
            return;
        }
        if (prefix == '>') {
            if (fin == 'c' && arg(p, 0, 0) == 0) {
                reply("\033[>1;10;0c");
            }
            return;
        }
        if (prefix != 0) {
            return;
        }
        switch (fin) {
            case '@':
                pendingWrap = false;
                lines[row].insert(col, arg(p, 0, 1), blank());
                touch(row);
                break;
            case 'A':
                up(arg(p, 0, 1));
                break;
            case 'B':
            case 'e':
                down(arg(p, 0, 1));
                break;
            case 'C':
            case 'a':
                moveTo(row, col + arg(p, 0, 1));
                break;
            case 'D':
                col = Math.max(0, col - arg(p, 0, 1));
                pendingWrap = false;
                break;
            case 'E':
                down(arg(p, 0, 1));
                col = 0;
                break;
            case 'F':
                up(arg(p, 0, 1));
                col = 0;
                break;
            case 'G':
            case '`':
                col = Math.min(cols - 1, arg(p, 0, 1) - 1);
                pendingWrap = false;
                break;
            case 'H':
            case 'f':
                position(arg(p, 0, 1), arg(p, 1, 1));
                break;
            case 'I':
                tabForward(arg(p, 0, 1));
                break;
            case 'J':
                eraseDisplay(arg(p, 0, 0));
                break;
            case 'K':
                eraseLine(arg(p, 0, 0));
                break;
            case 'L':
                if (row >= top && row <= bottom) {
                    scrollDown(row, bottom, arg(p, 0, 1));
                    col = 0;
                    pendingWrap = false;
                }
                break;
            case 'M':
                if (row >= top && row <= bottom) {
                    scrollUpNoHistory(row, bottom, arg(p, 0, 1));
                    col = 0;
                    pendingWrap = false;
                }
                break;
            case 'P':
                pendingWrap = false;
                lines[row].delete(col, arg(p, 0, 1), blank());
                touch(row);
                break;
            case 'S':
                scrollUp(top, bottom, arg(p, 0, 1));
                break;
            case 'T':
                if (p.paramCount <= 1) {
                    scrollDown(top, bottom, arg(p, 0, 1));
                }
                break;
            case 'X':
                pendingWrap = false;
                lines[row].erase(col, Math.min(cols, col + arg(p, 0, 1)), blank());
                touch(row);
                break;
            case 'Z':
                tabBackward(arg(p, 0, 1));
                break;
            case 'b':
                if (lastPrinted >= 0) {
                    int n = Math.min(arg(p, 0, 1), cols * rows);
                    for (int i = 0; i < n; i++) {
                        print(lastPrinted);
                    }
                }
                break;
            case 'c':
                if (arg(p, 0, 0) == 0) {
                    reply("\033[?62;22c");
                }
                break;
            case 'd':
                moveTo((on(Mode.ORIGIN) ? top : 0) + arg(p, 0, 1) - 1, col);
                break;
            case 'g':
                int mode = arg(p, 0, 0);
                if (mode == 0) {
                    tabs[col] = false;
                } else if (mode == 3) {
                    Arrays.fill(tabs, false);
                }
                break;
            case 'h':
            case 'l':
                for (int i = 0; i < p.paramCount; i++) {
                    if (p.params[i] == 4) {
                        modes[Mode.INSERT.ordinal()] = fin == 'h';
                    } else if (p.params[i] == 20) {
                        modes[Mode.NEWLINE.ordinal()] = fin == 'h';
                    }
                }
                break;
            case 'm':
                sgr(p);
                break;
            case 'n':
                if (arg(p, 0, 0) == 5) {
                    reply("\033[0n");
                } else if (arg(p, 0, 0) == 6) {
                    reply("\033[" + reportRow() + ";" + (col + 1) + "R");
                }
                break;
            case 'r':
                int t = arg(p, 0, 1);
                int b = Math.min(arg(p, 1, rows), rows);
                if (t < b) {
                    top = t - 1;
                    bottom = b - 1;
                    position(1, 1);
                }
                break;
            case 's':
                saveCursor();
                break;
            case 'u':
                restoreCursor();
                break;
            default:
                break;
        }
    }

    private int reportRow() {
        return row + 1 - (on(Mode.ORIGIN) ? top : 0);
    }

    private void scrollUpNoHistory(int from, int to, int n) {
        writtenRow = -1;
        n = Math.min(n, to - from + 1);
        long fill = blank();
        for (int k = 0; k < n; k++) {
            Line gone = lines[from];
            System.arraycopy(lines, from + 1, lines, from, to - from);
            gone.reset(fill);
            lines[to] = gone;
        }
        touch(from, to);
    }

    private void eraseDisplay(int mode) {
        long fill = blank();
        switch (mode) {
            case 0:
                eraseLine(0);
                for (int r = row + 1; r < rows; r++) {
                    eraseRow(r, fill);
                }
                touch(row, rows - 1);
                break;
            case 1:
                eraseLine(1);
                for (int r = 0; r < row; r++) {
                    eraseRow(r, fill);
                }
                touch(0, row);
                break;
            case 2:
                for (int r = 0; r < rows; r++) {
                    eraseRow(r, fill);
                }
                pendingWrap = false;
                touch(0, rows - 1);
                break;
            case 3:
                history.clear();
                break;
            default:
                break;
        }
    }

    /**
     * Blanks a whole row for ED. On the primary screen the row gives its arrays back: that is
     * a shell's {@code clear}, after which most rows stay blank. On the alternate screen it
     * keeps them: full-screen programs erase and redraw continuously, and reallocating every
     * row each frame made an erase-and-redraw loop about half again as slow.
     */
    private void eraseRow(int r, long fill) {
        if (lines == primary) {
            lines[r].clear(fill);
        } else {
            lines[r].reset(fill);
        }
    }

    private void eraseLine(int mode) {
        Line line = lines[row];
        long fill = blank();
        switch (mode) {
            case 0:
                // From the cursor's cell, the last one while a wrap is pending, which it cancels (xterm).
                line.erase(col, cols, fill);
                line.wrapped = false;
                pendingWrap = false;
                break;
            case 1:
                line.erase(0, col + 1, fill);
                break;
            case 2:
                line.erase(0, cols, fill);
                line.wrapped = false;
                break;
            default:
                return;
        }
        touch(row);
    }

    private void decMode(int n, boolean set) {
        switch (n) {
            case 1:
                modes[Mode.APPLICATION_CURSOR_KEYS.ordinal()] = set;
                break;
            case 3:
                // DECCOLM: the pane's width is not the program's to change, so only what
                // the switch does besides: clear the screen and home the cursor (xterm with
                // 132-column switching allowed; tmux).
                eraseDisplay(2);
                position(1, 1);
                break;
            case 5:
                modes[Mode.REVERSE_VIDEO.ordinal()] = set;
                touch(0, rows - 1);
                break;
            case 6:
                modes[Mode.ORIGIN.ordinal()] = set;
                position(1, 1);
                break;
            case 7:
                modes[Mode.AUTOWRAP.ordinal()] = set;
                if (!set) {
                    pendingWrap = false;
                }
                break;
            case 25:
                modes[Mode.CURSOR_VISIBLE.ordinal()] = set;
                break;
            case 47:
            case 1047:
                alternateScreen(set, false);
                break;
            case 1048:
                if (set) {
                    saveCursor();
                } else {
                    restoreCursor();
                }
                break;
            case 1049:
                if (set) {
                    saveCursor();
                    alternateScreen(true, true);
                } else {
                    alternateScreen(false, false);
                    restoreCursor();
                }
                break;
            case 1000:
                modes[Mode.MOUSE_BUTTONS.ordinal()] = set;
                break;
            case 1002:
                modes[Mode.MOUSE_DRAG.ordinal()] = set;
                break;
            case 1003:
                modes[Mode.MOUSE_ANY.ordinal()] = set;
                break;
            case 1004:
                modes[Mode.FOCUS_EVENTS.ordinal()] = set;
                break;
            case 1006:
                modes[Mode.MOUSE_SGR.ordinal()] = set;
                break;
            case 2004:
                modes[Mode.BRACKETED_PASTE.ordinal()] = set;
                break;
            default:
                break;
        }
    }

    private void alternateScreen(boolean enter, boolean clear) {
        writtenRow = -1;
        if (enter && alternate == null) {
            alternate = grid(cols, rows); // allocated on first use: most panes never enter it
        }
        Line[] want = enter ? alternate : primary;
        if (lines == want) {
            return;
        }
        if (enter && clear) {
            for (Line l : alternate) {
                l.reset(0); // keeps arrays: the program is about to draw over them
            }
        }
        lines = want;
        modes[Mode.ALTERNATE_SCREEN.ordinal()] = enter;
        pendingWrap = false;
        touch(0, rows - 1);
    }

    private void sgr(Parser p) {
        int n = p.paramCount;
        if (n == 0) {
            style = 0;
            underlineColor = 0;
            return;
        }
        int[] a = p.params;
        long sub = p.subMask;
        long s = style;
        int uc = underlineColor;
        for (int i = 0; i < n; i++) {
            int v = a[i];
            // Sub-parameters that belong to the one before are consumed with it.
            int subs = 0;
            while (i + 1 + subs < n && (sub & (1L << (i + 1 + subs))) != 0) {
                subs++;
            }
            switch (v) {
                case 0:
                    s = 0;
                    uc = 0;
                    break;
                case 1:
                    s |= Style.BOLD;
                    break;
                case 2:
                    s |= Style.DIM;
                    break;
                case 3:
                    s |= Style.ITALIC;
                    break;
                case 4:
                    int ul = subs > 0 ? Math.min(a[i + 1], 5) : 1;
                    s = (s & ~Style.UNDERLINE_MASK) | ((long) ul << Style.UNDERLINE_SHIFT);
                    break;
                case 5:
                case 6:
                    s |= Style.BLINK;
                    break;
                case 7:
                    s |= Style.REVERSE;
                    break;
                case 8:
                    s |= Style.HIDDEN;
                    break;
                case 9:
                    s |= Style.STRIKE;
                    break;
                case 21:
                    s = (s & ~Style.UNDERLINE_MASK) | (2L << Style.UNDERLINE_SHIFT);
                    break;
                case 22:
                    s &= ~(Style.BOLD | Style.DIM);
                    break;
                case 23:
                    s &= ~Style.ITALIC;
                    break;
                case 24:
                    s &= ~Style.UNDERLINE_MASK;
                    break;
                case 25:
                    s &= ~Style.BLINK;
                    break;
                case 27:
                    s &= ~Style.REVERSE;
                    break;
                case 28:
                    s &= ~Style.HIDDEN;
                    break;
                case 29:
                    s &= ~Style.STRIKE;
                    break;
                case 38:
                case 48:
                case 58: {
                    int color;
                    int used;
                    if (subs > 0) {
                        color = extendedColor(a, i + 1, subs, true);
                        used = subs;
                    } else {
                        int kind = i + 1 < n ? a[i + 1] : -1;
                        used = kind == 5 ? 2 : kind == 2 ? 4 : 1;
                        used = Math.min(used, n - 1 - i);
                        color = extendedColor(a, i + 1, used, false);
                    }
                    if (color >= 0 && v == 38) {
                        s = Style.withFg(s, color);
                    } else if (color >= 0 && v == 48) {
                        s = Style.withBg(s, color);
                    } else if (color >= 0) {
                        uc = color;
                    }
                    i += used;
                    continue;
                }
                case 39:
                    s = Style.withFg(s, 0);
                    break;
                case 49:
                    s = Style.withBg(s, 0);
                    break;
                case 53:
                    s |= Style.OVERLINE;
                    break;
                case 55:
                    s &= ~Style.OVERLINE;
                    break;
                case 59:
                    uc = 0;
                    break;
                default:
                    if (v >= 30 && v <= 37) {
                        s = Style.withFg(s, Style.indexed(v - 30));
                    } else if (v >= 40 && v <= 47) {
                        s = Style.withBg(s, Style.indexed(v - 40));
                    } else if (v >= 90 && v <= 97) {
                        s = Style.withFg(s, Style.indexed(v - 90 + 8));
                    } else if (v >= 100 && v <= 107) {
                        s = Style.withBg(s, Style.indexed(v - 100 + 8));
                    }
                    break;
            }
            i += subs;
        }
        style = s;
        underlineColor = uc;
    }

    /**
     * The colour in {@code a[at .. at+count)}: {@code 5, n} or {@code 2, r, g, b}; with colons
     * also {@code 2, colourspace, r, g, b}. -1 when malformed.
     */
    private static int extendedColor(int[] a, int at, int count, boolean colon) {
        if (count >= 2 && a[at] == 5) {
            return a[at + 1] <= 255 ? Style.indexed(a[at + 1]) : -1;
        }
        if (a[at] == 2 && count >= 4) {
            int k = colon && count >= 5 ? at + 2 : at + 1;
            if (a[k] > 255 || a[k + 1] > 255 || a[k + 2] > 255) {
                return -1;
            }
            return Style.rgb(a[k], a[k + 1], a[k + 2]);
        }
        return -1;
    }

    // ------------------------------------------------------------------ OSC and replies

    void osc(byte[] s, int len) {
        int i = 0;
        int code = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && code < 100000) {
            code = code * 10 + (s[i] - '0');
            i++;
        }
        if (i == 0 || i >= len || s[i] != ';') {
            return;
        }
        i++;
        if (code == 0 || code == 2) {
            title = new String(s, i, len - i, StandardCharsets.UTF_8);
            changed = true;
        } else if (ext.osc(code, s, i, len, lines[row])) {
            touch(row);
        }
    }

    private void reply(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        if (replyLen + b.length > MAX_REPLY_BYTES) {
            return;
        }
        if (replyLen + b.length > replies.length) {
            replies = Arrays.copyOf(replies, Math.max(64, Math.max(replyLen + b.length, replies.length * 2)));
        }
        System.arraycopy(b, 0, replies, replyLen, b.length);
        replyLen += b.length;
    }

    @Override
    public byte[] takeReplies() {
        byte[] out = Arrays.copyOf(replies, replyLen);
        replyLen = 0;
        if (replies.length > 1024) {
            replies = new byte[0];
        }
        return out;
    }

    // ------------------------------------------------------------------ resize

    @Override
    public void resize(int newCols, int newRows) {
        writtenRow = -1;
        newCols = clampDim(newCols);
        newRows = clampDim(newRows);
        if (newCols == cols && newRows == rows) {
            return;
        }
        boolean onPrimary = lines == primary;
        Reflow r = Reflow.primary(history, primary, rows, newCols, newRows, onPrimary ? row : savedPrimary.row,
                onPrimary ? col : savedPrimary.col, savedPrimary.row, savedPrimary.col);
        primary = r.grid;
        savedPrimary.row = onPrimary ? r.savedRow : r.row;
        savedPrimary.col = onPrimary ? r.savedCol : r.col;
        if (alternate != null) {
            // The alternate screen is cut or padded, never reflowed: its program redraws it.
            for (Line l : alternate) {
                l.resize(newCols);
            }
            int shiftUp = onPrimary ? 0 : Math.max(0, row - (newRows - 1));
            alternate = resizeRows(alternate, newRows, shiftUp, newCols);
            row -= shiftUp;
        }
        if (onPrimary) {
            row = r.row;
            col = r.col;
        }
        lines = onPrimary ? primary : alternate;
        if (newCols != cols) {
            tabs = Arrays.copyOf(tabs, newCols);
            int old = cols;
            cols = newCols;
            resetTabs(Math.min(old, newCols));
        }
        rows = newRows;
        row = Math.min(row, rows - 1);
        col = Math.min(col, cols - 1);
        for (Saved s : new Saved[] {savedPrimary, savedAlternate}) {
            s.row = Math.min(s.row, rows - 1);
            s.col = Math.min(s.col, cols - 1);
            s.pendingWrap = false;
        }
        pendingWrap = false;
        top = 0;
        bottom = rows - 1;
        rowRevision = new long[rows];
        revision++;
        resizedAt = revision;
        Arrays.fill(rowRevision, revision);
    }

    /** Drops {@code dropTop} rows off the top, then pads or cuts at the bottom. */
    private static Line[] resizeRows(Line[] g, int newRows, int dropTop, int cols) {
        Line[] out = new Line[newRows];
        int from = Math.min(dropTop, g.length);
        for (int i = 0; i < newRows; i++) {
            out[i] = from + i < g.length ? g[from + i] : new Line(cols);
        }
        return out;
    }

    // ------------------------------------------------------------------ reading

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public Limits limits() {
        return limits;
    }

    @Override
    public String screenText(boolean withSgr) {
        StringBuilder sb = new StringBuilder(rows * (cols + 1));
        for (int r = 0; r < rows; r++) {
            if (r > 0) {
                sb.append('\n');
            }
            Line l = lines[r];
            Render.row(sb, l, withSgr);
        }
        return sb.toString();
    }

    @Override
    public String rowText(int r, boolean withSgr) {
        Line l = lines[checkRow(r)];
        StringBuilder sb = new StringBuilder(cols);
        Render.row(sb, l, withSgr);
        return sb.toString();
    }

    private int checkRow(int r) {
        return java.util.Objects.checkIndex(r, rows);
    }

    private Line cellLine(int r, int c) {
        java.util.Objects.checkIndex(c, cols);
        return lines[checkRow(r)];
    }

    @Override
    public int codepoint(int r, int c) {
        int v = cellLine(r, c).cp(c);
        return (v & Line.TAIL) != 0 ? 0 : v & Line.CP_MASK;
    }

    @Override
    public String grapheme(int r, int c) {
        Line l = cellLine(r, c);
        int v = l.cp(c);
        if ((v & Line.TAIL) != 0) {
            return "";
        }
        int code = v & Line.CP_MASK;
        String base = Character.toString(code == 0 ? ' ' : code);
        return l.marks != null && l.marks[c] != null ? base + l.marks[c] : base;
    }

    @Override
    public int width(int r, int c) {
        int v = cellLine(r, c).cp(c);
        return (v & Line.TAIL) != 0 ? 0 : (v & Line.WIDE) != 0 ? 2 : 1;
    }

    @Override
    public long style(int r, int c) {
        return cellLine(r, c).st(c);
    }

    @Override
    public int underlineColor(int r, int c) {
        return cellLine(r, c).ul(c);
    }

    @Override
    public boolean wrapped(int r) {
        return lines[checkRow(r)].wrapped;
    }

    @Override
    public int cursorRow() {
        return row;
    }

    @Override
    public int cursorCol() {
        return col;
    }

    @Override
    public boolean cursorVisible() {
        return on(Mode.CURSOR_VISIBLE);
    }

    @Override
    public CursorShape cursorShape() {
        return shape;
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public boolean mode(Mode mode) {
        return modes[mode.ordinal()];
    }

    @Override
    public boolean wantsMouse() {
        return on(Mode.MOUSE_BUTTONS) || on(Mode.MOUSE_DRAG) || on(Mode.MOUSE_ANY);
    }

    @Override
    public long revision() {
        return revision;
    }

    @Override
    public BitSet rowsChangedSince(long since) {
        BitSet out = new BitSet(rows);
        if (since < resizedAt) {
            out.set(0, rows);
            return out;
        }
        for (int r = 0; r < rows; r++) {
            if (rowRevision[r] > since) {
                out.set(r);
            }
        }
        return out;
    }

    @Override
    public int historySize() {
        return history.size();
    }

    @Override
    public String historyText(int index, boolean withSgr) {
        StringBuilder sb = new StringBuilder();
        history.get(index).text(sb, withSgr);
        return sb.toString();
    }

    @Override
    public String historyText(int from, int to, boolean withSgr) {
        return Search.historyText(history, from, to, withSgr);
    }

    @Override
    public List<Match> search(String needle, boolean caseSensitive, int maxMatches) {
        return Search.find(history, lines, needle, caseSensitive, Math.min(maxMatches, MAX_MATCHES));
    }

    @Override
    public boolean historyWrapped(int index) {
        return history.get(index).wrapped;
    }

    @Override
    public long historyBytes() {
        return history.bytes();
    }

    /** One scrollback line's bytes under the model (tests). */
    long historyLineBytes(int index) {
        return history.get(index).bytes;
    }

    /** The scrollback's bytes summed afresh from every line (tests). */
    long historyBytesRecounted() {
        long sum = 0;
        for (int i = 0; i < history.size(); i++) {
            sum += history.get(i).bytes;
        }
        return sum;
    }

    /**
     * Retained bytes of the screen grids under the model of {@code docs/vt.md}: each row's
     * object and the arrays it holds, and the row arrays; the alternate grid when it exists
     * (tests).
     */
    long footprint() {
        return gridBytes(primary) + gridBytes(alternate);
    }

    private static long gridBytes(Line[] grid) {
        if (grid == null) {
            return 0;
        }
        long sum = HistoryLine.array(grid.length, 4);
        for (Line l : grid) {
            sum += l.bytes();
        }
        return sum;
    }

    /** Bytes the parser holds for the input (tests). */
    int parserRetainedBytes() {
        return parser.retainedBytes() + replies.length;
    }

    // ------------------------------------------------------------------ OSC 7, 8, 9, 777, 133, 52

    @Override
    public WorkingDirectory workingDirectory() {
        return ext.workingDirectory();
    }

    @Override
    public Hyperlink link(int r, int c) {
        Line l = cellLine(r, c);
        return l.links == null ? null : ext.link(l.links[c]);
    }

    @Override
    public Hyperlink historyLink(int index, int c) {
        return ext.link(history.get(index).link(c));
    }

    @Override
    public int rowMarks(int r) {
        return lines[checkRow(r)].shellMarks;
    }

    @Override
    public int rowExitStatus(int r) {
        return lines[checkRow(r)].exitStatus;
    }

    @Override
    public int historyMarks(int index) {
        return history.get(index).shellMarks;
    }

    @Override
    public int historyExitStatus(int index) {
        return history.get(index).exitStatus;
    }

    @Override
    public int lastExitStatus() {
        return ext.lastExitStatus();
    }

    @Override
    public long commandsFinished() {
        return ext.commandsFinished();
    }

    @Override
    public long bells() {
        return bells;
    }

    @Override
    public List<Notification> takeNotifications() {
        return ext.takeNotifications();
    }

    @Override
    public ClipboardWrite takeClipboardWrite() {
        return ext.takeClipboardWrite();
    }

    /** Live entries in the hyperlink table (tests). */
    int liveLinks() {
        return ext.links.size();
    }
}

package io.artuditu.vt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test: each recorded corpus item is replayed into a tmux pane of the item's
 * size on a private tmux server, and tmux's screen is compared with ours row by row (text),
 * glyph by glyph (rendition) and by cursor position. tmux is the independent oracle; its
 * renditions are read from {@code capture-pane -e} by {@link TmuxCapture}, not by our parser.
 * See "Differential test against tmux" in {@code docs/vt.md} and {@code corpus/README.md}.
 *
 * <p>tmux is a test dependency: without it this test fails, so that CI cannot pass without
 * running it. A developer without tmux passes {@code -Dartuditu.skipTmux=true}.
 */
class TmuxDiffTest {

    /**
     * A row where we follow xterm and tmux 3.3a does not: our row must read {@code xterm}, as
     * worked out from xterm's rules (not from our output), and tmux's row must differ from it
     * (and read {@code tmux} when that is given), so the item fails when either side changes.
     * Each case is named in {@code docs/vt.md}.
     */
    record Xterm(int row, String xterm, String tmux) {
        Xterm(int row, String xterm) {
            this(row, xterm, null);
        }
    }

    /** {@code text} starting at column {@code col}. */
    static String at(int col, String text) {
        return " ".repeat(col) + text;
    }

    /** A row of syn-pending-wrap: its label, then the five cells ending at column 100. */
    static String wrapRow(String label, String lastFive) {
        return String.format("%-95s%s", label, lastFive);
    }

    /**
     * One corpus item at its recorded size. {@code minRows}/{@code minCells} are the rows whose
     * text must match and the cells whose rendition must match; {@code rows} and
     * {@code rows * cols} mean must-match. A lower floor is a known disagreement, explained in
     * {@code docs/vt.md}; the floor keeps it from growing unnoticed.
     */
    record Item(String file, int cols, int rows, int minRows, int minCells, boolean cursor, List<Xterm> xterm) {
        static Item exact(String file, int cols, int rows) {
            return new Item(file, cols, rows, rows, rows * cols, true, List.of());
        }

        Item withXterm(List<Xterm> rows) {
            return new Item(file, cols, this.rows, minRows, minCells, cursor, rows);
        }

        Item withMinRows(int min) {
            return new Item(file, cols, rows, min, minCells, cursor, xterm);
        }

        @Override
        public String toString() {
            return file;
        }
    }

    static List<Item> corpus() {
        List<Item> items = new ArrayList<>();
        for (String program : List.of("ls-color", "git-log-graph", "less-paging", "less-quit", "vim-edit", "redraw-loop")) {
            items.add(Item.exact(program + ".bin", 80, 24));
        }
        // Writing into the right half of a wide character blanks its left half (xterm fills
        // the rest of a character it overwrites in part with blanks); tmux keeps the left half.
        items.add(Item.exact("unicode.bin", 80, 24).withXterm(List.of(new Xterm(9, " x文y 文", "中x文y 文"))));
        for (int[] size : new int[][] {{80, 24}, {100, 30}}) {
            for (int[] menu : new int[][] {{1, 6}, {2, 15}, {3, 1}, {8, 11}}) {
                for (int k = 1; k <= menu[1]; k++) {
                    Item item = Item.exact(String.format("vttest-%dx%d-m%d-%02d.bin", size[0], size[1], menu[0], k),
                            size[0], size[1]);
                    if (menu[0] == 1 && (k == 3 || k == 4)) {
                        item = item.withXterm(vttestAutowrap(size[0], size[1]));
                    } else if (menu[0] == 3) {
                        // The British set's row: '#' is the pound sign.
                        String set = " !\"£$%&'()*+,-./0123456789:;<=>?";
                        item = item.withXterm(List.of(new Xterm(7, at(9, set) + at(6, set), at(9, set.replace('£', '#'))
                                + at(6, set.replace('£', '#')))));
                    }
                    items.add(item);
                }
            }
        }
        for (String area : List.of("decawm-off", "wide-last-column", "autowrap-mixed", "charsets", "decaln", "ris",
                "tab-stops", "erase", "erase-ed2", "cursor-clamp", "sgr-attributes", "sgr-overline-underline-colour")) {
            items.add(Item.exact("syn-" + area + ".bin", 100, 30));
        }
        items.add(syn("pending-wrap",
                // LF: the cursor stays in the last column of the next row, no longer pending.
                new Xterm(4, at(99, "*")),
                // BS and CUB from the pending state start at the last column.
                new Xterm(5, wrapRow("BS", "bbb*b")), new Xterm(6, wrapRow("CUB", "aaa*a")),
                new Xterm(7, wrapRow("CUB3", "b*bbb")),
                // DECRC and CSI u restore the pending wrap, so '*' goes to the next row.
                new Xterm(13, wrapRow("DECSC", "aaaaa")), new Xterm(14, "*"),
                // EL, ICH, DCH and ECH act on the last column and cancel the pending wrap.
                new Xterm(15, wrapRow("EL", "bbbb*")), new Xterm(16, wrapRow("ICH", "aaaa*")),
                new Xterm(17, wrapRow("DCH", "bbbb*")), new Xterm(18, wrapRow("ECH", "aaaa*")),
                new Xterm(21, wrapRow("CSIs", "aaaaa")), new Xterm(22, "*")));
        // BS at the first column stays there: no reverse wrap without mode 45.
        items.add(syn("bs-continuation", new Xterm(1, "w".repeat(100), "w".repeat(99) + "B"),
                new Xterm(2, "Becond", "second"), new Xterm(7, "u".repeat(100), "u".repeat(99) + "Y"),
                new Xterm(8, "Y", "z")));
        items.add(syn("charsets-g2g3", new Xterm(0, "a┌─┐b", "alqkb"), new Xterm(1, "c─q", "cqq"),
                new Xterm(2, "d│x", "dxx"), new Xterm(3, "┌─┐e", "lqke"), new Xterm(4, "─", "q")));
        items.add(syn("charset-british", new Xterm(0, "£x£#", "#x##"), new Xterm(1, "£#", "##"),
                new Xterm(2, "─q£", "──#")));
        items.add(syn("decstr", new Xterm(0, "─q", "──"), new Xterm(1, "Xbc", "X▒␉␌")));
        // IL moves the cursor to the first column.
        items.add(syn("scroll-regions", new Xterm(4, "IL10", " IL10")));
        List<Xterm> untouched = new ArrayList<>();
        for (int r = 2; r < 30; r++) {
            if (r < 24 || r >= 28) {
                untouched.add(new Xterm(r, String.format("row %02d", r + 1)));
            }
        }
        items.add(syn("il-dl-outside", untouched.toArray(new Xterm[0])));
        items.add(syn("tab-cht", new Xterm(0, at(24, "a"), "a"), new Xterm(1, at(8, "b"), "b"),
                new Xterm(2, at(40, "c"), at(29, "c")), new Xterm(3, at(96, "d"), at(94, "d")),
                new Xterm(4, at(99, "e"), at(97, "e"))));
        items.add(syn("hpr-vpr", new Xterm(0, at(14, "x"), at(9, "x")), new Xterm(2, "", "y"),
                new Xterm(4, "y", ""), new Xterm(9, at(99, "z"), at(94, "z")), new Xterm(19, "", at(4, "w")),
                new Xterm(29, at(4, "w"), "")));
        // A mark joins the character written last while the cursor has not moved; after CUF it
        // joins the character under the cursor.
        items.add(syn("combining-margin", new Xterm(7, at(99, "e\u0300\u0323\u0302")),
                new Xterm(11, at(99, "b\u0304"))));
        return items;
    }

    static Item syn(String area, Xterm... rows) {
        return Item.exact("syn-" + area + ".bin", 100, 30).withXterm(List.of(rows));
    }

    /**
     * vttest's "Test of autowrap, mixing control and print characters" says what a VT100 shows:
     * the letters in order down both margins of the scroll region (rows 3 to lines - 3): once
     * the 26 have scrolled through it, its rows but the last (a blank line after the final
     * newline) hold the last lines - 6 letters. tmux 3.3a differs because BS from the
     * pending-wrap state starts at the last column.
     */
    static List<Xterm> vttestAutowrap(int cols, int rows) {
        List<Xterm> out = new ArrayList<>();
        int n = rows - 6;
        for (int k = 0; k < n; k++) {
            char letter = (char) ('Z' - n + 1 + k);
            out.add(new Xterm(2 + k, letter + " ".repeat(cols - 2) + Character.toLowerCase(letter)));
        }
        return out;
    }

    @TempDir
    static Path tmp;

    static String tmux;

    static final AtomicInteger ITEMS = new AtomicInteger();
    static final AtomicInteger TEXT_EXACT = new AtomicInteger();
    static final AtomicInteger CURSOR_EXACT = new AtomicInteger();
    static final AtomicInteger STYLE_EXACT = new AtomicInteger();
    static final AtomicInteger ALL_EXACT = new AtomicInteger();
    static final AtomicInteger EXACT_WITHOUT_XTERM = new AtomicInteger();

    @BeforeAll
    static void findTmux() throws Exception {
        Assumptions.assumeFalse(Boolean.getBoolean("artuditu.skipTmux"),
                "tmux differential test skipped by -Dartuditu.skipTmux=true");
        try {
            Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "tmux -V failed: " + v);
            tmux = v;
        } catch (IOException e) {
            fail("tmux is not on the PATH; it is the oracle of this test. Install it (.ci/run does), "
                    + "or pass -Dartuditu.skipTmux=true to skip the differential test", e);
        }
        Files.writeString(tmp.resolve("tmux.conf"), "set -g status off\nset -g history-limit 0\n");
    }

    @AfterAll
    static void score() {
        int n = ITEMS.get();
        if (n > 0) {
            System.out.printf("tmux-diff score: %d of %d items exact on text, cursor and renditions "
                    + "(text %d, cursor %d, renditions %d); %d of them equal to tmux's screen outright, the others "
                    + "with rows where we follow xterm [%s]%n", ALL_EXACT.get(), n, TEXT_EXACT.get(),
                    CURSOR_EXACT.get(), STYLE_EXACT.get(), EXACT_WITHOUT_XTERM.get(), tmux);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void agreesWithTmux(Item item) throws Exception {
        byte[] bytes;
        try (InputStream in = TmuxDiffTest.class.getResourceAsStream("/corpus/" + item.file())) {
            assertTrue(in != null, "missing corpus item " + item.file());
            bytes = in.readAllBytes();
        }
        assertTrue(bytes.length <= 64 * 1024, item.file() + " is larger than 64 KiB");
        Path data = tmp.resolve(item.file());
        Files.write(data, bytes);
        int cols = item.cols();
        int rows = item.rows();

        Terminal ours = Terminal.create(cols, rows);
        ours.feed(bytes);
        byte[] right = reveal(rows, "@");
        byte[] left = reveal(rows, "P");
        Terminal oursShifted = Terminal.create(cols, rows);
        oursShifted.feed(bytes);
        oursShifted.feed(right);
        Terminal oursLeft = Terminal.create(cols, rows);
        oursLeft.feed(bytes);
        oursLeft.feed(left);
        Path rightFile = tmp.resolve(item.file() + ".right");
        Files.write(rightFile, right);
        Path leftFile = tmp.resolve(item.file() + ".left");
        Files.write(leftFile, left);
        Screen theirs = tmuxScreen(item, data, rightFile, leftFile);
        List<List<TmuxCapture.Glyph>> tmuxGlyphs = TmuxCapture.read(theirs.styled, rows);
        List<List<TmuxCapture.Glyph>> tmuxShifted = TmuxCapture.read(theirs.shifted, rows);
        List<List<TmuxCapture.Glyph>> tmuxLeft = TmuxCapture.read(theirs.left, rows);

        int rowsSame = 0;
        StringBuilder diff = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            String a = ours.rowText(r, false).stripTrailing();
            String b = TmuxCapture.text(tmuxGlyphs.get(r));
            Xterm x = deviation(item, r);
            if (x != null) {
                assertTrue(!x.xterm().equals(b) && (x.tmux() == null || x.tmux().equals(b)), item.file() + " row " + r
                        + ": tmux no longer deviates from xterm as recorded; it reads |" + b + "|");
                if (a.equals(x.xterm())) {
                    rowsSame++;
                } else {
                    diff.append(String.format("  row %2d ours:  |%s|%n        xterm:  |%s|%n", r, a, x.xterm()));
                }
            } else if (a.equals(b)) {
                rowsSame++;
            } else {
                diff.append(String.format("  row %2d ours:  |%s|%n         tmux:  |%s|%n", r, a, b));
            }
        }
        int cellsSame = 0;
        int unreported = 0;
        int shown = 0;
        for (int r = 0; r < rows; r++) {
            List<TmuxCapture.Glyph> mine = glyphs(ours, r);
            List<TmuxCapture.Glyph> theirsRow = tmuxGlyphs.get(r);
            List<TmuxCapture.Glyph> mineShifted = glyphs(oursShifted, r);
            List<TmuxCapture.Glyph> theirsShifted = tmuxShifted.get(r);
            List<TmuxCapture.Glyph> mineLeft = glyphs(oursLeft, r);
            List<TmuxCapture.Glyph> theirsLeft = tmuxLeft.get(r);
            for (int c = 0; c < cols; c++) {
                TmuxCapture.Glyph x = glyph(mine, c);
                TmuxCapture.Glyph y;
                if (c < theirsRow.size()) {
                    y = theirsRow.get(c);
                } else if (c + 1 < theirsShifted.size()) {
                    // Past the capture's end (see reveal): the same glyph one to the right after ICH.
                    x = glyph(mineShifted, c + 1);
                    y = theirsShifted.get(c + 1);
                } else if (c >= 1 && c - 1 < theirsLeft.size()) {
                    // The last column: the same glyph one to the left after DCH.
                    x = glyph(mineLeft, c - 1);
                    y = theirsLeft.get(c - 1);
                } else {
                    // Reported by none of the three captures: only our text is checked there
                    // (blank, by the row comparison).
                    cellsSame++;
                    if (!x.sameRendition(DEFAULT_GLYPH)) {
                        unreported++;
                    }
                    continue;
                }
                if (x.sameRendition(y)) {
                    cellsSame++;
                } else if (shown++ < 5) {
                    diff.append(String.format("  glyph %d,%d rendition ours %s, tmux %s%n", r, c, x.rendition(),
                            y.rendition()));
                }
            }
        }
        boolean cursorSame = ours.cursorRow() == theirs.cursorRow && ours.cursorCol() == theirs.cursorCol;
        if (!cursorSame) {
            diff.append(String.format("  cursor ours %d,%d tmux %d,%d%n", ours.cursorRow(), ours.cursorCol(),
                    theirs.cursorRow, theirs.cursorCol));
        }
        ITEMS.incrementAndGet();
        if (rowsSame == rows) {
            TEXT_EXACT.incrementAndGet();
        }
        if (cursorSame) {
            CURSOR_EXACT.incrementAndGet();
        }
        if (cellsSame == rows * cols) {
            STYLE_EXACT.incrementAndGet();
        }
        if (rowsSame == rows && cursorSame && cellsSame == rows * cols) {
            ALL_EXACT.incrementAndGet();
            if (item.xterm().isEmpty()) {
                EXACT_WITHOUT_XTERM.incrementAndGet();
            }
        }
        System.out.printf("tmux-diff %-26s %3dx%-2d rows %2d/%d  renditions %4d/%d  cursor %s%s%s%n%s", item.file(),
                cols, rows, rowsSame, rows, cellsSame, rows * cols, cursorSame ? "same" : "differs",
                unreported == 0 ? "" : "  (" + unreported + " coloured blanks past tmux's capture)",
                item.xterm().isEmpty() ? "" : "  (xterm on " + item.xterm().size() + " rows)", diff);

        assertTrue(rowsSame >= item.minRows(), item.file() + ": " + rowsSame + " rows match, expected at least "
                + item.minRows() + "\n" + diff);
        assertTrue(cellsSame >= item.minCells(), item.file() + ": " + cellsSame
                + " glyph renditions match tmux, expected at least " + item.minCells() + "\n" + diff);
        if (item.cursor()) {
            assertTrue(cursorSame, item.file() + ": cursor differs\n" + diff);
        }
    }

    private static Xterm deviation(Item item, int row) {
        for (Xterm x : item.xterm()) {
            if (x.row() == row) {
                return x;
            }
        }
        return null;
    }

    /** Our row as glyphs: one per character, a wide character's right half skipped. */
    static List<TmuxCapture.Glyph> glyphs(Terminal t, int r) {
        List<TmuxCapture.Glyph> out = new ArrayList<>();
        for (int c = 0; c < t.cols(); c++) {
            if (t.width(r, c) != 0) {
                out.add(new TmuxCapture.Glyph(t.grapheme(r, c), t.style(r, c), t.underlineColor(r, c)));
            }
        }
        return out;
    }

    /** A blank in the default rendition: what is past the end of a row of glyphs. */
    static final TmuxCapture.Glyph DEFAULT_GLYPH = new TmuxCapture.Glyph(" ", 0);

    static TmuxCapture.Glyph glyph(List<TmuxCapture.Glyph> row, int i) {
        return i < row.size() ? row.get(i) : DEFAULT_GLYPH;
    }

    record Screen(String styled, String shifted, String left, int cursorRow, int cursorCol) {
    }

    /**
     * What is fed after the comparison of text and cursor so that tmux reports the renditions
     * of erased cells. tmux's {@code capture-pane} stops at the last cell a character was
     * written to, so blanks that an erase (ED, EL, ECH, SU...) coloured past it are not in the
     * capture. ICH ({@code final} "@") at the first column moves every cell of the row one to
     * the right, which tmux counts as written: a second capture shows each of those cells, one
     * column to the right, with its rendition, except the last column's, which ICH pushes
     * out; DCH ("P") at the first column, on a second replay, shows that one one column to the
     * left. The same bytes go into terminals of ours, so both sides are compared after the
     * same operation.
     */
    static byte[] reveal(int rows, String fin) {
        StringBuilder sb = new StringBuilder("\033[0m\033[?6l\033[r");
        for (int r = 1; r <= rows; r++) {
            sb.append("\033[").append(r).append(";1H\033[").append(fin);
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Replays the file into a fresh pane of a private server. {@code stty raw -echo} keeps the
     * pane's line discipline from rewriting the bytes (LF to CR LF) or echoing tmux's own answers
     * to the recorded queries; the wait-for channel tells us when cat is done, and the screen is
     * read until two reads agree, because tmux may still be parsing the pane's last output.
     */
    static Screen tmuxScreen(Item item, Path data, Path right, Path left) throws Exception {
        String name = item.file();
        Path sock = tmp.resolve(name + ".sock");
        String fed = "fed-" + name;
        String go = "go-" + name;
        String revealed = "revealed-" + name;
        String leftDone = "left-" + name;
        try {
            tmux(sock, "new-session", "-d", "-s", "main", "-x", "" + item.cols(), "-y", "" + item.rows(),
                    "stty raw -echo; cat '" + data + "'; tmux wait-for -S " + fed + "; tmux wait-for " + go
                            + "; cat '" + right + "'; tmux wait-for -S " + revealed + "; sleep 600");
            tmux(sock, "new-session", "-d", "-s", "left", "-x", "" + item.cols(), "-y", "" + item.rows(),
                    "stty raw -echo; cat '" + data + "' '" + left + "'; tmux wait-for -S " + leftDone + "; sleep 600");
            tmux(sock, "wait-for", fed);
            String styled = stableCapture(sock, "main");
            String[] cursor = tmux(sock, "display-message", "-p", "-t", "main", "#{cursor_y} #{cursor_x}").trim()
                    .split(" ");
            tmux(sock, "wait-for", "-S", go);
            tmux(sock, "wait-for", revealed);
            String shifted = stableCapture(sock, "main");
            tmux(sock, "wait-for", leftDone);
            String leftCapture = stableCapture(sock, "left");
            // tmux reports a pending wrap as the column after the last one.
            int col = Math.min(Integer.parseInt(cursor[1]), item.cols() - 1);
            return new Screen(styled, shifted, leftCapture, Integer.parseInt(cursor[0]), col);
        } finally {
            try {
                tmux(sock, "kill-server");
            } catch (AssertionError ignored) {
                // already gone
            }
        }
    }

    /** The pane with renditions, read until two reads agree: tmux may still be parsing its last output. */
    static String stableCapture(Path sock, String session) throws Exception {
        // -N keeps trailing spaces: without it tmux drops blank cells even when they are coloured.
        String styled = tmux(sock, "capture-pane", "-p", "-e", "-N", "-t", session);
        for (int i = 0; i < 50; i++) {
            Thread.sleep(50);
            String again = tmux(sock, "capture-pane", "-p", "-e", "-N", "-t", session);
            if (again.equals(styled)) {
                break;
            }
            styled = again;
        }
        return styled;
    }

    static String tmux(Path sock, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-S", sock.toString(), "-f", tmp.resolve("tmux.conf").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        // Outputs are a screen or less, well under a pipe's buffer, so waiting before reading is safe.
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("tmux " + String.join(" ", args) + " timed out");
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertEquals(0, p.exitValue(), "tmux " + String.join(" ", args));
        return new String(out, StandardCharsets.UTF_8);
    }
}

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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test: each recorded corpus item is replayed into a tmux pane of the same size
 * on a private tmux server, and tmux's screen is compared with ours row by row (text), cell by
 * cell (rendition) and by cursor position. tmux is the independent oracle; see the
 * "Differential test against tmux" section of {@code docs/vt.md} and {@code corpus/README.md}.
 *
 * <p>tmux is a test dependency: without it this test fails, so that CI cannot pass without
 * running it. A developer without tmux passes {@code -Dartuditu.skipTmux=true}.
 */
class TmuxDiffTest {

    static final int COLS = 80;
    static final int ROWS = 24;

    /**
     * The corpus. {@code minRows}/{@code minCells} are the rows (of 24) whose text must match
     * and the cells (of 1,920) whose rendition must match; 24 and 1,920 mean must-match. A lower
     * floor is a known disagreement, explained in {@code docs/vt.md}; the floor keeps it from
     * growing unnoticed.
     */
    record Item(String file, int minRows, int minCells, boolean cursor) {
        @Override
        public String toString() {
            return file;
        }
    }

    static List<Item> corpus() {
        return List.of(
                new Item("ls-color.bin", 24, 1920, true),
                new Item("git-log-graph.bin", 24, 1920, true),
                new Item("less-paging.bin", 24, 1920, true),
                new Item("less-quit.bin", 24, 1920, true),
                new Item("vim-edit.bin", 24, 1920, true),
                new Item("redraw-loop.bin", 24, 1920, true),
                // tmux keeps a wide character whose right half was overwritten (row 9).
                new Item("unicode.bin", 23, 1920, true));
    }

    @TempDir
    static Path tmp;

    static String tmux;

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

        Terminal ours = Terminal.create(COLS, ROWS);
        ours.feed(bytes);
        Screen theirs = tmuxScreen(item.file(), data);
        Terminal theirsStyled = Terminal.create(COLS, ROWS);
        theirsStyled.feed(theirs.styled.getBytes(StandardCharsets.UTF_8));

        List<String> a = rows(ours.screenText(false));
        List<String> b = theirs.rows;
        int rowsSame = 0;
        StringBuilder diff = new StringBuilder();
        for (int r = 0; r < ROWS; r++) {
            if (a.get(r).equals(b.get(r))) {
                rowsSame++;
            } else {
                diff.append(String.format("  row %2d ours:  |%s|%n         tmux:  |%s|%n", r, a.get(r), b.get(r)));
            }
        }
        int cellsSame = 0;
        int shown = 0;
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLS; c++) {
                long x = ours.style(r, c);
                long y = theirsStyled.style(r, c);
                if (x == y) {
                    cellsSame++;
                } else if (shown++ < 5) {
                    diff.append(String.format("  cell %d,%d rendition ours %s, tmux %s%n", r, c,
                            Long.toHexString(x), Long.toHexString(y)));
                }
            }
        }
        boolean cursorSame = ours.cursorRow() == theirs.cursorRow && ours.cursorCol() == theirs.cursorCol;
        if (!cursorSame) {
            diff.append(String.format("  cursor ours %d,%d tmux %d,%d%n", ours.cursorRow(), ours.cursorCol(),
                    theirs.cursorRow, theirs.cursorCol));
        }
        System.out.printf("tmux-diff %-18s rows %2d/%d (%3d %%)  renditions %4d/%d (%3d %%)  cursor %s  [%s]%n%s",
                item.file(), rowsSame, ROWS, rowsSame * 100 / ROWS, cellsSame, ROWS * COLS,
                cellsSame * 100 / (ROWS * COLS), cursorSame ? "same" : "differs", tmux, diff);

        assertTrue(rowsSame >= item.minRows(), item.file() + ": " + rowsSame + " rows match tmux, expected at least "
                + item.minRows() + "\n" + diff);
        assertTrue(cellsSame >= item.minCells(), item.file() + ": " + cellsSame
                + " cell renditions match tmux, expected at least " + item.minCells() + "\n" + diff);
        if (item.cursor()) {
            assertTrue(cursorSame, item.file() + ": cursor differs\n" + diff);
        }
    }

    record Screen(List<String> rows, String styled, int cursorRow, int cursorCol) {
    }

    /**
     * Replays the file into a fresh pane of a private server. {@code stty raw -echo} keeps the
     * pane's line discipline from rewriting the bytes (LF to CR LF) or echoing tmux's own answers
     * to the recorded queries; the wait-for channel tells us when cat is done, and the screen is
     * read until two reads agree, because tmux may still be parsing the pane's last output.
     */
    static Screen tmuxScreen(String name, Path data) throws Exception {
        Path sock = tmp.resolve(name + ".sock");
        String channel = "fed-" + name;
        try {
            tmux(sock, "new-session", "-d", "-x", "" + COLS, "-y", "" + ROWS,
                    "stty raw -echo; cat '" + data + "'; tmux wait-for -S " + channel + "; sleep 600");
            tmux(sock, "wait-for", channel);
            String text = tmux(sock, "capture-pane", "-p");
            for (int i = 0; i < 50; i++) {
                Thread.sleep(100);
                String again = tmux(sock, "capture-pane", "-p");
                if (again.equals(text)) {
                    break;
                }
                text = again;
            }
            // -N keeps trailing spaces: without it tmux drops blank cells even when they are coloured.
            String styled = tmux(sock, "capture-pane", "-p", "-e", "-N");
            String[] cursor = tmux(sock, "display-message", "-p", "#{cursor_y} #{cursor_x}").trim().split(" ");
            // tmux's -e output is one stream: a rendition set on one row carries into the next.
            StringBuilder replay = new StringBuilder("\033[0m");
            String[] styledRows = styled.split("\n", -1);
            for (int r = 0; r < ROWS && r < styledRows.length; r++) {
                replay.append("\033[").append(r + 1).append(";1H").append(styledRows[r]);
            }
            return new Screen(rows(text), replay.toString(), Integer.parseInt(cursor[0]), Integer.parseInt(cursor[1]));
        } finally {
            try {
                tmux(sock, "kill-server");
            } catch (AssertionError ignored) {
                // already gone
            }
        }
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

    /** Exactly ROWS rows, each without trailing blanks. */
    static List<String> rows(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (out.size() < ROWS) {
                out.add(line.stripTrailing());
            }
        }
        while (out.size() < ROWS) {
            out.add("");
        }
        return out;
    }
}

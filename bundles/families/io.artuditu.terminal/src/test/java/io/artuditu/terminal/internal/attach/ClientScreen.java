package io.artuditu.terminal.internal.attach;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.terminal.internal.attach.FrameEncoder.Frame;
import io.artuditu.vt.Style;
import io.artuditu.vt.Terminal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a client following the protocol shows: applies frame lines to a grid, advancing by
 * each grapheme's display width (measured with the emulator, as a client would with
 * wcwidth). A cell holds its grapheme ("" for the right half of a wide character) and its
 * attributes as the JSON the frame gave.
 */
final class ClientScreen {
    static final ObjectMapper M = new ObjectMapper();
    final int cols;
    final int rows;
    final String[][] ch;
    final String[][] attrs;
    int[] cursor;
    boolean wantsMouse;
    String shape;
    int frames;
    int fullFrames;

    ClientScreen(int cols, int rows) {
        this.cols = cols;
        this.rows = rows;
        ch = new String[rows][cols];
        attrs = new String[rows][cols];
        clear();
    }

    private void clear() {
        for (int r = 0; r < rows; r++) {
            Arrays.fill(ch[r], " ");
            Arrays.fill(attrs[r], "{}");
        }
    }

    void apply(Frame f) {
        apply(line(f));
    }

    static JsonNode line(Frame f) {
        try {
            return M.readTree(new String(ServerLines.frame(f), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Applies one {@code {"frame":…}} line. */
    void apply(JsonNode line) {
        JsonNode f = line.get("frame");
        frames++;
        if (f.get("full").asBoolean()) {
            fullFrames++;
            clear();
        }
        for (JsonNode run : f.get("cells")) {
            int x = run.get("x").asInt();
            int y = run.get("y").asInt();
            for (JsonNode cell : run.get("cells")) {
                String g = cell.get("ch").asText();
                int w = width(g);
                ObjectNode a = ((ObjectNode) cell).deepCopy();
                a.remove("ch");
                if (y >= rows || x >= cols) {
                    x += w; // the pane is bigger than this client (another client resized it)
                    continue;
                }
                ch[y][x] = g;
                attrs[y][x] = a.toString();
                if (w == 2 && x + 1 < cols) {
                    ch[y][x + 1] = "";
                    attrs[y][x + 1] = a.toString();
                }
                x += w;
            }
        }
        JsonNode c = f.get("cursor");
        cursor = c.isNull() ? null : new int[] {c.get(0).asInt(), c.get(1).asInt()};
        wantsMouse = f.path("wants_mouse").asBoolean(false);
        shape = f.path("cursor_shape").asText(null);
    }

    /** Display width as a client measures it. */
    static int width(String g) {
        Terminal t = Terminal.create(4, 1);
        t.feed(g.getBytes(StandardCharsets.UTF_8));
        return t.cursorCol();
    }

    String row(int r) {
        StringBuilder sb = new StringBuilder();
        for (String s : ch[r]) {
            sb.append(s);
        }
        return sb.toString().stripTrailing();
    }

    String text() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            sb.append(row(r)).append('\n');
        }
        return sb.toString();
    }

    boolean shows(String s) {
        return text().contains(s);
    }

    /** The attributes a cell of this style and underline colour must carry, computed independently of the encoder. */
    static String expectedAttrs(long style, int underlineColor) {
        ObjectNode a = M.createObjectNode();
        color(a, "fg", Style.fg(style));
        color(a, "bg", Style.bg(style));
        color(a, "underline_color", underlineColor);
        ObjectNode mods = M.createObjectNode();
        if (Style.has(style, Style.BOLD)) {
            mods.put("bold", true);
        }
        if (Style.has(style, Style.DIM)) {
            mods.put("dim", true);
        }
        if (Style.has(style, Style.ITALIC)) {
            mods.put("italic", true);
        }
        if (Style.underline(style) != 0) {
            mods.put("underline", true);
        }
        if (Style.has(style, Style.REVERSE)) {
            mods.put("reverse", true);
        }
        if (Style.has(style, Style.STRIKE)) {
            mods.put("crossed_out", true);
        }
        if (Style.has(style, Style.OVERLINE)) {
            mods.put("overline", true);
        }
        if (mods.size() > 0) {
            a.set("mods", mods);
        }
        return a.toString();
    }

    private static void color(ObjectNode a, String field, int color) {
        int v = Style.colorValue(color);
        if (Style.colorKind(color) == Style.COLOR_INDEXED) {
            a.putObject(field).put("indexed", v);
        } else if (Style.colorKind(color) == Style.COLOR_RGB) {
            a.putObject(field).putArray("rgb").add(v >>> 16).add((v >>> 8) & 0xFF).add(v & 0xFF);
        }
    }

    /** Null when this screen shows exactly what {@code term} shows (text, widths, renditions), else the first difference. */
    String differenceFrom(Terminal term) {
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                String g = term.grapheme(r, c);
                String want = expectedAttrs(term.style(r, c), term.underlineColor(r, c));
                if (!g.equals(ch[r][c]) || (!g.isEmpty() && !want.equals(attrs[r][c]))) {
                    return "cell (" + c + "," + r + "): client has '" + ch[r][c] + "' " + attrs[r][c] + ", terminal '"
                            + g + "' " + want + "\nclient row:   " + row(r) + "\nterminal row: " + term.rowText(r, false);
                }
            }
        }
        return null;
    }
}

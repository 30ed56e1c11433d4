package io.artuditu.tui;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.artuditu.vt.Style;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads an {@code attach.pane} frame line with Jackson's streaming parser straight into runs
 * of graphemes and packed styles: no tree of a node per cell. A flood sends a full frame of
 * tens of thousands of cells up to sixty times a second, so this is the TUI's hottest code.
 */
final class FrameReader {
    /** One run: cells from (x, y) on, in order; {@code ul} their underline colours, null when none has one. */
    record Run(int x, int y, String[] ch, long[] st, int[] ul) {
    }

    /** A decoded frame; cursorX is -1 when the cursor is hidden. */
    record Frame(boolean full, List<Run> runs, int cursorX, int cursorY, int cursorShape, boolean wantsMouse) {
    }

    private FrameReader() {
    }

    /** The frame of a line {@code {"frame":{…}}}, or null when the line is something else. */
    static Frame read(String line) throws IOException {
        if (!line.startsWith("{\"frame\":")) {
            return null;
        }
        try (JsonParser p = JsonUhp.JSON.getFactory().createParser(line)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            if (p.nextToken() != JsonToken.FIELD_NAME || !"frame".equals(p.currentName())) {
                return null;
            }
            expect(p.nextToken(), JsonToken.START_OBJECT);
            boolean full = false;
            boolean mouse = false;
            int cx = -1;
            int cy = -1;
            int shape = 2;
            List<Run> runs = List.of();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                switch (f) {
                    case "full" -> full = v == JsonToken.VALUE_TRUE;
                    case "wants_mouse" -> mouse = v == JsonToken.VALUE_TRUE;
                    case "cursor_shape" -> {
                        String s = p.getText();
                        shape = "bar".equals(s) ? 6 : "underline".equals(s) ? 4 : 2;
                    }
                    case "cursor" -> {
                        if (v == JsonToken.START_ARRAY) {
                            p.nextToken();
                            cx = p.getIntValue();
                            p.nextToken();
                            cy = p.getIntValue();
                            p.nextToken(); // END_ARRAY
                        }
                    }
                    case "cells" -> runs = runs(p);
                    default -> p.skipChildren();
                }
            }
            return new Frame(full, runs, cx, cy, shape, mouse);
        }
    }

    private static List<Run> runs(JsonParser p) throws IOException {
        List<Run> runs = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            int x = 0;
            int y = 0;
            List<String> ch = new ArrayList<>();
            List<Long> st = new ArrayList<>();
            // Underline colours by cell; allocated at the first cell that has one (few runs do).
            int[] ul = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                switch (f) {
                    case "x" -> x = p.getIntValue();
                    case "y" -> y = p.getIntValue();
                    case "cells" -> {
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            int color = cell(p, ch, st);
                            if (color != 0 || ul != null) {
                                int i = ch.size() - 1;
                                if (ul == null) {
                                    ul = new int[Math.max(16, i + 1)];
                                } else if (i >= ul.length) {
                                    ul = Arrays.copyOf(ul, ul.length * 2);
                                }
                                ul[i] = color;
                            }
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            long[] s = new long[st.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = st.get(i);
            }
            runs.add(new Run(x, y, ch.toArray(new String[0]), s, ul == null ? null : Arrays.copyOf(ul, s.length)));
        }
        return runs;
    }

    /** Adds one cell's grapheme and rendition; returns its underline colour (0 for none). */
    private static int cell(JsonParser p, List<String> ch, List<Long> st) throws IOException {
        String g = " ";
        long s = Style.DEFAULT;
        int ul = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "ch" -> g = p.getText();
                case "fg" -> s = Style.withFg(s, color(p));
                case "bg" -> s = Style.withBg(s, color(p));
                case "underline_color" -> ul = color(p);
                case "mods" -> s |= mods(p);
                default -> p.skipChildren();
            }
        }
        ch.add(g.length() == 1 && g.charAt(0) == ' ' ? Canvas.BLANK : g);
        st.add(s);
        return ul;
    }

    private static int color(JsonParser p) throws IOException {
        int c = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken v = p.nextToken();
            if (f.equals("indexed")) {
                c = Style.indexed(p.getIntValue());
            } else if (f.equals("rgb") && v == JsonToken.START_ARRAY) {
                p.nextToken();
                int r = p.getIntValue();
                p.nextToken();
                int g = p.getIntValue();
                p.nextToken();
                int b = p.getIntValue();
                p.nextToken(); // END_ARRAY
                c = Style.rgb(r, g, b);
            } else {
                p.skipChildren();
            }
        }
        return c;
    }

    private static long mods(JsonParser p) throws IOException {
        long s = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            boolean on = p.nextToken() == JsonToken.VALUE_TRUE;
            if (!on) {
                continue;
            }
            switch (f) {
                case "bold" -> s |= Style.BOLD;
                case "dim" -> s |= Style.DIM;
                case "italic" -> s |= Style.ITALIC;
                case "underline" -> s |= 1L << Style.UNDERLINE_SHIFT;
                case "reverse" -> s |= Style.REVERSE;
                case "crossed_out" -> s |= Style.STRIKE;
                case "overline" -> s |= Style.OVERLINE;
                default -> { }
            }
        }
        return s;
    }

    private static void expect(JsonToken got, JsonToken want) throws IOException {
        if (got != want) {
            throw new IOException("a frame line that is not a JSON object: " + got);
        }
    }
}

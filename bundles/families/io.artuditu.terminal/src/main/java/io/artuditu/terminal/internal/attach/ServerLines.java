package io.artuditu.terminal.internal.attach;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.artuditu.terminal.internal.attach.FrameEncoder.Frame;
import io.artuditu.terminal.internal.attach.FrameEncoder.Run;
import io.artuditu.vt.Style;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines an attach stream sends, each one JSON value and a newline, in the shapes of
 * the client protocol: {@code {"frame":…}}, {@code "ok"}, {@code {"error":…}},
 * {@code "bell"}, {@code "read_clipboard_image"}, {@code {"file_put":…}}, {@code {"set_clipboard":…}},
 * {@code {"detached":{"reason":…}}}.
 */
final class ServerLines {
    static final byte[] OK = "\"ok\"\n".getBytes(StandardCharsets.UTF_8);
    static final byte[] BELL = "\"bell\"\n".getBytes(StandardCharsets.UTF_8);
    static final byte[] READ_CLIPBOARD_IMAGE = "\"read_clipboard_image\"\n".getBytes(StandardCharsets.UTF_8);

    /** Why a stream ended, as the {@code detached} line names it. */
    enum Reason {
        DETACHED("detached"), PANE_CLOSED("pane closed"), SERVER_SHUTTING_DOWN("server shutting down");

        final String reason;

        Reason(String reason) {
            this.reason = reason;
        }
    }

    private static final JsonFactory JSON = new JsonFactory();

    private ServerLines() {
    }

    static byte[] error(String message) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("error", message);
            g.writeEndObject();
        });
    }

    static byte[] setClipboard(String text) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("set_clipboard", text);
            g.writeEndObject();
        });
    }

    static byte[] filePut(String path) {
        return write(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("file_put");
            g.writeStringField("path", path);
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    static byte[] detached(Reason why) {
        return write(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("detached");
            g.writeStringField("reason", why.reason);
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /**
     * The {@code {"frame":…}} line, written as bytes directly: a full 200×50 frame is 10,000
     * cell objects, and a {@link JsonGenerator} call per field made encoding the larger part
     * of an attached client's writer thread. The bytes are exactly what the generator wrote
     * (same field order, no spaces, the default colour and false flags left out, strings
     * escaped as the generator escapes them); {@code ServerLinesTest} compares the two on
     * random frames. A cell's colours and flags are encoded once per run of equal renditions
     * and underline colours.
     */
    static byte[] frame(Frame f) {
        Bytes b = new Bytes(256 + 16 * f.runs().stream().mapToInt(r -> r.ch().length).sum());
        b.ascii("{\"frame\":{\"full\":").ascii(f.full() ? "true" : "false").ascii(",\"cells\":[");
        byte[] styleBytes = null;
        long lastStyle = 0;
        int lastColor = 0;
        boolean firstRun = true;
        for (Run run : f.runs()) {
            if (!firstRun) {
                b.put(',');
            }
            firstRun = false;
            b.ascii("{\"x\":").number(run.x()).ascii(",\"y\":").number(run.y()).ascii(",\"cells\":[");
            String[] ch = run.ch();
            long[] style = run.style();
            for (int i = 0; i < ch.length; i++) {
                if (i > 0) {
                    b.put(',');
                }
                b.ascii("{\"ch\":");
                b.string(ch[i]);
                int color = run.underlineColor(i);
                if (styleBytes == null || style[i] != lastStyle || color != lastColor) {
                    lastStyle = style[i];
                    lastColor = color;
                    styleBytes = styleFields(lastStyle, lastColor);
                }
                b.bytes(styleBytes);
                b.put('}');
            }
            b.ascii("]}");
        }
        b.put(']');
        if (f.cursor() == null) {
            b.ascii(",\"cursor\":null");
        } else {
            b.ascii(",\"cursor\":[").number(f.cursor()[0]).put(',').number(f.cursor()[1]).put(']');
        }
        if (f.shape() != null) {
            b.ascii(",\"cursor_shape\":").string(f.shape());
        }
        if (f.wantsMouse()) {
            b.ascii(",\"wants_mouse\":true");
        }
        b.ascii("}}\n");
        return b.toArray();
    }

    /**
     * What follows a cell's {@code "ch"} for rendition {@code style} and {@code underlineColor}:
     * its colours and flags, each with a leading comma.
     */
    private static byte[] styleFields(long style, int underlineColor) {
        Bytes b = new Bytes(128);
        color(b, "fg", Style.fg(style));
        color(b, "bg", Style.bg(style));
        color(b, "underline_color", underlineColor);
        boolean bold = Style.has(style, Style.BOLD);
        boolean dim = Style.has(style, Style.DIM);
        boolean italic = Style.has(style, Style.ITALIC);
        boolean underline = Style.underline(style) != 0;
        boolean reverse = Style.has(style, Style.REVERSE);
        boolean crossed = Style.has(style, Style.STRIKE);
        boolean overline = Style.has(style, Style.OVERLINE);
        if (bold || dim || italic || underline || reverse || crossed || overline) {
            b.ascii(",\"mods\":{");
            int before = b.length();
            flag(b, before, "bold", bold);
            flag(b, before, "dim", dim);
            flag(b, before, "italic", italic);
            flag(b, before, "underline", underline);
            flag(b, before, "reverse", reverse);
            flag(b, before, "crossed_out", crossed);
            flag(b, before, "overline", overline);
            b.put('}');
        }
        return b.toArray();
    }

    private static void flag(Bytes b, int objectStart, String name, boolean on) {
        if (on) {
            if (b.length() > objectStart) {
                b.put(',');
            }
            b.put('"').ascii(name).ascii("\":true");
        }
    }

    private static void color(Bytes b, String field, int color) {
        int v = Style.colorValue(color);
        switch (Style.colorKind(color)) {
            case Style.COLOR_INDEXED -> b.ascii(",\"").ascii(field).ascii("\":{\"indexed\":").number(v).put('}');
            case Style.COLOR_RGB -> b.ascii(",\"").ascii(field).ascii("\":{\"rgb\":[").number(v >>> 16).put(',')
                    .number((v >>> 8) & 0xFF).put(',').number(v & 0xFF).ascii("]}");
            default -> {
                // the default colour is left out
            }
        }
    }

    /** A growable byte buffer for one line; bounded by the frame it holds (at most one screen of cells). */
    private static final class Bytes {
        private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
        private byte[] a;
        private int n;

        Bytes(int capacity) {
            a = new byte[Math.max(16, capacity)];
        }

        int length() {
            return n;
        }

        private void room(int more) {
            if (n + more > a.length) {
                a = Arrays.copyOf(a, Math.max(a.length * 2, n + more));
            }
        }

        Bytes put(char c) {
            room(1);
            a[n++] = (byte) c;
            return this;
        }

        /** {@code s} is ASCII with nothing to escape (field names, literals). */
        Bytes ascii(String s) {
            int len = s.length();
            room(len);
            for (int i = 0; i < len; i++) {
                a[n++] = (byte) s.charAt(i);
            }
            return this;
        }

        Bytes bytes(byte[] bs) {
            room(bs.length);
            System.arraycopy(bs, 0, a, n, bs.length);
            n += bs.length;
            return this;
        }

        Bytes number(int v) {
            if (v >= 0 && v < 10) {
                return put((char) ('0' + v));
            }
            return ascii(Integer.toString(v));
        }

        /**
         * A JSON string escaped as Jackson's generator escapes it with its defaults: {@code "}
         * and backslash and the controls below 0x20 escaped (backslash and b, t, n, f or r for
         * those five, else backslash, u and four upper-case hex digits), each UTF-16 surrogate
         * in that hex form too (the generator writes a character outside the BMP so), anything
         * else as UTF-8.
         */
        Bytes string(String s) {
            int len = s.length();
            room(len * 6 + 2);
            a[n++] = '"';
            for (int i = 0; i < len; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    if (c >= 0x20 && c != '"' && c != '\\') {
                        a[n++] = (byte) c;
                    } else {
                        escape(c);
                    }
                } else if (c < 0x800) {
                    a[n++] = (byte) (0xC0 | (c >> 6));
                    a[n++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isSurrogate(c)) {
                    unicodeEscape(c);
                } else {
                    a[n++] = (byte) (0xE0 | (c >> 12));
                    a[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    a[n++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            a[n++] = '"';
            return this;
        }

        private void escape(char c) {
            char shortForm = switch (c) {
                case '"' -> '"';
                case '\\' -> '\\';
                case '\b' -> 'b';
                case '\t' -> 't';
                case '\n' -> 'n';
                case '\f' -> 'f';
                case '\r' -> 'r';
                default -> 0;
            };
            if (shortForm != 0) {
                a[n++] = '\\';
                a[n++] = (byte) shortForm;
            } else {
                unicodeEscape(c);
            }
        }

        private void unicodeEscape(char c) {
            a[n++] = '\\';
            a[n++] = 'u';
            a[n++] = HEX[(c >> 12) & 0xF];
            a[n++] = HEX[(c >> 8) & 0xF];
            a[n++] = HEX[(c >> 4) & 0xF];
            a[n++] = HEX[c & 0xF];
        }

        byte[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        }
        out.write('\n');
        return out.toByteArray();
    }
}

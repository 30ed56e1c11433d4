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

    static byte[] frame(Frame f) {
        return write(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("frame");
            g.writeBooleanField("full", f.full());
            g.writeArrayFieldStart("cells");
            for (Run run : f.runs()) {
                g.writeStartObject();
                g.writeNumberField("x", run.x());
                g.writeNumberField("y", run.y());
                g.writeArrayFieldStart("cells");
                for (int i = 0; i < run.ch().length; i++) {
                    cell(g, run.ch()[i], run.style()[i]);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            if (f.cursor() == null) {
                g.writeNullField("cursor");
            } else {
                g.writeArrayFieldStart("cursor");
                g.writeNumber(f.cursor()[0]);
                g.writeNumber(f.cursor()[1]);
                g.writeEndArray();
            }
            if (f.shape() != null) {
                g.writeStringField("cursor_shape", f.shape());
            }
            if (f.wantsMouse()) {
                g.writeBooleanField("wants_mouse", true);
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    private static void cell(JsonGenerator g, String ch, long style) throws IOException {
        g.writeStartObject();
        g.writeStringField("ch", ch);
        color(g, "fg", Style.fg(style));
        color(g, "bg", Style.bg(style));
        boolean bold = Style.has(style, Style.BOLD);
        boolean dim = Style.has(style, Style.DIM);
        boolean italic = Style.has(style, Style.ITALIC);
        boolean underline = Style.underline(style) != 0;
        boolean reverse = Style.has(style, Style.REVERSE);
        boolean crossed = Style.has(style, Style.STRIKE);
        if (bold || dim || italic || underline || reverse || crossed) {
            g.writeObjectFieldStart("mods");
            flag(g, "bold", bold);
            flag(g, "dim", dim);
            flag(g, "italic", italic);
            flag(g, "underline", underline);
            flag(g, "reverse", reverse);
            flag(g, "crossed_out", crossed);
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void flag(JsonGenerator g, String name, boolean on) throws IOException {
        if (on) {
            g.writeBooleanField(name, true);
        }
    }

    private static void color(JsonGenerator g, String field, int color) throws IOException {
        int v = Style.colorValue(color);
        switch (Style.colorKind(color)) {
            case Style.COLOR_INDEXED -> {
                g.writeObjectFieldStart(field);
                g.writeNumberField("indexed", v);
                g.writeEndObject();
            }
            case Style.COLOR_RGB -> {
                g.writeObjectFieldStart(field);
                g.writeArrayFieldStart("rgb");
                g.writeNumber(v >>> 16);
                g.writeNumber((v >>> 8) & 0xFF);
                g.writeNumber(v & 0xFF);
                g.writeEndArray();
                g.writeEndObject();
            }
            default -> {
                // the default colour is left out
            }
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

package io.artuditu.terminal.internal.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.artuditu.terminal.internal.attach.FrameEncoder.Frame;
import io.artuditu.terminal.internal.attach.FrameEncoder.Run;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Style;
import io.artuditu.vt.Terminal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ServerLines#frame} writes its bytes directly; they must be exactly what writing the
 * same frame field by field through Jackson's {@link JsonGenerator} gives (the reference
 * below, the encoder as it was written first), for every kind of cell the protocol has.
 */
class ServerLinesTest {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String[] CHARS = {"", " ", "a", "Z", "~", "\"", "\\", "/", "\u0000", "\u0007", "\b", "\t",
        "\n", "\f", "\r", "\u001b", "\u001f", "\u007f", "\u0080", "é", "e\u0301", "日", "→", "\u2028", "\uFFFD",
        "😀", "👍🏽", "a\u0300\u0301\u0302", "<>&'"};

    @Test
    void randomFramesAreByteForByteWhatJacksonWrites() throws IOException {
        Random rnd = new Random(16);
        for (int k = 0; k < 2000; k++) {
            List<Run> runs = new ArrayList<>();
            int nRuns = rnd.nextInt(5);
            for (int r = 0; r < nRuns; r++) {
                int n = 1 + rnd.nextInt(12);
                String[] ch = new String[n];
                long[] st = new long[n];
                int[] ul = rnd.nextInt(3) == 0 ? new int[n] : null;
                long style = randomStyle(rnd);
                int color = randomColor(rnd);
                for (int i = 0; i < n; i++) {
                    ch[i] = CHARS[rnd.nextInt(CHARS.length)];
                    if (rnd.nextInt(3) == 0) {
                        style = randomStyle(rnd);
                    }
                    if (rnd.nextInt(3) == 0) {
                        color = randomColor(rnd);
                    }
                    st[i] = style;
                    if (ul != null) {
                        ul[i] = color;
                    }
                }
                runs.add(new Run(rnd.nextInt(300), rnd.nextInt(100), ch, st, ul));
            }
            int[] cursor = rnd.nextBoolean() ? null : new int[] {rnd.nextInt(4096), rnd.nextInt(4096)};
            String shape = new String[] {null, "underline", "bar"}[rnd.nextInt(3)];
            Frame f = new Frame(rnd.nextBoolean(), runs, cursor, shape, rnd.nextBoolean());
            assertEquals(reference(f), new String(ServerLines.frame(f), StandardCharsets.UTF_8), "frame " + k);
        }
    }

    @Test
    void aRealScreenEncodesAsJacksonWould() throws IOException {
        Terminal t = Terminal.create(80, 10, new Limits(0, 4096));
        t.feed(("\033[1;31mred\033[0m plain \033[38;5;200;48;2;1;2;3mrgb\033[0m \033[4:3;3;7;9;2mmods\033[0m "
                + "日本 e\u0301 \"q\" \\ tab\there\r\n\033[7mreverse\033[0m \033[53mover\033[4;58;5;196mcolour"
                + "\033[58:2::1:2:3mrgb\033[24mplain\033[0m").getBytes(StandardCharsets.UTF_8));
        Frame f = new FrameEncoder().next(t, 0, true);
        assertEquals(reference(f), new String(ServerLines.frame(f), StandardCharsets.UTF_8));
    }

    /** An underline colour: mostly the default, else indexed, RGB or a kind the protocol does not know. */
    private static int randomColor(Random rnd) {
        return switch (rnd.nextInt(6)) {
            case 1, 2 -> Style.indexed(rnd.nextInt(256));
            case 3 -> Style.rgb(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256));
            case 4 -> (3 << 24) | rnd.nextInt(1 << 24);
            default -> 0;
        };
    }

    private static long randomStyle(Random rnd) {
        long s = 0;
        switch (rnd.nextInt(3)) {
            case 1 -> s = Style.withFg(s, Style.indexed(rnd.nextInt(256)));
            case 2 -> s = Style.withFg(s, Style.rgb(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256)));
            default -> { }
        }
        switch (rnd.nextInt(3)) {
            case 1 -> s = Style.withBg(s, Style.indexed(rnd.nextInt(256)));
            case 2 -> s = Style.withBg(s, Style.rgb(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256)));
            default -> { }
        }
        long[] flags = {Style.BOLD, Style.DIM, Style.ITALIC, Style.REVERSE, Style.STRIKE, Style.BLINK, Style.HIDDEN,
            Style.OVERLINE};
        for (long flag : flags) {
            if (rnd.nextInt(4) == 0) {
                s |= flag;
            }
        }
        if (rnd.nextInt(10) == 0) {
            s = Style.withFg(s, (3 << 24) | rnd.nextInt(1 << 24)); // a kind the protocol does not know: left out
        }
        if (rnd.nextInt(4) == 0) {
            s |= (long) (1 + rnd.nextInt(5)) << Style.UNDERLINE_SHIFT;
        }
        return s;
    }

    /** The frame line as the generator wrote it before {@link ServerLines#frame} wrote bytes. */
    private static String reference(Frame f) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
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
                    cell(g, run.ch()[i], run.style()[i], run.underlineColor(i));
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
        }
        out.write('\n');
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void cell(JsonGenerator g, String ch, long style, int underlineColor) throws IOException {
        g.writeStartObject();
        g.writeStringField("ch", ch);
        color(g, "fg", Style.fg(style));
        color(g, "bg", Style.bg(style));
        color(g, "underline_color", underlineColor);
        boolean bold = Style.has(style, Style.BOLD);
        boolean dim = Style.has(style, Style.DIM);
        boolean italic = Style.has(style, Style.ITALIC);
        boolean underline = Style.underline(style) != 0;
        boolean reverse = Style.has(style, Style.REVERSE);
        boolean crossed = Style.has(style, Style.STRIKE);
        boolean overline = Style.has(style, Style.OVERLINE);
        if (bold || dim || italic || underline || reverse || crossed || overline) {
            g.writeObjectFieldStart("mods");
            if (bold) {
                g.writeBooleanField("bold", true);
            }
            if (dim) {
                g.writeBooleanField("dim", true);
            }
            if (italic) {
                g.writeBooleanField("italic", true);
            }
            if (underline) {
                g.writeBooleanField("underline", true);
            }
            if (reverse) {
                g.writeBooleanField("reverse", true);
            }
            if (crossed) {
                g.writeBooleanField("crossed_out", true);
            }
            if (overline) {
                g.writeBooleanField("overline", true);
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void color(JsonGenerator g, String field, int color) throws IOException {
        int v = Style.colorValue(color);
        if (Style.colorKind(color) == Style.COLOR_INDEXED) {
            g.writeObjectFieldStart(field);
            g.writeNumberField("indexed", v);
            g.writeEndObject();
        } else if (Style.colorKind(color) == Style.COLOR_RGB) {
            g.writeObjectFieldStart(field);
            g.writeArrayFieldStart("rgb");
            g.writeNumber(v >>> 16);
            g.writeNumber((v >>> 8) & 0xFF);
            g.writeNumber(v & 0xFF);
            g.writeEndArray();
            g.writeEndObject();
        }
    }
}

package io.artuditu.terminal.internal.attach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.terminal.internal.attach.FrameEncoder.Frame;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The frame encoder on a real emulator, read as a client reads frames. */
class FrameEncoderTest {
    static final JsonSchema SERVER_LINE = JsonSchema.compile(
            FamilyContract.load(AttachFamily.class, "protocol/uhp/v1/attach.json").document().at("/methods/attach.pane/stream/server_line"));

    private final FrameEncoder enc = new FrameEncoder();

    static Terminal term(int cols, int rows, String output) {
        Terminal t = Terminal.create(cols, rows);
        feed(t, output);
        return t;
    }

    static void feed(Terminal t, String s) {
        t.feed(s.getBytes(StandardCharsets.UTF_8));
    }

    /** The frame as its line says it: valid against the contract's stream schema. */
    static JsonNode json(Frame f) {
        JsonNode line = ClientScreen.line(f);
        assertEquals("", SERVER_LINE.validate(line, "line").map(Object::toString).orElse(""), line.toString());
        return line.get("frame");
    }

    @Test
    void aFullFrameCarriesTextColoursAndModsAndLeavesDefaultsOut() {
        Terminal t = term(20, 3, "$ \033[1;32mv\033[0m \033[38;2;1;2;3;48;5;200mx\033[0m\r\n"
                + "\033[2;3;4;7;9my\033[0m \033[91mb\033[0m");
        Frame f = enc.next(t, 0, true);
        JsonNode frame = json(f);
        assertTrue(frame.get("full").asBoolean());
        JsonNode row0 = frame.get("cells").get(0);
        assertEquals(0, row0.get("x").asInt());
        assertEquals(0, row0.get("y").asInt());
        JsonNode cells = row0.get("cells");
        assertEquals("{\"ch\":\"$\"}", cells.get(0).toString());
        assertEquals("{\"ch\":\" \"}", cells.get(1).toString());
        assertEquals("{\"ch\":\"v\",\"fg\":{\"indexed\":2},\"mods\":{\"bold\":true}}", cells.get(2).toString());
        assertEquals("{\"ch\":\"x\",\"fg\":{\"rgb\":[1,2,3]},\"bg\":{\"indexed\":200}}", cells.get(4).toString());
        assertEquals(5, cells.size(), "the blank rest of the row is not sent in a full frame: " + row0);
        JsonNode row1 = frame.get("cells").get(1);
        assertEquals(1, row1.get("y").asInt());
        assertEquals("{\"ch\":\"y\",\"mods\":{\"dim\":true,\"italic\":true,\"underline\":true,\"reverse\":true,"
                + "\"crossed_out\":true}}", row1.get("cells").get(0).toString());
        assertEquals("{\"ch\":\"b\",\"fg\":{\"indexed\":9}}", row1.get("cells").get(2).toString());
        assertEquals(2, frame.get("cells").size(), "the blank third row is not sent");
        assertEquals("[3,1]", frame.get("cursor").toString());
        assertFalse(frame.has("cursor_shape"), "block is the default and left out");
        assertFalse(frame.has("wants_mouse"));
    }

    @Test
    void overlineAndTheUnderlineColourAreSentWithTheCell() {
        Terminal t = term(20, 2, "\033[53mo\033[0m \033[4;58;5;196mu\033[58:2::1:2:3;53mv\033[0m \033[58;5;9mw\033[0m");
        JsonNode cells = json(enc.next(t, 0, true)).get("cells").get(0).get("cells");
        assertEquals("{\"ch\":\"o\",\"mods\":{\"overline\":true}}", cells.get(0).toString());
        assertEquals("{\"ch\":\"u\",\"underline_color\":{\"indexed\":196},\"mods\":{\"underline\":true}}",
                cells.get(2).toString());
        assertEquals("{\"ch\":\"v\",\"underline_color\":{\"rgb\":[1,2,3]},\"mods\":{\"underline\":true,"
                + "\"overline\":true}}", cells.get(3).toString());
        assertEquals("{\"ch\":\"w\",\"underline_color\":{\"indexed\":9}}", cells.get(5).toString(),
                "the colour is the cell's whether or not it is underlined");
    }

    @Test
    void aCellWhoseUnderlineColourAloneChangedIsSentAgain() {
        Terminal t = term(20, 2, "\033[4;58;5;196mabc\033[0m");
        ClientScreen client = new ClientScreen(20, 2);
        client.apply(enc.next(t, 0, true));
        feed(t, "\033[1;2H\033[4;58;5;10mb\033[59;53mc\033[0m\033[1;4H");
        Frame d = enc.next(t, 0, true);
        assertEquals("[{\"x\":1,\"y\":0,\"cells\":[{\"ch\":\"b\",\"underline_color\":{\"indexed\":10},"
                + "\"mods\":{\"underline\":true}},{\"ch\":\"c\",\"mods\":{\"underline\":true,\"overline\":true}}]}]",
                json(d).get("cells").toString());
        client.apply(d);
        assertNull(client.differenceFrom(t));
    }

    @Test
    void aScrolledBackViewKeepsOverlineAndTheUnderlineColour() {
        Terminal t = Terminal.create(12, 2);
        feed(t, "\033[4;53;58:2::1:2:3mold\033[0m\r\nx\r\ny\r\nz");
        ClientScreen client = new ClientScreen(12, 2);
        client.apply(enc.next(t, 2, true));
        assertEquals("old", client.row(0));
        assertEquals("{\"underline_color\":{\"rgb\":[1,2,3]},\"mods\":{\"underline\":true,\"overline\":true}}",
                client.attrs[0][0]);
    }

    @Test
    void aWideCharacterIsOneCellAndClientsAdvanceByItsWidth() {
        Terminal t = term(20, 2, "CJK:日本語!");
        Frame f = enc.next(t, 0, true);
        JsonNode cells = json(f).get("cells").get(0).get("cells");
        List<String> chars = new ArrayList<>();
        cells.forEach(c -> chars.add(c.get("ch").asText()));
        assertEquals(List.of("C", "J", "K", ":", "日", "本", "語", "!"), chars, "seven graphemes over ten columns, then !");
        ClientScreen client = new ClientScreen(20, 2);
        client.apply(f);
        assertEquals("CJK:日本語!", client.row(0));
        assertNull(client.differenceFrom(t));
        assertEquals("[11,0]", json(f).get("cursor").toString());

        // Writing over the right half of 語 breaks it: the run starts at its left half, now blank.
        feed(t, "\033[1;10HX");
        Frame d = enc.next(t, 0, true);
        JsonNode run = json(d).get("cells").get(0);
        assertEquals("{\"x\":8,\"y\":0,\"cells\":[{\"ch\":\" \"},{\"ch\":\"X\"}]}", run.toString());
        client.apply(d);
        assertNull(client.differenceFrom(t));
    }

    @Test
    void aDiffCarriesOnlyTheChangedRuns() {
        Terminal t = term(40, 5, "line one\r\nline two\r\nline three");
        ClientScreen client = new ClientScreen(40, 5);
        client.apply(enc.next(t, 0, true));
        assertNull(enc.next(t, 0, true), "nothing changed: no frame");

        feed(t, "\033[2;6HTWO\033[4;1Hfour");
        Frame d = enc.next(t, 0, true);
        JsonNode frame = json(d);
        assertFalse(frame.get("full").asBoolean());
        assertEquals("[{\"x\":5,\"y\":1,\"cells\":[{\"ch\":\"T\"},{\"ch\":\"W\"},{\"ch\":\"O\"}]},"
                + "{\"x\":0,\"y\":3,\"cells\":[{\"ch\":\"f\"},{\"ch\":\"o\"},{\"ch\":\"u\"},{\"ch\":\"r\"}]}]",
                frame.get("cells").toString());
        client.apply(d);
        assertNull(client.differenceFrom(t));

        // Two changes far apart on one row are two runs; close ones are one.
        feed(t, "\033[1;1HL\033[1;30HZ");
        JsonNode two = json(enc.next(t, 0, true)).get("cells");
        assertEquals(2, two.size(), two.toString());
        feed(t, "\033[1;1Hx\033[1;4Hy");
        JsonNode one = json(enc.next(t, 0, true)).get("cells");
        assertEquals(1, one.size(), one.toString());
        assertEquals(4, one.get(0).get("cells").size(), "a gap of two unchanged cells is sent along: " + one);
    }

    @Test
    void theCursorIsNullWhenHiddenOrTheProcessExited() {
        Terminal t = term(10, 3, "ab");
        assertArrayEquals(new int[] {2, 0}, enc.next(t, 0, true).cursor());
        feed(t, "\033[?25l");
        Frame hidden = enc.next(t, 0, true);
        assertTrue(json(hidden).get("cursor").isNull());
        assertTrue(hidden.runs().isEmpty(), "only the cursor changed");
        feed(t, "\033[?25h");
        assertArrayEquals(new int[] {2, 0}, enc.next(t, 0, true).cursor());
        assertNull(enc.next(t, 0, false).cursor(), "no cursor once the process exited");
    }

    @Test
    void wantsMouseAndCursorShapeFollowTheProgram() {
        Terminal t = term(10, 3, "");
        assertFalse(enc.next(t, 0, true).wantsMouse());
        feed(t, "\033[?1000h");
        Frame on = enc.next(t, 0, true);
        assertTrue(json(on).get("wants_mouse").asBoolean());
        feed(t, "\033[5 q");
        Frame bar = enc.next(t, 0, true);
        assertEquals("bar", json(bar).get("cursor_shape").asText());
        assertTrue(json(bar).get("wants_mouse").asBoolean(), "every frame says it while it holds");
        feed(t, "\033[?1000l\033[4 q");
        JsonNode off = json(enc.next(t, 0, true));
        assertFalse(off.has("wants_mouse"), off.toString());
        assertEquals("underline", off.get("cursor_shape").asText());
    }

    @Test
    void aScrolledBackViewShowsHistoryRowsAndNoCursor() {
        Terminal t = Terminal.create(12, 4);
        for (int i = 1; i <= 20; i++) {
            feed(t, (i == 1 ? "" : "\r\n") + "\033[3" + (i % 7 + 1) + "mline " + i + "\033[0m");
        }
        ClientScreen client = new ClientScreen(12, 4);
        client.apply(enc.next(t, 0, true));
        assertEquals("line 20", client.row(3));
        Frame back = enc.next(t, 3, true);
        client.apply(back);
        assertNull(back.cursor(), "no cursor while scrolled back");
        assertEquals(List.of("line 14", "line 15", "line 16", "line 17"),
                List.of(client.row(0), client.row(1), client.row(2), client.row(3)));
        assertEquals("{\"fg\":{\"indexed\":1}}", client.attrs[0][0], "history keeps its colours (14 % 7 + 1)");
        Frame deeper = enc.next(t, 5, true);
        client.apply(deeper);
        assertEquals("line 12", client.row(0));
        assertEquals(4, deeper.runs().size());
        Frame live = enc.next(t, 0, true);
        client.apply(live);
        assertNull(client.differenceFrom(t));
        assertArrayEquals(new int[] {7, 3}, live.cursor());
    }

    @Test
    void concealedTextIsSentAsBlanksOfItsWidth() {
        Terminal t = term(10, 1, "\033[8mpw日\033[0m");
        ClientScreen client = new ClientScreen(10, 1);
        client.apply(enc.next(t, 0, true));
        assertEquals(List.of(" ", " ", "\u3000", ""), List.of(client.ch[0]).subList(0, 4));
    }

    @Test
    void aResizeIsAFullFrame() {
        Terminal t = term(10, 3, "hello");
        enc.next(t, 0, true);
        t.resize(20, 5);
        Frame f = enc.next(t, 0, true);
        assertTrue(f.full());
        ClientScreen client = new ClientScreen(20, 5);
        client.apply(f);
        assertNull(client.differenceFrom(t));
        enc.reset();
        assertTrue(enc.next(t, 0, true).full(), "reset (attach, watch) means full");
    }

    /** Random output, diffs applied in turn: the client always shows exactly the terminal. */
    @Test
    void diffsKeepAClientInStepThroughRandomOutput() {
        String[] pieces = {"a", "bc", "日本", "語", "é", "e\u0301", "😀", " ", "\r\n", "\r", "\b", "\t", "\033[K", "\033[1K",
            "\033[2J", "\033[H", "\033[3;5H", "\033[10;1H", "\033[1;31m", "\033[0m", "\033[7m", "\033[48;2;9;8;7m",
            "\033[38;5;100m", "\033[4m", "\033[2m", "\033[L", "\033[M", "\033[P", "\033[@", "\033[2S", "\033[T",
            "\033[?1049h", "\033[?1049l", "\033[3X", "\033M", "\033[5;8r", "\033[r", "xyzxyzxyzxyzxyz", "\033[53m",
            "\033[55m", "\033[58;5;9m", "\033[58:2::1:2:3m", "\033[59m"};
        Random rnd = new Random(42);
        for (int round = 0; round < 20; round++) {
            Terminal t = Terminal.create(17, 9);
            FrameEncoder e = new FrameEncoder();
            ClientScreen client = new ClientScreen(17, 9);
            client.apply(e.next(t, 0, true));
            for (int step = 0; step < 200; step++) {
                StringBuilder sb = new StringBuilder();
                for (int k = rnd.nextInt(6); k >= 0; k--) {
                    sb.append(pieces[rnd.nextInt(pieces.length)]);
                }
                feed(t, sb.toString());
                Frame f = e.next(t, 0, true);
                if (f != null) {
                    json(f);
                    client.apply(f);
                }
                String diff = client.differenceFrom(t);
                assertNull(diff, "round " + round + " step " + step + " after " + sb.toString().replace("\033", "ESC")
                        + ": " + diff);
            }
        }
    }
}

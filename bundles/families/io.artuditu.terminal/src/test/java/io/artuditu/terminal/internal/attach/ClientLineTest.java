package io.artuditu.terminal.internal.attach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.terminal.internal.attach.ClientLine.Message;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.vt.Key;
import io.artuditu.vt.Keys;
import io.artuditu.vt.MouseEvent;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ClientLineTest {
    static final JsonSchema CLIENT_LINE = JsonSchema.compile(
            FamilyContract.load(AttachFamily.class, "protocol/uhp/v1/attach.json").document().at("/methods/attach.pane/stream/client_line"));

    static Message decode(String line) {
        return ClientLine.decode(line.getBytes(StandardCharsets.UTF_8));
    }

    /** A line the contract's client_line schema accepts, decoded. */
    static Message valid(String line) throws Exception {
        assertEquals("", CLIENT_LINE.validate(ClientScreen.M.readTree(line), "line").map(Object::toString).orElse(""),
                line);
        return decode(line);
    }

    static byte[] bytes(Message m) {
        ClientLine.KeyPress k = assertInstanceOf(ClientLine.KeyPress.class, m);
        return k.key() == null ? k.text() : Keys.encode(k.key(), Terminal.create(80, 24));
    }

    @Test
    void keysBecomeTheBytesXtermSends() throws Exception {
        assertArrayEquals("x".getBytes(), bytes(valid("{\"input\":{\"key\":{\"code\":{\"char\":\"x\"}}}}")));
        assertArrayEquals(new byte[] {3}, bytes(valid("{\"input\":{\"key\":{\"code\":{\"char\":\"c\"},\"mods\":{\"ctrl\":true}}}}")));
        assertArrayEquals("\r".getBytes(), bytes(valid("{\"input\":{\"key\":{\"code\":\"enter\"}}}")));
        assertArrayEquals("\033[Z".getBytes(), bytes(valid("{\"input\":{\"key\":{\"code\":\"back_tab\"}}}")));
        assertArrayEquals("\033[1;3D".getBytes(), bytes(valid("{\"input\":{\"key\":{\"code\":\"left\",\"mods\":{\"alt\":true}}}}")));
        assertArrayEquals("\033[15~".getBytes(), bytes(valid("{\"input\":{\"key\":{\"code\":{\"f\":5}}}}")));
        assertArrayEquals("\033[6~".getBytes(), bytes(valid("{\"input\":{\"key\":{\"code\":\"page_down\"}}}")));
        assertArrayEquals("\033x".getBytes(), bytes(decode("{\"input\":{\"key\":{\"code\":{\"char\":\"x\"},\"mods\":{\"alt\":true}}}}")));
        assertArrayEquals("e\u0301".getBytes(StandardCharsets.UTF_8), bytes(decode("{\"input\":{\"key\":{\"code\":{\"char\":\"e\u0301\"}}}}")),
                "a grapheme of several code points goes as its text");
        assertArrayEquals("👍🏽".getBytes(StandardCharsets.UTF_8), bytes(decode("{\"input\":{\"key\":{\"code\":{\"char\":\"👍🏽\"}}}}")));
        assertEquals(new Key("x", false, false, true), ((ClientLine.KeyPress) decode(
                "{\"input\":{\"key\":{\"code\":{\"char\":\"x\"},\"mods\":{\"shift\":true},\"repeat\":true}}}")).key(),
                "unknown fields are ignored");
    }

    @Test
    void keysThisServerCannotSendAreRefusedNotFatal() {
        assertInstanceOf(ClientLine.Refused.class, decode("{\"input\":{\"key\":{\"code\":\"caps_lock\"}}}"));
        assertInstanceOf(ClientLine.Refused.class, decode("{\"input\":{\"key\":{\"code\":{\"f\":13}}}}"));
        assertInstanceOf(ClientLine.Refused.class, decode("{\"input\":{\"key\":{\"code\":{\"char\":\"\\u0007\"}}}}"));
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"input\":{\"key\":{}}}"));
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"input\":{\"key\":{\"code\":{\"char\":\"\"}}}}"));
    }

    @Test
    void pasteMouseAndWheel() throws Exception {
        assertEquals(new ClientLine.Paste("some\ntext"), valid("{\"input\":{\"paste\":\"some\\ntext\"}}"));
        assertEquals(new ClientLine.Wheel(true, 10, 4), valid("{\"input\":{\"scroll_up\":{\"x\":10,\"y\":4}}}"));
        assertEquals(new ClientLine.Wheel(false, 0, 0), valid("{\"input\":{\"scroll_down\":{\"x\":0,\"y\":0}}}"));
        assertEquals(new ClientLine.Mouse(MouseEvent.Action.PRESS, 1, 2), valid("{\"input\":{\"mouse_down\":{\"x\":1,\"y\":2}}}"));
        assertEquals(new ClientLine.Mouse(MouseEvent.Action.PRESS, 1, 2),
                valid("{\"input\":{\"mouse_down\":{\"x\":1,\"y\":2,\"button\":\"left\"}}}"));
        assertInstanceOf(ClientLine.Ignored.class, valid("{\"input\":{\"mouse_down\":{\"x\":1,\"y\":2,\"button\":\"right\"}}}"),
                "a right press is the client's own menu");
        assertEquals(new ClientLine.Mouse(MouseEvent.Action.RELEASE, 3, 4), valid("{\"input\":{\"mouse_up\":{\"x\":3,\"y\":4}}}"));
        assertEquals(new ClientLine.Mouse(MouseEvent.Action.DRAG, 5, 6), valid("{\"input\":{\"mouse_drag\":{\"x\":5,\"y\":6}}}"));
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"input\":{\"scroll_up\":{\"x\":-1,\"y\":4}}}"));
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"input\":{\"paste\":5}}"));
        assertInstanceOf(ClientLine.Ignored.class, decode("{\"input\":{\"focus\":true}}"));
    }

    @Test
    void resizeWatchCommandsAndDetach() throws Exception {
        assertEquals(new ClientLine.Resize(100, 30), valid("{\"resize\":{\"cols\":100,\"rows\":30}}"));
        assertInstanceOf(ClientLine.Refused.class, decode("{\"resize\":{\"cols\":1001,\"rows\":30}}"));
        assertInstanceOf(ClientLine.Refused.class, decode("{\"resize\":{\"cols\":10,\"rows\":0}}"));
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"resize\":{\"cols\":\"wide\",\"rows\":30}}"));
        assertEquals(new ClientLine.Watch("7"), valid("{\"watch\":{\"pane\":7}}"));
        assertEquals(new ClientLine.Watch("7"), valid("{\"watch\":{\"pane\":\"7\"}}"));
        assertInstanceOf(ClientLine.Refused.class, decode("{\"watch\":{\"pane\":\"seven\"}}"));
        assertInstanceOf(ClientLine.Refused.class, decode("{\"watch\":{\"pane\":0}}"));
        assertEquals(new ClientLine.ScrollPage(-1), valid("{\"command\":{\"scroll_page\":-1}}"));
        assertEquals(new ClientLine.ScrollPage(1), valid("{\"command\":{\"scroll_page\":1}}"));
        ClientLine.Refused split = assertInstanceOf(ClientLine.Refused.class,
                decode("{\"command\":{\"split_pane\":{\"dir\":\"horizontal\",\"kind\":\"git\"}}}"));
        assertTrue(split.message().contains("split_pane"), split.message());
        assertEquals(new ClientLine.PasteImage(), valid("{\"command\":\"paste_image\"}"));
        assertEquals(new ClientLine.PasteImage(), valid("{\"command\":{\"paste_image\":null}}"));
        assertEquals(new ClientLine.Detach(), valid("\"detach\""));
        assertEquals(new ClientLine.Detach(), valid("{\"detach\":null}"));
    }

    /**
     * Numbers follow the wire's rules (spec-notes.md, "Numbers"): an integer may be written
     * with a zero fraction or an exponent, -0 is 0, and a value past 64 bits is refused rather
     * than wrapped.
     */
    @Test
    void integersMayBeWrittenAsDecimalsAndNothingWraps() throws Exception {
        assertEquals(new ClientLine.Resize(100, 30), valid("{\"resize\":{\"cols\":100.0,\"rows\":3e1}}"));
        assertEquals(new ClientLine.Mouse(MouseEvent.Action.PRESS, 1, 0),
                valid("{\"input\":{\"mouse_down\":{\"x\":1.0,\"y\":-0}}}"));
        assertEquals(new ClientLine.Wheel(true, 2, 0), valid("{\"input\":{\"scroll_up\":{\"x\":2e0,\"y\":-0.0}}}"));
        assertArrayEquals(bytes(valid("{\"input\":{\"key\":{\"code\":{\"f\":2}}}}")),
                bytes(valid("{\"input\":{\"key\":{\"code\":{\"f\":2.0}}}}")));
        assertEquals(new ClientLine.Watch("7"), valid("{\"watch\":{\"pane\":7.0}}"));
        assertEquals(new ClientLine.ScrollPage(-3), valid("{\"command\":{\"scroll_page\":-3.0}}"));
        assertEquals(new ClientLine.ScrollPage(1000), valid("{\"command\":{\"scroll_page\":5000}}"));
        for (String huge : new String[] {"18446744073709551617", "-18446744073709551615", "1e30", "1e309", "-1e309"}) {
            Message m = decode("{\"command\":{\"scroll_page\":" + huge + "}}");
            assertTrue(m instanceof ClientLine.Refused || m instanceof ClientLine.Undecodable, huge + " -> " + m);
        }
        for (String bad : new String[] {"1e309", "1.5", "4294967296", "18446744073709551617", "-1e309"}) {
            for (String line : new String[] {"{\"resize\":{\"cols\":%s,\"rows\":30}}",
                "{\"input\":{\"mouse_down\":{\"x\":%s,\"y\":2}}}", "{\"input\":{\"key\":{\"code\":{\"f\":%s}}}}",
                bad.equals("4294967296") ? "{\"resize\":{\"cols\":30,\"rows\":%s}}" : "{\"watch\":{\"pane\":%s}}"}) {
                Message m = decode(String.format(line, bad));
                assertTrue(m instanceof ClientLine.Refused || m instanceof ClientLine.Undecodable,
                        String.format(line, bad) + " -> " + m);
            }
        }
    }

    @Test
    void aLineInAnotherEncodingThanUtf8IsUndecodable() {
        String line = "{\"resize\":{\"cols\":100,\"rows\":30}}";
        for (String cs : new String[] {"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE", "UTF-16"}) {
            java.nio.charset.Charset c = java.nio.charset.Charset.forName(cs);
            for (String text : new String[] {line, "\uFEFF" + line}) {
                Message m = ClientLine.decode(text.getBytes(c));
                ClientLine.Undecodable u = assertInstanceOf(ClientLine.Undecodable.class, m, cs + " " + m);
                assertTrue(u.reason().contains("not UTF-8"), cs + ": " + u.reason());
            }
        }
        Message bom = ClientLine.decode(("\uFEFF" + line).getBytes(StandardCharsets.UTF_8));
        assertInstanceOf(ClientLine.Undecodable.class, bom, "a UTF-8 byte order mark too: " + bom);
    }

    @Test
    void aNoticeIsKeptToTwoHundredCharacters() throws Exception {
        assertEquals(new ClientLine.Notice("no image on the clipboard"), valid("{\"notice\":\"no image on the clipboard\"}"));
        String longer = "é".repeat(150) + "👍".repeat(100);
        ClientLine.Notice n = assertInstanceOf(ClientLine.Notice.class, valid("{\"notice\":\"" + longer + "\"}"));
        assertEquals("é".repeat(150) + "👍".repeat(50), n.text(), "200 characters, never half a surrogate pair");
    }

    @Test
    void putFileCarriesTheDecodedBytesAndRefusesWhatIsNotBase64OrTooLarge() throws Exception {
        ClientLine.PutFile f = assertInstanceOf(ClientLine.PutFile.class,
                valid("{\"command\":{\"put_file\":{\"name\":\"clipboard.png\",\"data\":\"aGVsbG8\"}}}"));
        assertEquals("clipboard.png", f.name());
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), f.data(), "padding is optional");
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), ((ClientLine.PutFile) valid(
                "{\"command\":{\"put_file\":{\"data\":\"aGVsbG8=\"}}}")).data());
        assertEquals("", ((ClientLine.PutFile) decode("{\"command\":{\"put_file\":{\"data\":\"\"}}}")).name());
        assertInstanceOf(ClientLine.Refused.class, decode("{\"command\":{\"put_file\":{\"data\":\"not base64!\"}}}"));
        String nineMiB = "A".repeat((9 << 20) / 3 * 4);
        ClientLine.Refused big = assertInstanceOf(ClientLine.Refused.class,
                decode("{\"command\":{\"put_file\":{\"data\":\"" + nineMiB + "\"}}}"));
        assertTrue(big.message().contains("8 MiB"), big.message());
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"command\":{\"put_file\":{\"name\":\"x\"}}}"));
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"command\":{\"put_file\":\"x\"}}"));
    }

    @Test
    void scratchNamesKeepOnlyTheBasenameAndSafeCharacters() {
        assertEquals("clipboard.png", Scratch.clean("clipboard.png"));
        assertEquals("passwd", Scratch.clean("../../etc/passwd"));
        assertEquals("x.png", Scratch.clean("C:\\Users\\me\\x.png"));
        assertEquals("my-photo--1-.jpg", Scratch.clean("my photo (1).jpg"));
        assertEquals("bashrc", Scratch.clean(".bashrc"), "never a hidden file");
        assertEquals("file", Scratch.clean(""));
        assertEquals("file", Scratch.clean("..."));
        assertEquals(Scratch.MAX_NAME, Scratch.clean("a".repeat(100) + ".png").length());
        assertTrue(Scratch.clean("a".repeat(100) + ".png").endsWith(".png"), "the extension is kept");
        assertEquals("--.txt", Scratch.clean("日本.txt"));
    }

    @Test
    void unknownKindsAreIgnoredAndGarbageIsUndecodable() {
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"notice\":{\"text\":\"x\"}}"));
        assertInstanceOf(ClientLine.Ignored.class, decode("{\"teleport\":{\"to\":\"mars\"}}"));
        assertInstanceOf(ClientLine.Ignored.class, decode("\"read_clipboard_image\""));
        assertInstanceOf(ClientLine.Undecodable.class, decode("not json"));
        assertInstanceOf(ClientLine.Undecodable.class, decode(""));
        assertInstanceOf(ClientLine.Undecodable.class, decode("[1,2]"));
        assertInstanceOf(ClientLine.Undecodable.class, decode("{\"input\":{},\"resize\":{}}"));
        assertInstanceOf(ClientLine.Undecodable.class, ClientLine.decode(new byte[] {'"', (byte) 0xff, '"'}));
    }
}

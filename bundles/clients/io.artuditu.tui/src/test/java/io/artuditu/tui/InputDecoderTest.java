package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputDecoderTest {
    private final InputDecoder dec = new InputDecoder();

    private List<Input> feed(String s) {
        return dec.feed(s.toCharArray(), s.length());
    }

    private static Input.Key key(String name, boolean ctrl, boolean alt, boolean shift) {
        return new Input.Key(name, null, 0, ctrl, alt, shift);
    }

    @Test
    void plainTextControlsAndTheDelKey() {
        assertEquals(List.of(Input.Key.ch("a"), Input.Key.named("enter"), Input.Key.named("tab"),
                Input.Key.named("backspace"), Input.Key.ch("b").withMods(true, false, false),
                Input.Key.ch(" ").withMods(true, false, false)), feed("a\r\t\u007f\u0002\u0000"));
    }

    @Test
    void cursorKeysWithXtermModifiersAndTildeKeys() {
        assertEquals(List.of(Input.Key.named("up"), key("left", true, false, false), key("right", false, true, true),
                Input.Key.named("page_up"), key("delete", true, false, false), Input.Key.named("back_tab")),
                feed("\033[A\033[1;5D\033[1;4C\033[5~\033[3;5~\033[Z"));
        assertEquals(List.of(new Input.Key("f", null, 1, false, false, false), new Input.Key("f", null, 5, false, false, false),
                new Input.Key("f", null, 12, false, false, false), Input.Key.named("home")),
                feed("\033OP\033[15~\033[24~\033OH"));
    }

    @Test
    void aLoneEscapeWaitsThenFlushesAsEscape() {
        assertEquals(List.of(), feed("\033"));
        assertTrue(dec.pendingEscape());
        assertEquals(List.of(Input.Key.named("esc")), dec.flush());
        assertFalse(dec.pendingEscape());
    }

    @Test
    void escapeThenACharacterIsAlt() {
        assertEquals(List.of(Input.Key.ch("x").withMods(false, true, false)), feed("\033x"));
    }

    @Test
    void aSequenceSplitAcrossReadsIsDecodedOnceWhole() {
        assertEquals(List.of(), feed("\033[1;"));
        assertEquals(List.of(key("up", true, false, false)), feed("5A"));
    }

    @Test
    void sgrMouseReportsPressDragReleaseAndWheel() {
        assertEquals(List.of(new Input.Mouse(Input.Mouse.Kind.DOWN, 0, 9, 4), new Input.Mouse(Input.Mouse.Kind.DRAG, 0, 10, 4),
                new Input.Mouse(Input.Mouse.Kind.UP, 0, 10, 4), new Input.Mouse(Input.Mouse.Kind.WHEEL_UP, 0, 1, 1),
                new Input.Mouse(Input.Mouse.Kind.WHEEL_DOWN, 1, 1, 1)),
                feed("\033[<0;10;5M\033[<32;11;5M\033[<0;11;5m\033[<64;2;2M\033[<65;2;2M"));
    }

    @Test
    void bracketedPasteIsOneInputEvenAcrossReadsAndKeepsEscapes() {
        assertEquals(List.of(), feed("\033[200~line one\nwith \033[A inside"));
        List<Input> out = new ArrayList<>(feed(" and more\033[20"));
        assertEquals(List.of(), out);
        assertEquals(List.of(new Input.Paste("line one\nwith \033[A inside and more"), Input.Key.ch("z")), feed("1~z"));
    }

    @Test
    void aSynchronizedOutputAnswerIsAModeReport() {
        assertEquals(List.of(new Input.ModeReport(2026, 2)), feed("\033[?2026;2$y"));
    }

    @Test
    void surrogatePairsStayOneKeyAcrossReads() {
        String emoji = "\uD83D\uDE00";
        assertEquals(List.of(), dec.feed(emoji.substring(0, 1).toCharArray(), 1));
        assertEquals(List.of(Input.Key.ch(emoji)), dec.feed(emoji.substring(1).toCharArray(), 1));
    }

    @Test
    void keysBecomeTheAttachProtocolsInputLines() {
        assertEquals("{\"input\":{\"key\":{\"code\":{\"char\":\"c\"},\"mods\":{\"ctrl\":true}}}}",
                Input.Key.ch("c").withMods(true, false, false).toAttach());
        assertEquals("{\"input\":{\"key\":{\"code\":\"page_down\"}}}", Input.Key.named("page_down").toAttach());
        assertEquals("{\"input\":{\"key\":{\"code\":{\"f\":5}}}}", new Input.Key("f", null, 5, false, false, false).toAttach());
    }
}

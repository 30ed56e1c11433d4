package io.artuditu.vt;

import static io.artuditu.vt.InputBytes.assertBytes;
import static io.artuditu.vt.InputBytes.feed;
import static io.artuditu.vt.InputBytes.terminal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Keys#encode}: xterm's bytes for each key, under the modes a program set. */
class KeysTest {
    private static final String CSI = "\033[";
    private static final String SS3 = "\033O";

    private static void key(Terminal t, String spec, String expected) {
        assertBytes(expected, Keys.encode(Keys.parse(spec), t), spec);
    }

    @Test
    void namedKeysInNormalMode() {
        Terminal t = terminal("");
        key(t, "enter", "\r");
        key(t, "tab", "\t");
        key(t, "back_tab", CSI + "Z");
        key(t, "shift+tab", CSI + "Z");
        key(t, "shift+back_tab", CSI + "Z");
        key(t, "backspace", "\177");
        key(t, "ctrl+backspace", "\b");
        key(t, "esc", "\033");
        key(t, "escape", "\033");
        key(t, "space", " ");
        key(t, "up", CSI + "A");
        key(t, "down", CSI + "B");
        key(t, "right", CSI + "C");
        key(t, "left", CSI + "D");
        key(t, "home", CSI + "H");
        key(t, "end", CSI + "F");
        key(t, "insert", CSI + "2~");
        key(t, "delete", CSI + "3~");
        key(t, "page_up", CSI + "5~");
        key(t, "page_down", CSI + "6~");
        key(t, "f1", SS3 + "P");
        key(t, "f2", SS3 + "Q");
        key(t, "f3", SS3 + "R");
        key(t, "f4", SS3 + "S");
        key(t, "f5", CSI + "15~");
        key(t, "f6", CSI + "17~");
        key(t, "f7", CSI + "18~");
        key(t, "f8", CSI + "19~");
        key(t, "f9", CSI + "20~");
        key(t, "f10", CSI + "21~");
        key(t, "f11", CSI + "23~");
        key(t, "f12", CSI + "24~");
    }

    @Test
    void applicationCursorKeysSwitchArrowsHomeAndEndToSs3() {
        Terminal t = terminal("\033[?1h");
        assertTrue(t.mode(Mode.APPLICATION_CURSOR_KEYS));
        key(t, "up", SS3 + "A");
        key(t, "down", SS3 + "B");
        key(t, "right", SS3 + "C");
        key(t, "left", SS3 + "D");
        key(t, "home", SS3 + "H");
        key(t, "end", SS3 + "F");
        // Not cursor keys: unchanged.
        key(t, "page_up", CSI + "5~");
        key(t, "delete", CSI + "3~");
        key(t, "f1", SS3 + "P");
        key(t, "f5", CSI + "15~");
        key(t, "enter", "\r");
        // With modifiers the CSI form is used in either mode, as xterm does.
        key(t, "ctrl+up", CSI + "1;5A");
        key(t, "shift+end", CSI + "1;2F");

        feed(t, "\033[?1l");
        key(t, "up", CSI + "A");
        key(t, "home", CSI + "H");
    }

    @Test
    void resetReturnsTheCursorKeysToNormalMode() {
        Terminal t = terminal("\033[?1h");
        key(t, "left", SS3 + "D");
        feed(t, "\033c");
        key(t, "left", CSI + "D");
    }

    @Test
    void applicationKeypadDoesNotChangeTheMainKeys() {
        Terminal t = terminal("\033=");
        assertTrue(t.mode(Mode.APPLICATION_KEYPAD));
        key(t, "up", CSI + "A");
        key(t, "enter", "\r");
        key(t, "5", "5");
    }

    @Test
    void enterSendsCrLfUnderNewlineMode() {
        Terminal t = terminal("\033[20h");
        key(t, "enter", "\r\n");
        key(t, "alt+enter", "\033\r\n");
        feed(t, "\033[20l");
        key(t, "enter", "\r");
    }

    @Test
    void modifiersOnSpecialKeysUseTheCsiParameter() {
        Terminal t = terminal("");
        key(t, "shift+up", CSI + "1;2A");
        key(t, "alt+left", CSI + "1;3D");
        key(t, "alt+shift+right", CSI + "1;4C");
        key(t, "ctrl+up", CSI + "1;5A");
        key(t, "ctrl+shift+up", CSI + "1;6A");
        key(t, "ctrl+alt+down", CSI + "1;7B");
        key(t, "ctrl+alt+shift+left", CSI + "1;8D");
        key(t, "shift+home", CSI + "1;2H");
        key(t, "ctrl+end", CSI + "1;5F");
        key(t, "shift+f1", CSI + "1;2P");
        key(t, "ctrl+f4", CSI + "1;5S");
        key(t, "shift+f5", CSI + "15;2~");
        key(t, "alt+f12", CSI + "24;3~");
        key(t, "ctrl+alt+delete", CSI + "3;7~");
        key(t, "ctrl+shift+alt+page_down", CSI + "6;8~");
        key(t, "shift+insert", CSI + "2;2~");
        key(t, "ctrl+page_up", CSI + "5;5~");
    }

    @Test
    void ctrlLettersAreControlCodes() {
        Terminal t = terminal("");
        for (char c = 'a'; c <= 'z'; c++) {
            String expected = String.valueOf((char) (c - 'a' + 1));
            key(t, "ctrl+" + c, expected);
            key(t, "ctrl+" + Character.toUpperCase(c), expected);
            key(t, "ctrl+shift+" + c, expected);
        }
        key(t, "Ctrl+C", "\003");
        key(t, "CTRL+c", "\003");
    }

    @Test
    void ctrlPunctuationAndDigitsFollowXterm() {
        Terminal t = terminal("");
        key(t, "ctrl+@", "\0");
        key(t, "ctrl+space", "\0");
        key(t, "ctrl+ ", "\0");
        key(t, "ctrl+`", "\0");
        key(t, "ctrl+[", "\033");
        key(t, "ctrl+\\", "\034");
        key(t, "ctrl+]", "\035");
        key(t, "ctrl+^", "\036");
        key(t, "ctrl+_", "\037");
        key(t, "ctrl+?", "\177");
        key(t, "ctrl+2", "\0");
        key(t, "ctrl+3", "\033");
        key(t, "ctrl+4", "\034");
        key(t, "ctrl+5", "\035");
        key(t, "ctrl+6", "\036");
        key(t, "ctrl+7", "\037");
        key(t, "ctrl+8", "\177");
        key(t, "ctrl+/", "\037");
        // No control code: the character is sent as it is.
        key(t, "ctrl+1", "1");
        key(t, "ctrl++", "+");
        key(t, "ctrl+é", "é");
    }

    @Test
    void ctrlOnEnterTabAndEscIsIgnored() {
        Terminal t = terminal("");
        key(t, "ctrl+enter", "\r");
        key(t, "ctrl+tab", "\t");
        key(t, "ctrl+esc", "\033");
        key(t, "shift+enter", "\r");
        key(t, "shift+backspace", "\177");
        key(t, "shift+esc", "\033");
    }

    @Test
    void altPrefixesEscape() {
        Terminal t = terminal("");
        key(t, "alt+x", "\033x");
        key(t, "alt+X", "\033X");
        key(t, "alt+shift+x", "\033X");
        key(t, "ctrl+alt+c", "\033\003");
        key(t, "alt+é", "\033é");
        key(t, "alt+space", "\033 ");
        key(t, "alt+ctrl+space", "\033\0");
        key(t, "alt+enter", "\033\r");
        key(t, "alt+tab", "\033\t");
        key(t, "alt+shift+tab", "\033\033[Z");
        key(t, "alt+backspace", "\033\177");
        key(t, "ctrl+alt+backspace", "\033\b");
        key(t, "alt+esc", "\033\033");
        key(t, "alt++", "\033+");
    }

    @Test
    void charactersAreUtf8AndShiftUpperCases() {
        Terminal t = terminal("");
        key(t, "a", "a");
        key(t, "A", "A");
        key(t, "/", "/");
        key(t, "+", "+");
        key(t, "é", "é");
        key(t, "€", "€");
        key(t, "😀", "😀");
        key(t, "shift+a", "A");
        key(t, "shift+é", "É");
        key(t, "shift+1", "1");
        key(t, "shift+space", " ");
        assertEquals(4, Keys.encode(Keys.parse("😀"), t).length);
    }

    @Test
    void everyNamedKeyWithEveryModifierSetEncodesToSomething() {
        Terminal t = terminal("");
        for (KeyName k : KeyName.values()) {
            for (int m = 0; m < 8; m++) {
                Key key = new Key(k.spec(), (m & 4) != 0, (m & 2) != 0, (m & 1) != 0);
                byte[] b = Keys.encode(key, t);
                assertTrue(b.length > 0, key.spec());
                assertEquals(key, Keys.parse(key.spec()), "spec round trip");
                assertFalse(key.alt() && b[0] != 0x1b, key.spec() + " starts with ESC");
            }
        }
    }
}

package io.artuditu.vt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Keys#parse} and the {@link Key} record: what is accepted and every rejection. */
class KeyParseTest {

    private static void rejected(String spec, String... messageParts) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Keys.parse(spec),
                "parse(\"" + spec + "\")");
        for (String part : messageParts) {
            assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' names '" + part + "'");
        }
    }

    @Test
    void parsesModifiersAndKey() {
        assertEquals(new Key("c", true, false, false), Keys.parse("ctrl+c"));
        assertEquals(new Key("x", false, true, false), Keys.parse("alt+x"));
        assertEquals(new Key("tab", false, false, true), Keys.parse("shift+tab"));
        assertEquals(new Key("delete", true, true, false), Keys.parse("ctrl+alt+delete"));
        assertEquals(new Key("up", true, false, true), Keys.parse("shift+ctrl+up"));
        assertEquals(new Key("enter", false, false, false), Keys.parse("enter"));
    }

    @Test
    void namesAndModifiersAreCaseInsensitive() {
        assertEquals(Keys.parse("ctrl+up"), Keys.parse("Ctrl+Up"));
        assertEquals(Keys.parse("ctrl+alt+shift+page_down"), Keys.parse("CTRL+ALT+SHIFT+PAGE_DOWN"));
        assertEquals("f5", Keys.parse("F5").name());
        assertEquals("enter", Keys.parse("Enter").name());
        assertEquals("esc", Keys.parse("ESCAPE").name());
        assertEquals("space", Keys.parse("Space").name());
    }

    @Test
    void aCharacterKeepsItsCase() {
        assertEquals("A", Keys.parse("A").name());
        assertEquals("a", Keys.parse("a").name());
        assertEquals("C", Keys.parse("Ctrl+C").name());
        assertEquals('A', Keys.parse("A").codepoint());
    }

    @Test
    void plusIsAKey() {
        assertEquals(new Key("+", false, false, false), Keys.parse("+"));
        assertEquals(new Key("+", true, false, false), Keys.parse("ctrl++"));
        assertEquals(new Key("+", true, true, false), Keys.parse("ctrl+alt++"));
        assertEquals("ctrl++", Keys.parse("ctrl++").spec());
    }

    @Test
    void spaceHasOneName() {
        assertEquals(Keys.parse("space"), Keys.parse(" "));
        assertEquals(Keys.parse("ctrl+space"), Keys.parse("ctrl+ "));
        assertEquals(' ', Keys.parse("space").codepoint());
    }

    @Test
    void codepoints() {
        assertEquals(-1, Keys.parse("enter").codepoint());
        assertEquals(-1, Keys.parse("f1").codepoint());
        assertEquals('é', Keys.parse("é").codepoint());
        assertEquals(0x1F600, Keys.parse("😀").codepoint());
        assertEquals("😀", Keys.parse("alt+😀").name());
    }

    @Test
    void specRoundTrips() {
        for (String s : new String[] {"ctrl+alt+shift+f12", "ctrl+c", "alt+é", "shift+back_tab", "a", "+", "ctrl++",
                "space", "esc", "page_up"}) {
            assertEquals(s, Keys.parse(s).spec());
        }
        assertEquals("ctrl+alt+shift+up", Keys.parse("Shift+Alt+Ctrl+Up").spec());
        assertEquals("esc", Keys.parse("escape").spec());
    }

    @Test
    void theConstructorNormalisesAndValidates() {
        assertEquals("page_down", new Key("PAGE_DOWN", false, false, false).name());
        assertEquals("esc", new Key("Escape", false, false, false).name());
        assertEquals("space", new Key(" ", false, false, false).name());
        assertThrows(IllegalArgumentException.class, () -> new Key("nope", false, false, false));
        assertThrows(IllegalArgumentException.class, () -> new Key("", false, false, false));
        assertThrows(IllegalArgumentException.class, () -> new Key("\n", false, false, false));
        assertThrows(NullPointerException.class, () -> new Key(null, false, false, false));
    }

    @Test
    void rejectsEmpty() {
        rejected("", "empty");
    }

    @Test
    void rejectsNull() {
        assertThrows(NullPointerException.class, () -> Keys.parse(null));
    }

    @Test
    void rejectsSpecsLongerThan64() {
        String longOne = "ctrl+" + "x".repeat(60);
        assertEquals(65, longOne.length());
        rejected(longOne, "65", "64");
        // At the limit the length is fine and the key name is what is wrong.
        rejected(longOne.substring(0, 64), "unknown key");
        rejected("a".repeat(10_000), "10000");
    }

    @Test
    void rejectsUnknownKeyNames() {
        rejected("foo", "unknown key", "'foo'");
        rejected("ctrl+foo", "unknown key", "'foo'", "ctrl+foo");
        rejected("f13", "'f13'");
        rejected("f0", "'f0'");
        rejected("ab", "'ab'");
        rejected("C-c", "'C-c'");
        rejected("ctrl+ c", "' c'");
        rejected("page up", "'page up'");
        rejected("return", "'return'");
    }

    @Test
    void rejectsUnknownModifiers() {
        rejected("super+a", "unknown modifier", "'super'");
        rejected("meta+x", "'meta'");
        rejected("ctrl+control+x", "'control'");
        rejected("a+b", "'a'");
        rejected(" ctrl+c", "' ctrl'");
    }

    @Test
    void rejectsDuplicatedModifiers() {
        rejected("ctrl+ctrl+c", "twice", "'ctrl'");
        rejected("Ctrl+CTRL+c", "twice", "'CTRL'");
        rejected("alt+shift+alt+x", "twice", "'alt'");
        rejected("shift+shift+tab", "twice", "'shift'");
    }

    @Test
    void rejectsEmptyParts() {
        rejected("ctrl+", "no key");
        rejected("+a", "empty modifier");
        rejected("ctrl++a", "empty modifier");
        rejected("++", "empty modifier");
        rejected("ctrl+++", "empty modifier");
    }

    @Test
    void rejectsControlCharactersAndLoneSurrogates() {
        rejected("\t", "U+0009", "control");
        rejected("\u0000", "U+0000");
        rejected("ctrl+\u007f", "U+007F");
        rejected("\u0085", "U+0085");
        rejected("\ud800", "U+D800", "surrogate");
        rejected("alt+\udc00", "U+DC00");
    }

    @Test
    void parseDoesNotEncode() {
        Key k = Keys.parse("alt+enter");
        assertTrue(k.alt());
        assertFalse(k.ctrl());
        assertFalse(k.shift());
    }
}

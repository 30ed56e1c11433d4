package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class KeymapTest {
    @Test
    void chordsParseAsTmuxWritesThem() {
        assertEquals(Input.Key.ch("b").withMods(true, false, false), KeyNames.parse("C-b"));
        assertEquals(new Input.Key("left", null, 0, false, true, false), KeyNames.parse("M-Left"));
        assertEquals(Input.Key.ch("%"), KeyNames.parse("%"));
        assertEquals(Input.Key.ch(" ").withMods(true, false, false), KeyNames.parse("C-Space"));
        assertEquals(new Input.Key("f", null, 5, false, false, false), KeyNames.parse("F5"));
        assertNull(KeyNames.parse("Nonsense"));
        assertEquals("C-b", Input.Key.ch("b").withMods(true, false, false).chord());
        assertEquals("C-Up", new Input.Key("up", null, 0, true, false, false).chord());
    }

    @Test
    void tmuxDefaultsAfterThePrefix() {
        Keymap k = new Keymap();
        assertTrue(KeyNames.matches(k.prefix, Input.Key.ch("b").withMods(true, false, false)));
        assertEquals("split_right", k.action(Input.Key.ch("%")));
        assertEquals("split_down", k.action(Input.Key.ch("\"")));
        assertEquals("focus_up", k.action(Input.Key.named("up")));
        assertEquals("resize_left", k.action(new Input.Key("left", null, 0, true, false, false)));
        assertEquals("select_tab_3", k.action(Input.Key.ch("3")));
        assertEquals("select_tab_10", k.action(Input.Key.ch("0")));
        assertEquals("send_prefix", k.action(Input.Key.ch("b").withMods(true, false, false)));
        assertNull(k.action(Input.Key.ch("Q")));
    }

    @Test
    void theLiveConfigRebindsThePrefixAndActions() throws Exception {
        Keymap k = new Keymap();
        JsonNode config = JsonUhp.JSON.readTree("{\"prefix\":{\"key\":\"C-a\",\"timeout_ms\":500},"
                + "\"keymap\":{\"preset\":\"vim\",\"bindings\":{\"zoom\":\"Z\",\"unknown_action\":\"q\"}}}");
        k.apply(config);
        assertEquals("C-a", k.prefixChord());
        assertEquals(500, k.prefixTimeoutMs);
        assertEquals("zoom", k.action(Input.Key.ch("Z")));
        assertNull(k.action(Input.Key.ch("z")));
        assertEquals("focus_left", k.action(Input.Key.ch("h")));
        assertEquals("send_prefix", k.action(Input.Key.ch("a").withMods(true, false, false)));
    }
}

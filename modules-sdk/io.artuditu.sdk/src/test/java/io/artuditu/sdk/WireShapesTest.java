package io.artuditu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SDK's value types write exactly the shapes the ui contract (ui.json) takes. */
class WireShapesTest {
    @Test
    void segmentsWriteTheTaggedShapesOfTheSpec() {
        assertEquals("{\"type\":\"text\",\"text\":\"CI\",\"tone\":\"muted\"}", Segment.text("CI", Tone.MUTED).toString());
        assertEquals("{\"type\":\"symbol\",\"symbol\":\"✓\",\"tone\":\"success\"}",
                Segment.symbol("✓", Tone.SUCCESS).toString());
        assertEquals("{\"type\":\"state\",\"state\":\"done\",\"label\":\"passing\"}",
                Segment.state(AgentState.DONE, "passing").toString());
        assertEquals("{\"type\":\"badge\",\"text\":\"2\",\"tone\":\"error\",\"action\":\"details\",\"value\":\"run-1842\"}",
                Segment.badge("2", Tone.ERROR).withAction("details", "run-1842").toString());
        assertEquals("{\"type\":\"progress\",\"value\":3,\"total\":7,\"width\":8}", Segment.progress(3, 7, 8).toString());
        assertEquals("{\"type\":\"spacer\",\"width\":1}", Segment.spacer(1).toString());
        assertEquals("{\"type\":\"separator\"}", Segment.separator().toString());
    }

    @Test
    void aSegmentIsImmutable() {
        Segment plain = Segment.text("x");
        Segment toned = plain.withTone(Tone.ACCENT);
        assertNotSame(plain, toned);
        assertEquals("{\"type\":\"text\",\"text\":\"x\"}", plain.toString());
        plain.toJson().put("text", "changed");
        assertEquals("{\"type\":\"text\",\"text\":\"x\"}", plain.toString(), "toJson hands out a copy");
    }

    @Test
    void aRowWritesOnlyWhatItHasAndKeepsItsMenu() {
        assertEquals("{\"text\":\"a\"}", Row.of("a").toJson().toString());
        List<MenuEntry> menu = new ArrayList<>(List.of(MenuEntry.of("Open", "open", "v"), MenuEntry.divider(),
                new MenuEntry("Delete", "delete", null, true)));
        Row r = new Row("b", AgentState.BLOCKED, "open", "7", menu);
        menu.clear();
        assertEquals("{\"text\":\"b\",\"dot\":\"blocked\",\"action\":\"open\",\"value\":\"7\",\"menu\":["
                + "{\"title\":\"Open\",\"action\":\"open\",\"value\":\"v\"},{\"title\":\"\",\"action\":\"\"},"
                + "{\"title\":\"Delete\",\"action\":\"delete\",\"destructive\":true}]}", r.toJson().toString());
        assertThrows(UnsupportedOperationException.class, () -> r.menu().add(MenuEntry.divider()));
        assertEquals(List.of(), new Row("c", null, null, null, null).menu(), "a null menu is no menu");
    }

    @Test
    void aNotificationLeavesOutItsDefaults() {
        assertEquals("{\"text\":\"hi\"}", Notification.of("hi").toJson().toString());
        assertEquals("{\"text\":\"done\",\"level\":\"success\",\"ttl_ms\":2000,\"action\":\"open\",\"value\":\"1\","
                + "\"dedupe_key\":\"ci\"}",
                new Notification("done", "success", 2000, "open", "1", "ci").toJson().toString());
    }

    @Test
    void enumsUseTheirWireNames() {
        assertEquals("warning", Tone.WARNING.wire());
        assertEquals("unknown", AgentState.UNKNOWN.wire());
    }
}

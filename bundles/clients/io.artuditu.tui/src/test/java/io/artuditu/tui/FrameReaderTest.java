package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Style;
import org.junit.jupiter.api.Test;

class FrameReaderTest {
    @Test
    void aFrameAsAttachMdShowsItBecomesRunsOfPackedCells() throws Exception {
        FrameReader.Frame f = FrameReader.read("{\"frame\":{\"full\":true,\"cells\":[{\"x\":0,\"y\":0,\"cells\":[{\"ch\":\"$\"},"
                + "{\"ch\":\" \"},{\"ch\":\"v\",\"fg\":{\"indexed\":2},\"mods\":{\"bold\":true}},{\"ch\":\"日\",\"bg\":{\"rgb\":[1,2,3]}}]}],"
                + "\"cursor\":[3,0],\"cursor_shape\":\"bar\",\"wants_mouse\":true}}");
        assertTrue(f.full());
        assertEquals(1, f.runs().size());
        FrameReader.Run r = f.runs().get(0);
        assertArrayEquals(new String[] {"$", " ", "v", "日"}, r.ch());
        assertEquals(Style.withFg(0, Style.indexed(2)) | Style.BOLD, r.st()[2]);
        assertEquals(Style.withBg(0, Style.rgb(1, 2, 3)), r.st()[3]);
        assertEquals(3, f.cursorX());
        assertEquals(6, f.cursorShape());
        assertTrue(f.wantsMouse());
    }

    @Test
    void aHiddenCursorAndOtherLines() throws Exception {
        FrameReader.Frame f = FrameReader.read("{\"frame\":{\"full\":false,\"cells\":[],\"cursor\":null,\"unknown\":{\"a\":[1]}}}");
        assertEquals(-1, f.cursorX());
        assertEquals(2, f.cursorShape());
        assertNull(FrameReader.read("\"bell\""));
        assertNull(FrameReader.read("{\"detached\":{\"reason\":\"detached\"}}"));
    }

    @Test
    void aWideCharacterTakesTwoCellsInThePaneView() throws Exception {
        PaneView v = new PaneView(null, "1", 6, 1, null);
        v.apply(FrameReader.read("{\"frame\":{\"full\":true,\"cells\":[{\"x\":0,\"y\":0,\"cells\":[{\"ch\":\"日\"},{\"ch\":\"x\"}]}],\"cursor\":[3,0]}}"));
        Canvas c = new Canvas(6, 1);
        v.paint(c, 0, 0, 6, 1, false);
        assertEquals("日", c.ch[0]);
        assertEquals(Canvas.CONTINUATION, c.ch[1]);
        assertEquals("x", c.ch[2]);
    }
}

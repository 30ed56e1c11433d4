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
    void overlineAndTheUnderlineColourAreRead() throws Exception {
        FrameReader.Frame f = FrameReader.read("{\"frame\":{\"full\":true,\"cells\":[{\"x\":0,\"y\":0,\"cells\":["
                + "{\"ch\":\"o\",\"mods\":{\"overline\":true}},"
                + "{\"ch\":\"u\",\"underline_color\":{\"indexed\":196},\"mods\":{\"underline\":true}},"
                + "{\"ch\":\"v\",\"underline_color\":{\"rgb\":[1,2,3]},\"mods\":{\"underline\":true,\"overline\":true}},"
                + "{\"ch\":\"p\"}]}],\"cursor\":null}}");
        FrameReader.Run r = f.runs().get(0);
        assertEquals(Style.OVERLINE, r.st()[0]);
        assertEquals(1L << Style.UNDERLINE_SHIFT, r.st()[1]);
        assertEquals(Style.OVERLINE | (1L << Style.UNDERLINE_SHIFT), r.st()[2]);
        assertArrayEquals(new int[] {0, Style.indexed(196), Style.rgb(1, 2, 3), 0}, r.ul());
        FrameReader.Run plain = FrameReader.read("{\"frame\":{\"full\":true,\"cells\":[{\"x\":0,\"y\":0,\"cells\":["
                + "{\"ch\":\"p\",\"mods\":{\"underline\":true}}]}],\"cursor\":null}}").runs().get(0);
        assertNull(plain.ul(), "a run without underline colours carries no array for them");
    }

    @Test
    void thePaneViewPaintsTheUnderlineColourOnBothHalvesOfAWideCharacter() throws Exception {
        PaneView v = new PaneView(null, "1", 6, 1, null);
        v.apply(FrameReader.read("{\"frame\":{\"full\":true,\"cells\":[{\"x\":0,\"y\":0,\"cells\":["
                + "{\"ch\":\"日\",\"underline_color\":{\"indexed\":9},\"mods\":{\"underline\":true}},{\"ch\":\"x\"}]}],"
                + "\"cursor\":[3,0]}}"));
        Canvas c = new Canvas(6, 1);
        v.paint(c, 0, 0, 6, 1, false);
        assertEquals(Style.indexed(9), c.underlineColor(0));
        assertEquals(Style.indexed(9), c.underlineColor(1));
        assertEquals(0, c.underlineColor(2));
        v.apply(FrameReader.read("{\"frame\":{\"full\":false,\"cells\":[{\"x\":0,\"y\":0,\"cells\":["
                + "{\"ch\":\"a\",\"mods\":{\"underline\":true}}]}],\"cursor\":[3,0]}}"));
        v.paint(c, 0, 0, 6, 1, false);
        assertEquals(0, c.underlineColor(0), "a cell sent without one has none");
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

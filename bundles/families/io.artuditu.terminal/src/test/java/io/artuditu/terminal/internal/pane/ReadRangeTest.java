package io.artuditu.terminal.internal.pane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.artuditu.uhp.api.UhpException;
import org.junit.jupiter.api.Test;

class ReadRangeTest {
    @Test
    void withoutStartTheNewestLines() {
        assertEquals(new ReadRange(0, 24, false), ReadRange.of(24, null, null, 10_000));
        assertEquals(new ReadRange(21, 3, false), ReadRange.of(24, null, 3, 10_000));
        assertEquals(new ReadRange(0, 24, false), ReadRange.of(24, null, 100, 10_000), "more than there are");
        assertEquals(new ReadRange(2_000, 10_000, true), ReadRange.of(12_000, null, null, 10_000), "the cap cut");
        assertEquals(new ReadRange(0, 0, false), ReadRange.of(0, null, null, 10_000));
    }

    @Test
    void fromStart() {
        assertEquals(new ReadRange(5, 19, false), ReadRange.of(24, 5, null, 10_000));
        assertEquals(new ReadRange(5, 2, false), ReadRange.of(24, 5, 2, 10_000));
        assertEquals(new ReadRange(24, 0, false), ReadRange.of(24, 24, null, 10_000), "the end is empty");
        assertEquals(new ReadRange(0, 10_000, true), ReadRange.of(12_000, 0, null, 10_000));
        assertEquals(new ReadRange(0, 10_000, false), ReadRange.of(12_000, 0, 10_000, 10_000), "asked for exactly that");
        UhpException e = assertThrows(UhpException.class, () -> ReadRange.of(24, 25, null, 10_000));
        assertEquals("start", e.details().get("field"));
        assertEquals(24, e.details().get("available"));
    }
}

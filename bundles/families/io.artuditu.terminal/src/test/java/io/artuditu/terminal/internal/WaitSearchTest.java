package io.artuditu.terminal.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.artuditu.vt.Match;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** wait_output's search: the newest occurrence, and nothing in a state not newer than after_revision. */
class WaitSearchTest {
    @Test
    void answersTheNewestOccurrenceInCaptureNumbering() {
        Terminal t = Terminal.create(20, 2);
        t.feed("done 1\r\nx\r\ndone 2\r\ny".getBytes(StandardCharsets.UTF_8));
        WaitMethods.Found f = WaitMethods.search(t, 9, -1, "done", true);
        assertEquals(2, f.count());
        assertEquals(new Match(2, 0, 2, 4), f.match(), "history has 2 lines; 'done 2' is screen row 0 = line 2");
        assertEquals(9, f.revision());
    }

    @Test
    void aStateNotNewerThanAfterRevisionIsNotSearched() {
        Terminal t = Terminal.create(20, 2);
        t.feed("ready".getBytes(StandardCharsets.UTF_8));
        assertNull(WaitMethods.search(t, 4, 4, "ready", true).match());
        assertEquals(new Match(0, 0, 0, 5), WaitMethods.search(t, 5, 4, "ready", true).match());
    }

    @Test
    void caseInsensitiveOnRequest() {
        Terminal t = Terminal.create(20, 2);
        t.feed("PASSED".getBytes(StandardCharsets.UTF_8));
        assertNull(WaitMethods.search(t, 1, -1, "passed", true).match());
        assertEquals(1, WaitMethods.search(t, 1, -1, "passed", false).count());
    }
}

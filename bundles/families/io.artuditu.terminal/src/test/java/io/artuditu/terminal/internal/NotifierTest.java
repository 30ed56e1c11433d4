package io.artuditu.terminal.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.pty.Pty;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.pty.internal.Host;
import io.artuditu.terminal.internal.RenderCounters.Count;
import io.artuditu.vt.Limits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coalescing window and input (issue 16): a change that follows input runs the screen's
 * watchers on its own thread and ends the notifier's window; the rest of a burst still waits
 * for the window. The window here is a minute, far longer
 * than any wait in this test, so "not fired yet" and "fired at once" do not depend on timing.
 */
@Timeout(60)
class NotifierTest {
    /** Longer than this test runs: nothing it sees fired can have waited the window out. */
    static final long WINDOW_MILLIS = 600_000;

    @TempDir
    Path home;
    Host host;
    Pty pty;
    RenderCounters counters = new RenderCounters();
    Notifier notifier;
    Screen screen;
    final Semaphore fired = new Semaphore(0);

    @BeforeEach
    void start() throws IOException {
        host = new Host(home.resolve("native"));
        // The PTY only gives the screen its size; the test feeds the screen itself.
        pty = host.spawn(new SpawnRequest(List.of("cat"), home, Map.of(), 40, 10), null);
        notifier = new Notifier(counters, WINDOW_MILLIS);
        screen = new Screen(pty, new Limits(1 << 20, 4096), notifier);
        assertTrue(screen.watch(fired::release));
    }

    @AfterEach
    void stop() {
        notifier.close();
        pty.terminate(100);
        host.close();
    }

    void output(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        screen.output(b, 0, b.length);
    }

    /** Not fired: the change waits for the window (which no wait here outlasts). */
    void assertHeld(String what) throws InterruptedException {
        assertFalse(fired.tryAcquire(200, TimeUnit.MILLISECONDS), what + " waits for the window");
    }

    void assertFired(String what) throws InterruptedException {
        assertTrue(fired.tryAcquire(20, TimeUnit.SECONDS), what + " is fired without the window");
    }

    @Test
    void theFirstChangeAfterInputEndsTheWindowAndTheRestOfTheBurstCoalesces() throws Exception {
        output("a");
        assertFired("a change to an idle notifier");
        assertEquals(1, counters.get(Count.WAKE_NOTIFY_CHANGE));
        // The notifier is now in its window.
        output("b");
        assertHeld("a change with no input before it");

        screen.typed();
        output("c"); // the echo
        assertTrue(fired.tryAcquire(), "the first change after input runs the watchers on its own thread, before output returns");
        assertFired("the notifier's batch for b and c, at once");
        assertEquals(1, counters.get(Count.WAKE_NOTIFY_INPUT));
        assertEquals(0, counters.get(Count.WAKE_NOTIFY_WINDOW));
        assertEquals(0, fired.availablePermits(), "one batch for b and c");

        output("d"); // the rest of the burst: a new window is open
        output("e");
        assertHeld("a later change in the burst");
        assertEquals(1, counters.get(Count.WAKE_NOTIFY_INPUT));
    }

    @Test
    void inputWithoutAChangeDoesNotWakeTheNotifier() throws Exception {
        output("a");
        assertFired("a change to an idle notifier");
        screen.typed(); // a key the program does not echo
        assertHeld("nothing");
        output("b"); // the program's answer, later: still the first change after that input
        assertTrue(fired.tryAcquire(), "the first change after input runs the watchers before output returns");
        assertFired("the notifier's batch");
        assertEquals(1, counters.get(Count.WAKE_NOTIFY_INPUT));
        output("c");
        assertHeld("the next change");
    }
}

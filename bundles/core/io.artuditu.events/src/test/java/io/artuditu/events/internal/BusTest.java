package io.artuditu.events.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventFrame;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BusTest {
    static final ObjectMapper M = new ObjectMapper();

    static ObjectNode data(String k, String v) {
        return M.createObjectNode().put(k, v);
    }

    static long seqOf(byte[] line) throws Exception {
        return M.readTree(line).get("sequence").asLong();
    }

    @Test
    void everyEventTakesTheNextSequence() {
        Bus bus = new Bus();
        assertEquals(0, bus.sequence());
        assertEquals(1, bus.publish("task.added", data("task", "t1")));
        assertEquals(2, bus.publish("task.gate_passed", data("task", "t1")));
        assertEquals(2, bus.sequence());
        assertThrows(IllegalArgumentException.class, () -> bus.publish("Task.Added", null));
        assertThrows(IllegalArgumentException.class, () -> bus.publish("task", null));
        assertThrows(IllegalArgumentException.class, () -> bus.publish("events.resync_required", null));
        assertThrows(IllegalArgumentException.class, () -> bus.publish("task.added", data("x", "y".repeat(70_000))));
        assertEquals(2, bus.sequence(), "refused events take no sequence");
    }

    @Test
    void anObservationTakesTheNextSequenceButIsNoStateChange() throws Exception {
        Bus bus = new Bus();
        assertEquals(0, bus.stateSequence());
        assertEquals(1, bus.publish("workspace.renamed", null));
        assertEquals(2, bus.publishObservation("terminal.output", null));
        assertEquals(3, bus.publishObservation("terminal.bell", null));
        assertEquals(3, bus.sequence());
        assertEquals(1, bus.stateSequence(), "terminal events observe, they change no state");
        try (io.artuditu.uhp.api.events.Subscription s = bus.subscribe(java.util.OptionalLong.of(0), java.util.Set.of())) {
            for (int seq = 1; seq <= 3; seq++) {
                assertEquals(seq, seqOf(s.take()), "observations are delivered in order like every event");
            }
        }
        assertEquals(4, bus.publish("tab.closed", null));
        assertEquals(4, bus.stateSequence());
    }

    @Test
    void theWindowEvictsByFrames() {
        Bus bus = new Bus(256, 1 << 20, 1024, 4 << 20);
        for (int i = 0; i < 300; i++) {
            bus.publish("task.added", data("n", "" + i));
        }
        List<Long> kept = bus.retained();
        assertEquals(256, kept.size());
        assertEquals(45, kept.get(0));
        assertEquals(300, kept.get(255));
        assertEquals(ErrorCode.RESYNC_REQUIRED,
                assertThrows(UhpException.class, () -> bus.subscribe(OptionalLong.of(43), Set.of())).code());
        bus.subscribe(OptionalLong.of(44), Set.of()).close();
        assertEquals(ErrorCode.INVALID_REQUEST,
                assertThrows(UhpException.class, () -> bus.subscribe(OptionalLong.of(301), Set.of())).code());
    }

    @Test
    void theWindowEvictsByBytes() {
        Bus bus = new Bus();
        String pad = "x".repeat(10_000);
        for (int i = 0; i < 200; i++) {
            bus.publish("task.added", data("pad", pad));
        }
        assertTrue(bus.retainedBytes() <= 1 << 20, "at most 1 MiB retained: " + bus.retainedBytes());
        int kept = bus.retained().size();
        assertTrue(kept < 200 && kept > 90, "the byte bound evicted first: " + kept);
        assertTrue(bus.retainedBytes() + 10_100 > 1 << 20, "no more evicted than needed");
    }

    @Test
    void replayThenLiveHasNoGapAndNoDuplicateUnderConcurrentPublish() throws Exception {
        Bus bus = new Bus(256, 1 << 20, 1 << 20, 1 << 30);
        for (int i = 0; i < 100; i++) {
            bus.publish("task.added", null);
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread publisher = new Thread(() -> {
            while (!stop.get()) {
                bus.publish("task.added", null);
                Thread.onSpinWait();
            }
        });
        publisher.start();
        int checked = 0;
        try {
            for (int round = 0; round < 50; round++) {
                long after = Math.max(0, bus.sequence() - 50);
                try (Subscription s = bus.subscribe(OptionalLong.of(after), Set.of())) {
                    long expect = after + 1;
                    for (int i = 0; i < 200; i++) {
                        byte[] line = s.take();
                        if (new String(line, StandardCharsets.UTF_8).contains("events.resync_required")) {
                            break; // a slow test thread may be cut; what came before must still be gapless
                        }
                        assertEquals(expect++, seqOf(line));
                        checked++;
                    }
                } catch (UhpException movedOn) {
                    // the publisher outran the window between sequence() and subscribe(): try again
                    assertEquals(ErrorCode.RESYNC_REQUIRED, movedOn.code());
                }
            }
        } finally {
            stop.set(true);
            publisher.join();
        }
        assertTrue(checked > 1000, "enough frames crossed the replay/live boundary: " + checked);
    }

    @Test
    void aSlowSubscriberIsCutWithOneResyncLineWhileAFastOneLosesNothing() throws Exception {
        Bus bus = new Bus(256, 1 << 20, 8, 1 << 20);
        Subscription slow = bus.subscribe(OptionalLong.empty(), Set.of());
        Subscription fast = bus.subscribe(OptionalLong.empty(), Set.of());
        CountDownLatch cut = new CountDownLatch(1);
        slow.onOverflow(cut::countDown);
        for (int i = 1; i <= 20; i++) {
            bus.publish("task.added", null);
            assertEquals(i, seqOf(fast.take()), "the fast subscriber keeps up");
        }
        assertEquals(0, cut.getCount(), "the overflow action ran");
        assertEquals(1, bus.subscribers());
        byte[] resync = slow.take();
        assertTrue(new String(resync, StandardCharsets.UTF_8).startsWith("{\"event\":\"events.resync_required\""),
                new String(resync, StandardCharsets.UTF_8));
        assertEquals(9, M.readTree(resync).get("sequence").asLong(), "the bus sequence at the cut");
        assertNull(slow.take(), "exactly one resync line, then the end");
        assertNull(slow.take());
        fast.close();
        assertEquals(0, bus.subscribers());
        assertNull(fast.take());
    }

    @Test
    void aFilterDeliversOnlyItsNames() throws Exception {
        Bus bus = new Bus();
        Subscription s = bus.subscribe(OptionalLong.empty(), Set.of("task.done"));
        bus.publish("task.added", null);
        bus.publish("task.done", null);
        assertEquals(2, seqOf(s.take()));
    }

    @Test
    void aWaiterRegisteredBeforeItsFenceSeesEveryLaterEvent() throws Exception {
        Bus bus = new Bus();
        AtomicBoolean stop = new AtomicBoolean();
        Thread publisher = new Thread(() -> {
            while (!stop.get()) {
                bus.publish("task.added", null);
            }
        });
        publisher.start();
        try {
            for (int i = 0; i < 200; i++) {
                try (EventWaiter w = bus.await("task.added", null, OptionalLong.empty())) {
                    Optional<EventFrame> got = w.await(10_000);
                    assertTrue(got.isPresent());
                    assertEquals(w.fence() + 1, got.get().sequence(), "the first event after the fence, none missed");
                }
            }
        } finally {
            stop.set(true);
            publisher.join();
        }
        assertEquals(0, bus.waiters());
    }

    @Test
    void waitersMatchWhereAndAfterSequenceAndAreReclaimed() throws Exception {
        Bus bus = new Bus();
        bus.publish("pane.agent_status_changed", data("pane", "7").put("n", 3));
        EventWaiter retained = bus.await("pane.agent_status_changed", M.createObjectNode().put("n", 3.0),
                OptionalLong.of(0));
        assertEquals(1, retained.await(0).orElseThrow().sequence(), "a retained event matches at once");
        assertEquals(0, bus.waiters());

        EventWaiter w = bus.await("pane.agent_status_changed", data("pane", "7"), OptionalLong.empty());
        assertEquals(1, w.fence());
        assertEquals(1, bus.waiters());
        bus.publish("pane.agent_status_changed", data("pane", "8"));
        bus.publish("task.added", data("pane", "7"));
        assertTrue(w.await(10).isEmpty(), "no match yet");
        bus.publish("pane.agent_status_changed", data("pane", "7"));
        assertEquals(4, w.await(1000).orElseThrow().sequence());

        EventWaiter gone = bus.await("task.done", null, OptionalLong.empty());
        assertEquals(1, bus.waiters());
        Thread closer = new Thread(gone::close);
        closer.start();
        assertTrue(gone.await(10_000).isEmpty(), "close wakes the parked waiter");
        closer.join();
        assertEquals(0, bus.waiters());
    }
}

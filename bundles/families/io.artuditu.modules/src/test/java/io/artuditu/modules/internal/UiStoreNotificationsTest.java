package io.artuditu.modules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notifications end when their TTL runs out: gone from the list, and announced by the store
 * itself through one timer for the earliest deadline. The clock is the store's own (a
 * notification's deadline is epoch milliseconds), so the 60 s clamp is tested by moving it.
 */
class UiStoreNotificationsTest {
    /** No module is enabled: these notifications have no owner. */
    static final Directory NO_MODULES = new Directory() {
        @Override
        public Optional<Manifest> enabled(String moduleId) {
            return Optional.empty();
        }

        @Override
        public Collection<Manifest> enabledManifests() {
            return List.of();
        }

        @Override
        public boolean known(String moduleId) {
            return false;
        }
    };

    @TempDir
    Path dir;
    final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    final AtomicInteger changes = new AtomicInteger();
    ScheduledThreadPoolExecutor timer;
    UiStore store;

    final UiStore.Listener listener = new UiStore.Listener() {
        @Override
        public void barChanged(String owner, String id) {
        }

        @Override
        public void dockChanged(String owner, String id) {
        }

        @Override
        public void notificationsChanged() {
            changes.incrementAndGet();
        }
    };

    @BeforeEach
    void setUp() {
        timer = new ScheduledThreadPoolExecutor(1);
        timer.setRemoveOnCancelPolicy(true);
        store = new UiStore(NO_MODULES, listener, dir.resolve("ui.json"), now::get, timer);
    }

    @AfterEach
    void tearDown() {
        timer.shutdownNow();
    }

    List<String> texts() {
        ArrayNode out = Local.JSON.createArrayNode();
        store.listNotifications(out);
        return out.findValuesAsText("text");
    }

    void push(String text, Integer ttlMs) {
        store.pushNotification(null, text, null, ttlMs, null, null, null);
    }

    /** The one expiry the store has queued: its delay in ms, for the clock that does not move by itself. */
    long scheduledDelayMs() {
        assertEquals(1, timer.getQueue().size(), "one timer, whatever the number of notifications");
        return ((Delayed) timer.getQueue().peek()).getDelay(TimeUnit.MILLISECONDS);
    }

    /** Runs the queued expiry now, as the timer would once its delay passed. */
    void fireExpiry() {
        Runnable task = timer.getQueue().peek();
        assertTrue(timer.remove(task), "taken from the timer, so it runs once");
        task.run();
    }

    @Test
    void aNotificationLeavesTheListWhenItsTtlRunsOut() {
        push("brief", 500);
        now.addAndGet(499);
        assertEquals(List.of("brief"), texts());
        now.addAndGet(1);
        assertEquals(List.of(), texts(), "gone at its deadline, read or not");
    }

    @Test
    void aTtlAboveTheClampEndsAfterSixtySeconds() {
        push("long", 600_000);
        ArrayNode out = Local.JSON.createArrayNode();
        store.listNotifications(out);
        JsonNode row = out.get(0);
        assertEquals(60_000, row.get("ttl_ms").asInt());
        assertEquals(now.get() + 60_000, row.get("expires_at_ms").asLong());
        assertTrue(scheduledDelayMs() <= 60_000 && scheduledDelayMs() > 59_000, "the expiry is due in 60 s");
        now.addAndGet(59_999);
        assertEquals(List.of("long"), texts());
        now.addAndGet(2_001); // 62 s after the push
        int before = changes.get();
        fireExpiry();
        assertEquals(List.of(), texts());
        assertEquals(before + 1, changes.get(), "the expiry is announced");
        assertEquals(0, timer.getQueue().size(), "nothing left to expire, nothing scheduled");
    }

    @Test
    void oneTimerFollowsTheEarliestDeadlineAndEachExpiryIsAnnounced() {
        push("five", 5_000);
        push("one", 1_000);
        push("minute", 60_000);
        assertEquals(3, changes.get(), "each push is announced");
        long d = scheduledDelayMs();
        assertTrue(d <= 1_000 && d > 0, "due when the earliest ends: " + d);
        now.addAndGet(1_000);
        fireExpiry();
        assertEquals(List.of("five", "minute"), texts());
        assertEquals(4, changes.get());
        d = scheduledDelayMs();
        assertTrue(d <= 4_000 && d > 3_000, "then when the next ends: " + d);
        store.clearNotifications(null, null);
        assertEquals(0, timer.getQueue().size(), "an empty queue needs no timer");
    }

    @Test
    void anExpiryThatCameEarlyChangesNothingAndWaitsAgain() {
        push("one", 1_000);
        now.addAndGet(400); // the wall clock moved less than the timer waited
        int before = changes.get();
        fireExpiry();
        assertEquals(List.of("one"), texts());
        assertEquals(before, changes.get(), "nothing expired, nothing announced");
        long d = scheduledDelayMs();
        assertTrue(d <= 600 && d > 500, "due again for the rest: " + d);
    }

    @Test
    void onTheRealClockTheExpiryComesByItself() throws Exception {
        ScheduledThreadPoolExecutor real = new ScheduledThreadPoolExecutor(1);
        try {
            UiStore s = new UiStore(NO_MODULES, listener, dir.resolve("ui.json"), System::currentTimeMillis, real);
            s.pushNotification(null, "brief", null, 1, null, null, null);
            assertEquals(1, changes.get());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (changes.get() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(2, changes.get(), "the expiry of a 500 ms notification is announced");
            ArrayNode out = Local.JSON.createArrayNode();
            s.listNotifications(out);
            assertEquals(0, out.size());
        } finally {
            real.shutdownNow();
        }
    }
}

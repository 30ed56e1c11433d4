package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.Workspaces;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.vt.Notification;
import java.lang.System.Logger.Level;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * Publishes the terminal.* events on the bus, for every screen: output (at most one per
 * terminal per {@value #OUTPUT_INTERVAL_MS} ms, coalesced, the last change of a burst always
 * reported), title changes, bells (at most one per terminal per second), notifications
 * (OSC 9/777) and exits.
 *
 * <p>Threading: a screen's watcher only queues a check on the one {@code terminal-events}
 * thread; every per-terminal field is confined to that thread. Nothing runs while no screen
 * changes: the delayed tasks exist only while an event is due.
 */
@Component(immediate = true)
public final class TerminalEvents implements Screens.Listener {
    static final String OUTPUT = "terminal.output";
    static final String TITLE = "terminal.title";
    static final String BELL = "terminal.bell";
    static final String NOTIFICATION = "terminal.notification";
    static final String EXITED = "terminal.exited";
    /** Every event this family publishes, the filter of terminal.backend.events.subscribe. */
    static final Set<String> NAMES = java.util.Collections.unmodifiableSet(
            new LinkedHashSet<>(List.of(OUTPUT, TITLE, BELL, NOTIFICATION, EXITED)));
    static final long OUTPUT_INTERVAL_MS = 250;
    static final long BELL_INTERVAL_MS = 1000;

    private final Terminals terminals;
    private final RenderCounters counters;
    private final Map<Screen, Tracked> tracked = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "terminal-events");
        t.setDaemon(true);
        return t;
    });
    private final AutoCloseable registration;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus bus;

    @Activate
    public TerminalEvents(@Reference Screens screens, @Reference Workspaces workspaces) {
        this.terminals = new Terminals(screens, workspaces, () -> bus);
        this.counters = screens.counters();
        thread.setRemoveOnCancelPolicy(true);
        this.registration = screens.listen(this);
    }

    @Deactivate
    void deactivate() throws Exception {
        registration.close();
        for (Tracked t : tracked.values()) {
            t.screen.unwatch(t);
        }
        tracked.clear();
        thread.shutdownNow();
    }

    /** The data of a terminal.notification event. */
    static ObjectNode notification(String terminalId, String pane, String title, String body, String source) {
        return base(terminalId, pane).put("title", title).put("body", body).put("source", source);
    }

    private static ObjectNode base(String terminalId, String pane) {
        return JsonNodeFactory.instance.objectNode().put("terminal_id", terminalId).put("pane", pane);
    }

    @Override
    public void added(Screen screen) {
        Tracked t = new Tracked(screen);
        tracked.put(screen, t);
        if (!screen.watch(t)) {
            System.getLogger(TerminalEvents.class.getName()).log(Level.WARNING,
                    "no terminal events for " + screen.terminalId() + ": the screen has no watcher slot left");
        }
    }

    @Override
    public void exited(Screen screen, Screens.Exited exited) {
        Tracked t = tracked.remove(screen);
        if (t != null) {
            screen.unwatch(t);
            submit(() -> {
                counters.add(RenderCounters.Count.WAKE_EVENTS_EXIT);
                t.exit(exited.status());
            });
        }
    }

    private void submit(Runnable task) {
        try {
            thread.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // deactivating: events stop with the component
        }
    }

    private void publish(String event, ObjectNode data) {
        EventBus b = bus;
        if (b == null) {
            return; // no bus, no events: nothing is queued for a bus that may come later
        }
        try {
            b.publishObservation(event, data);
        } catch (RuntimeException e) {
            System.getLogger(TerminalEvents.class.getName()).log(Level.WARNING, "cannot publish " + event, e);
        }
    }

    /** One screen's published state; fields touched only on the events thread. */
    private final class Tracked implements Runnable {
        final Screen screen;
        final AtomicBoolean queued = new AtomicBoolean();
        String pane;
        String title = "";
        long bells;
        long outputRevision;
        long outputAt = Long.MIN_VALUE / 2;
        long bellAt = Long.MIN_VALUE / 2;
        ScheduledFuture<?> outputDue;
        ScheduledFuture<?> bellDue;
        /** terminal.exited went out: nothing more for this terminal. */
        boolean gone;

        Tracked(Screen screen) {
            this.screen = screen;
        }

        /** The watcher: queue one check, however many changes arrive before it runs. */
        @Override
        public void run() {
            if (queued.compareAndSet(false, true)) {
                submit(() -> {
                    counters.add(RenderCounters.Count.WAKE_EVENTS_CHANGE);
                    check();
                });
            }
        }

        String pane() {
            if (pane == null) {
                pane = terminals.paneOf(screen.pty());
            }
            return pane;
        }

        void check() {
            queued.set(false);
            if (gone) {
                return;
            }
            record State(String title, long bells, long revision, List<Notification> notes) {
            }
            State s = screen.read(t -> new State(screen.title(), t.bells(), screen.revision(), t.takeNotifications()));
            if (!s.title().equals(title)) {
                title = s.title();
                publish(TITLE, base(screen.terminalId(), pane()).put("title", title));
            }
            for (Notification n : s.notes()) {
                // Notification does not say which OSC made it: OSC 9 has no title, OSC 777 gives one.
                publish(NOTIFICATION, notification(screen.terminalId(), pane(), n.title(), n.body(),
                        n.title().isEmpty() ? "osc9" : "osc777"));
            }
            if (s.bells() > bells) {
                bells = s.bells();
                if (bellDue == null) {
                    bellDue = thread.schedule(() -> timer(this::bell), delay(bellAt, BELL_INTERVAL_MS),
                            TimeUnit.MILLISECONDS);
                }
            }
            if (s.revision() != outputRevision && outputDue == null) {
                outputDue = thread.schedule(() -> timer(this::output), delay(outputAt, OUTPUT_INTERVAL_MS),
                        TimeUnit.MILLISECONDS);
            }
        }

        /** A due timer woke the events thread (exit runs the same work directly, not counted here). */
        private void timer(Runnable due) {
            counters.add(RenderCounters.Count.WAKE_EVENTS_TIMER);
            due.run();
        }

        private long delay(long lastMillis, long interval) {
            return Math.max(0, lastMillis + interval - now());
        }

        void output() {
            outputDue = null;
            long revision = screen.revision();
            if (revision != outputRevision) {
                outputRevision = revision;
                outputAt = now();
                publish(OUTPUT, base(screen.terminalId(), pane()).put("revision", revision));
            }
        }

        void bell() {
            bellDue = null;
            bellAt = now();
            publish(BELL, base(screen.terminalId(), pane()));
        }

        /** The last state first (a pending output or bell is published now), then terminal.exited. */
        void exit(int status) {
            check();
            gone = true;
            if (outputDue != null) {
                outputDue.cancel(false);
                output();
            }
            if (bellDue != null) {
                bellDue.cancel(false);
                bell();
            }
            publish(EXITED, base(screen.terminalId(), pane()).put("exit_status", status));
        }
    }

    private static long now() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }
}

package io.artuditu.terminal.internal;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.PtyTracker;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import io.artuditu.vt.TerminalScreens;
import io.artuditu.model.TerminalTitles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * One {@link Screen} per live PTY of the host, for every family of this bundle. On
 * activation it takes every PTY that is already running and rebuilds its screen from the
 * PTY's retained output (so updating this bundle touches no process); on deactivation it
 * detaches, and the PTYs keep running and retaining output.
 *
 * <p>A PTY that exited leaves a small record ({@link Exited}) so that a call naming it
 * gets evidence (its exit status) rather than a bare "not found"; the newest
 * {@value #EXITED_KEPT} are kept.
 */
@Component(service = {Screens.class, TerminalTitles.class, TerminalScreens.class}, immediate = true)
public final class Screens implements PtyTracker, TerminalTitles, TerminalScreens {
    static final int EXITED_KEPT = 64;
    /** The variable the workspace model gives every pane's process its pane id in. */
    static final String PANE_ENV = "ARTUDITU_PANE_ID";
    /** Scrollback bytes per pane until the {@code pane} config section says otherwise (10 MiB, the spec's example). */
    public static final long DEFAULT_HISTORY_BUDGET = 10L << 20;
    /** Scrollback bytes of all live screens together, until the config section says otherwise (512 MiB). */
    public static final long DEFAULT_TOTAL_HISTORY_BUDGET = 512L << 20;
    /** The least scrollback a new screen gets, however little of the total is left (64 KiB). */
    public static final long MIN_HISTORY_BUDGET = 64L << 10;

    /** What is known about a PTY that exited. */
    public record Exited(String terminalId, int status, long exitedMillis) {
    }

    /**
     * Hears about screens coming and going (the terminal.* event publisher). Called on the
     * spawning or PTY thread, in order per screen; it must only hand off.
     */
    interface Listener {
        void added(Screen screen);

        void exited(Screen screen, Exited exited);
    }

    private final PtyHost host;
    private final RenderCounters counters = new RenderCounters();
    private final Notifier notifier = new Notifier(counters);
    private final Map<String, Screen> live = new ConcurrentHashMap<>();
    private final Map<String, Exited> exited = new LinkedHashMap<>();
    /** The same records by pane id, guarded by {@link #exited}; the newest {@value #EXITED_KEPT}. */
    private final Map<String, Exited> exitedPanes = new LinkedHashMap<>();
    private final AutoCloseable tracking;
    private volatile long historyBudget = DEFAULT_HISTORY_BUDGET;
    /** Guards listener calls together with {@link #live} changes, so a new listener misses and repeats nothing. */
    private final List<Listener> listeners = new java.util.ArrayList<>();
    /** The sum of the live screens' history budgets; changed with {@link #live}, under {@link #listeners}. */
    private long liveBudget;
    private volatile long totalHistoryBudget = DEFAULT_TOTAL_HISTORY_BUDGET;

    @Activate
    public Screens(@Reference PtyHost host) {
        this.host = host;
        this.tracking = host.track(this);
    }

    @Deactivate
    void deactivate() throws Exception {
        tracking.close();
        for (Screen s : live.values()) {
            s.pty().listen(null);
        }
        synchronized (listeners) {
            live.clear();
            liveBudget = 0;
        }
        notifier.close();
    }

    @Override
    public void added(Pty pty) {
        Screen s;
        synchronized (listeners) {
            s = new Screen(pty, new Limits(budgetForNewScreen(), 4096), notifier);
            live.put(pty.id(), s);
            liveBudget += s.historyBudget();
            for (Listener l : listeners) {
                l.added(s);
            }
        }
        pty.listen(s);
        notifier.changed(s, false); // watchers of every screen hear of a new one, even if it never prints
    }

    /**
     * The per-pane budget, cut to what the total leaves after the live screens' budgets (but
     * never below {@value #MIN_HISTORY_BUDGET}): a budget is fixed when its screen is made,
     * so a change applies to screens made after it, and the live screens' sum is kept as
     * they come and go (no walk over every screen per spawn). Under {@link #listeners}.
     */
    private long budgetForNewScreen() {
        return Math.min(historyBudget, Math.max(MIN_HISTORY_BUDGET, totalHistoryBudget - liveBudget));
    }

    @Override
    public void exited(Pty pty, int status) {
        Exited record = new Exited(pty.id(), status, System.currentTimeMillis());
        String pane = pty.env().get(PANE_ENV);
        synchronized (exited) {
            exited.put(pty.id(), record);
            while (exited.size() > EXITED_KEPT) {
                exited.remove(exited.keySet().iterator().next());
            }
            if (pane != null) {
                exitedPanes.put(pane, record);
                while (exitedPanes.size() > EXITED_KEPT) {
                    exitedPanes.remove(exitedPanes.keySet().iterator().next());
                }
            }
        }
        Screen s;
        synchronized (listeners) {
            s = live.remove(pty.id());
            if (s != null) {
                liveBudget -= s.historyBudget();
                for (Listener l : listeners) {
                    l.exited(s, record);
                }
            }
        }
        if (s != null) {
            notifier.changed(s, false);
        }
    }

    /**
     * Registers {@code listener}: {@link Listener#added} at once for every live screen, then
     * for new ones, and {@link Listener#exited} as they end, until the handle is closed.
     */
    AutoCloseable listen(Listener listener) {
        synchronized (listeners) {
            listeners.add(listener);
            for (Screen s : live.values()) {
                listener.added(s);
            }
        }
        return () -> {
            synchronized (listeners) {
                listeners.remove(listener);
            }
        };
    }

    /** The live screen of a terminal. */
    public Optional<Screen> screen(String terminalId) {
        return Optional.ofNullable(live.get(terminalId));
    }

    @Override
    public Optional<String> title(String terminalId) {
        Screen s = terminalId == null ? null : live.get(terminalId);
        String t = s == null ? null : s.title();
        return t == null || t.isEmpty() ? Optional.empty() : Optional.of(t);
    }

    @Override
    public <T> Optional<T> read(String terminalId, java.util.function.Function<Terminal, T> reader) {
        Screen s = terminalId == null ? null : live.get(terminalId);
        return s == null ? Optional.empty() : Optional.ofNullable(s.read(reader));
    }

    @Override
    public AutoCloseable watch(java.util.function.Consumer<String> changed) {
        return notifier.watchAll(changed);
    }

    @Override
    public AutoCloseable watchInput(java.util.function.Consumer<String> typed) {
        return notifier.watchInput(typed);
    }

    /**
     * What is known about the process of a pane that exited recently, by pane id (from the
     * PTY's {@code ARTUDITU_PANE_ID}, which the workspace model sets): evidence for a call
     * naming a pane that has left the model with its process.
     */
    public Optional<Exited> exitedPane(String paneId) {
        synchronized (exited) {
            return Optional.ofNullable(exitedPanes.get(paneId));
        }
    }

    /** What is known about a terminal that exited recently. */
    public Optional<Exited> exited(String terminalId) {
        synchronized (exited) {
            return Optional.ofNullable(exited.get(terminalId));
        }
    }

    /** Live screens in spawn order. */
    public List<Screen> all() {
        return host.list().stream().map(p -> live.get(p.id())).filter(java.util.Objects::nonNull).toList();
    }

    public long historyBudget() {
        return historyBudget;
    }

    public void historyBudget(long bytes) {
        historyBudget = bytes;
    }

    public long totalHistoryBudget() {
        return totalHistoryBudget;
    }

    public void totalHistoryBudget(long bytes) {
        totalHistoryBudget = bytes;
    }

    public PtyHost host() {
        return host;
    }

    /** The render_performance counters of every screen and stream of this bundle. */
    public RenderCounters counters() {
        return counters;
    }
}

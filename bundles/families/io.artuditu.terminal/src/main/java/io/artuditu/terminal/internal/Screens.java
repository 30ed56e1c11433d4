package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.PtyTracker;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.uhp.platform.TargetResolver;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import io.artuditu.vt.TerminalScreens;
import io.artuditu.vt.TerminalTitles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
@Component(service = {Screens.class, TerminalTitles.class, TerminalScreens.class, TargetResolver.class},
        immediate = true)
public final class Screens implements PtyTracker, TerminalTitles, TerminalScreens, TargetResolver {
    static final int EXITED_KEPT = 64;
    /** The variable the workspace model gives every pane's process its pane id in. */
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
        synchronized (exited) {
            exited.put(pty.id(), record);
            while (exited.size() > EXITED_KEPT) {
                exited.remove(exited.keySet().iterator().next());
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

    // ---------------------------------------------------------------- terminal targets

    @Override
    public Set<TargetSpec.Kind> kinds() {
        return Set.of(TargetSpec.Kind.TERMINAL);
    }

    /**
     * The live screen a terminal target names ({@code terminal_id}; the contract makes it
     * required, so it never falls back to the focus), or {@code not_found} with what is known.
     */
    @Override
    public Object resolve(TargetSpec spec, ObjectNode params) {
        String id = params.get(spec.idField()).textValue();
        return screen(id).orElseThrow(() -> notFound(id, spec.idField()));
    }

    /** {@code not_found} for a terminal that is not live: its exit when known, else "unknown". */
    public UhpException notFound(String terminalId, String field) {
        Map<String, Object> d = evidence(terminalId);
        String what = "exited".equals(d.get("state")) ? "has exited" : "is not known to this server";
        return UhpException.notFound("terminal", terminalId, field, "terminal " + terminalId + " " + what, d);
    }

    /** What is known about a terminal that is not live, as error details. */
    public Map<String, Object> evidence(String terminalId) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("terminal_id", terminalId);
        Optional<Exited> gone = exited(terminalId);
        if (gone.isPresent()) {
            d.put("state", "exited");
            d.put("exit_status", gone.get().status());
            d.put("exited_at_ms", gone.get().exitedMillis());
        } else {
            d.put("state", "unknown");
        }
        return d;
    }

    @Override
    public void write(String terminalId, byte[] bytes) throws java.io.IOException {
        Screen s = terminalId == null ? null : live.get(terminalId);
        if (s == null) {
            throw new io.artuditu.pty.PtyInputException(io.artuditu.pty.PtyInputException.Reason.EXITED, 0,
                    "terminal " + terminalId + " is not live");
        }
        s.input(bytes);
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

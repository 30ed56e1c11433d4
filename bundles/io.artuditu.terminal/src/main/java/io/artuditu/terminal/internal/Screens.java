package io.artuditu.terminal.internal;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.PtyTracker;
import io.artuditu.vt.Limits;
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
@Component(service = Screens.class, immediate = true)
public final class Screens implements PtyTracker {
    static final int EXITED_KEPT = 64;
    /** Scrollback bytes per pane until the config section is wired (10 MiB, the spec's example). */
    static final long DEFAULT_HISTORY_BUDGET = 10L << 20;

    /** What is known about a PTY that exited. */
    public record Exited(String terminalId, int status, long exitedMillis) {
    }

    private final PtyHost host;
    private final Notifier notifier = new Notifier();
    private final Map<String, Screen> live = new ConcurrentHashMap<>();
    private final Map<String, Exited> exited = new LinkedHashMap<>();
    private final AutoCloseable tracking;
    private volatile long historyBudget = DEFAULT_HISTORY_BUDGET;

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
        live.clear();
        notifier.close();
    }

    @Override
    public void added(Pty pty) {
        Screen s = new Screen(pty, new Limits(historyBudget, 4096), notifier);
        live.put(pty.id(), s);
        pty.listen(s);
    }

    @Override
    public void exited(Pty pty, int status) {
        Screen s = live.remove(pty.id());
        synchronized (exited) {
            exited.put(pty.id(), new Exited(pty.id(), status, System.currentTimeMillis()));
            while (exited.size() > EXITED_KEPT) {
                exited.remove(exited.keySet().iterator().next());
            }
        }
        if (s != null) {
            notifier.changed(s);
        }
    }

    /** The live screen of a terminal. */
    public Optional<Screen> screen(String terminalId) {
        return Optional.ofNullable(live.get(terminalId));
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

    long historyBudget() {
        return historyBudget;
    }

    void historyBudget(long bytes) {
        historyBudget = bytes;
    }

    PtyHost host() {
        return host;
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.StatsContributor;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Component;

/**
 * The one server-wide cap on live terminal streams (terminal.backend.observe and
 * control, attach.pane): at most {@value #LIMIT} at once. A stream takes a slot before
 * it replies and gives it back when its connection ends. {@code uhp.stats} reports the
 * count as {@code terminal_streams}.
 */
@Component(service = {TerminalStreams.class, StatsContributor.class})
public final class TerminalStreams implements StatsContributor {
    public static final int LIMIT = Limits.TERMINAL_STREAMS_MAX;
    private final AtomicInteger active = new AtomicInteger();

    /** Takes a slot; false when all {@value #LIMIT} are in use. */
    public boolean tryAcquire() {
        while (true) {
            int n = active.get();
            if (n >= LIMIT) {
                return false;
            }
            if (active.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    public void release() {
        active.updateAndGet(n -> Math.max(0, n - 1));
    }

    public int active() {
        return active.get();
    }

    @Override
    public void contribute(ObjectNode stats) {
        stats.putObject("terminal_streams").put("active", active.get()).put("capacity", LIMIT);
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.platform.StatsContributor;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Component;

/**
 * The server-wide caps on live terminal streams: at most {@value #LIMIT} observe/control
 * streams (the spec's eight) and, separately, at most {@value #ATTACH_LIMIT} attach.pane
 * streams (a workbench holds one per visible pane). A stream takes a slot before it replies
 * and gives it back when its connection ends. {@code uhp.stats} reports the counts as
 * {@code terminal_streams} and {@code attach_streams}.
 */
@Component(service = {TerminalStreams.class, StatsContributor.class})
public final class TerminalStreams implements StatsContributor {
    public static final int LIMIT = Limits.TERMINAL_STREAMS_MAX;
    public static final int ATTACH_LIMIT = Limits.ATTACH_STREAMS_MAX;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger attached = new AtomicInteger();

    /** Takes an observe/control slot; false when all {@value #LIMIT} are in use. */
    public boolean tryAcquire() {
        return take(active, LIMIT);
    }

    public void release() {
        active.updateAndGet(n -> Math.max(0, n - 1));
    }

    /** Takes an attach.pane slot; false when all {@value #ATTACH_LIMIT} are in use. */
    public boolean tryAcquireAttach() {
        return take(attached, ATTACH_LIMIT);
    }

    public void releaseAttach() {
        attached.updateAndGet(n -> Math.max(0, n - 1));
    }

    public int activeAttach() {
        return attached.get();
    }

    private static boolean take(AtomicInteger count, int limit) {
        while (true) {
            int n = count.get();
            if (n >= limit) {
                return false;
            }
            if (count.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    public int active() {
        return active.get();
    }

    @Override
    public void contribute(ObjectNode stats) {
        stats.putObject("terminal_streams").put("active", active.get()).put("capacity", LIMIT);
        stats.putObject("attach_streams").put("active", attached.get()).put("capacity", ATTACH_LIMIT);
    }
}

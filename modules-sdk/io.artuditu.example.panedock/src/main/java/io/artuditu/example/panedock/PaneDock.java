package io.artuditu.example.panedock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.sdk.ActionEvent;
import io.artuditu.sdk.ModuleContext;
import io.artuditu.sdk.Row;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The pane dock module: the dock {@code panes} lists the focused workspace's panes. It
 * reads {@code session.snapshot} when panes, tabs or the focus change (a burst of events
 * makes one read, {@link #SETTLE_MS} after the first) and every {@link #POLL_S} seconds
 * for the agent states (the process scan that finds agents publishes no event), and
 * pushes only when the rows changed.
 *
 * <p>Threads: reads, pushes and actions run on the module's scheduler, so {@link #shown}
 * needs no lock; the event listener only queues a read. Both threads are the SDK's and
 * end with the module.
 */
@Component(immediate = true)
public final class PaneDock {
    static final String DOCK = "panes";
    static final long SETTLE_MS = 50;
    static final long POLL_S = 5;
    /** Events after which the rows may differ. */
    static final Set<String> EVENTS = Set.of("pane.created", "pane.closed", "pane.moved", "pane.swapped",
            "pane.focused", "pane.renamed", "pane.agent_status_changed", "tab.created", "tab.closed", "tab.moved",
            "tab.focused", "tab.renamed", "workspace.created", "workspace.closed", "workspace.focused",
            "workspace.renamed", "terminal.title");

    private final ModuleContext context;
    private final AtomicBoolean queued = new AtomicBoolean();
    /** The title and rows the dock shows now, as their wire form; null before the first push. */
    private String shown;

    @Activate
    public PaneDock(@Reference ModuleContext context) {
        this.context = context;
        context.onAction(PaneRows.FOCUS, e -> pane("pane.focus", e));
        context.onAction(PaneRows.CLOSE, e -> pane("pane.close", e));
        context.subscribe(EVENTS, event -> soon());
        context.scheduler().scheduleWithFixedDelay(this::refresh, 0, POLL_S, TimeUnit.SECONDS);
    }

    /** {@code focus} and {@code close}: the row's value is the pane id. */
    private void pane(String method, ActionEvent e) {
        if (e.rowValue() == null) {
            throw new IllegalArgumentException(e.actionId() + " needs the pane id as the row value");
        }
        ObjectNode p = JsonNodeFactory.instance.objectNode().put("pane", e.rowValue());
        context.call(method, p);
        refresh();
    }

    private void soon() {
        if (queued.compareAndSet(false, true)) {
            try {
                context.scheduler().schedule(() -> {
                    queued.set(false);
                    refresh();
                }, SETTLE_MS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException | IllegalStateException revoked) {
                // the module is going away
            }
        }
    }

    /** Reads the snapshot and pushes the rows when they changed; never throws (a periodic task that throws stops). */
    void refresh() {
        try {
            JsonNode ws = PaneRows.activeWorkspace(context.call("session.snapshot", JsonNodeFactory.instance.objectNode()));
            String title = PaneRows.title(ws);
            List<Row> rows = PaneRows.rows(ws);
            String wire = title + "\n" + rows.stream().map(r -> r.toJson().toString()).toList();
            if (!wire.equals(shown)) {
                context.pushDock(DOCK, title, rows);
                shown = wire;
            }
        } catch (RuntimeException e) {
            if (context.active()) {
                context.log("cannot list the panes: " + e.getMessage());
            }
        }
    }
}

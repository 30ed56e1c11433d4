package io.artuditu.example.gitbar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.artuditu.sdk.ModuleContext;
import io.artuditu.sdk.Segment;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The git bar module: the focused workspace's branch and dirty state as the bar widget
 * {@code branch}. It reads the state every {@code interval_s} seconds and at once when the
 * focus moves, and pushes only when what it would show changed.
 *
 * <p>Threads: everything but the event listener runs on the module's scheduler (one
 * thread), so {@link #poll} and {@link #shown} need no lock; the listener only queues a
 * read there. Both threads are the SDK's, and the platform ends them when the module goes
 * away: nothing here needs a deactivate method.
 */
@Component(immediate = true)
public final class GitBar {
    static final String BAR = "branch";
    static final String REFRESH = "refresh";
    static final String INTERVAL = "interval_s";
    /** Events after which the focused workspace may be another one. */
    static final Set<String> FOCUS_EVENTS = Set.of("workspace.focused", "workspace.created", "workspace.closed",
            "pane.focused", "tab.focused");

    private final ModuleContext context;
    private final Git git;
    private final AtomicBoolean queued = new AtomicBoolean();
    private ScheduledFuture<?> poll;
    /** What the bar shows now, as its wire form; null while the module shows nothing. */
    private String shown;

    @Activate
    public GitBar(@Reference ModuleContext context) throws IOException {
        this.context = context;
        Path dir = Files.createDirectories(context.configDir());
        this.git = new Git(dir.resolve("git-status.out"));
        context.onAction(REFRESH, event -> refresh());
        context.onSettingsChanged(this::schedule);
        context.subscribe(FOCUS_EVENTS, event -> soon());
        context.scheduler().execute(this::schedule);
    }

    /** (Re)starts the periodic read at the current interval; on the scheduler. */
    private void schedule() {
        if (poll != null) {
            poll.cancel(false);
        }
        long seconds = context.setting(INTERVAL).asLong(5);
        poll = context.scheduler().scheduleWithFixedDelay(this::refresh, 0, seconds, TimeUnit.SECONDS);
    }

    /** Queues one read, however many events arrive before it runs. */
    private void soon() {
        if (queued.compareAndSet(false, true)) {
            try {
                context.scheduler().execute(() -> {
                    queued.set(false);
                    refresh();
                });
            } catch (RejectedExecutionException | IllegalStateException revoked) {
                // the module is going away
            }
        }
    }

    /** Reads the state and pushes it when it changed; never throws (a periodic task that throws stops). */
    void refresh() {
        try {
            Path dir = focusedFolder();
            show(dir == null ? null : git.status(dir));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (context.active()) {
                context.log("cannot read the git state: " + e.getMessage());
            }
        }
    }

    /** The focused workspace's folder; null when there is no workspace. */
    private Path focusedFolder() {
        JsonNode ws;
        try {
            ws = context.call("workspace.get", JsonNodeFactory.instance.objectNode());
        } catch (UhpException none) {
            return null;
        }
        String cwd = ws.path("cwd").asText("");
        return cwd.isEmpty() ? null : Path.of(cwd);
    }

    private void show(GitStatus s) {
        if (s == null) {
            if (shown != null) {
                context.removeBar(BAR);
                shown = null;
            }
            return;
        }
        List<Segment> content = GitWidget.content(s);
        List<Segment> compact = GitWidget.compact(s);
        String wire = content + " " + compact;
        if (!wire.equals(shown)) {
            context.pushBar(BAR, content, compact);
            shown = wire;
        }
    }
}

package io.artuditu.modules.internal;

import io.artuditu.sdk.ActionHandler;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;

/**
 * One known module. Its fields change only under the manager's lock; readers see a
 * consistent manifest/state pair through {@link #view}.
 */
final class ModuleRecord {
    static final String SCRIPT = "script";
    static final String BUNDLE = "bundle";
    static final String ENABLED = "enabled";
    static final String DISABLED = "disabled";
    static final String FAILED = "failed";

    record View(Manifest manifest, String state, String error) {
    }

    final String id;
    final String kind;
    /** The folder (script) or the bundle's location file (bundle). */
    final Path path;
    final ModuleLog log;
    /** Panes {@code module.pane.open} opened for it. */
    final Set<String> panes = ConcurrentHashMap.newKeySet();
    /** Java action handlers a bundle module registered through its context. */
    final Map<String, ActionHandler> javaActions = new ConcurrentHashMap<>();
    /** Timers of periodic actions. */
    final List<ScheduledFuture<?>> timers = new CopyOnWriteArrayList<>();
    /** The running processes of its actions, destroyed at revocation. */
    final Set<Process> running = ConcurrentHashMap.newKeySet();
    /** Contribution problems already written to the log (each once). */
    final Set<String> reported = ConcurrentHashMap.newKeySet();
    /** Actions running now, so a periodic one never overlaps itself. */
    final Set<String> busy = ConcurrentHashMap.newKeySet();
    volatile long bundleId = -1;
    volatile ContextComponent context;
    private volatile View view;

    ModuleRecord(String id, String kind, Path path, Manifest manifest, String state, String error) {
        this.id = id;
        this.kind = kind;
        this.path = path;
        this.log = new ModuleLog(id);
        this.view = new View(manifest, state, error);
    }

    View view() {
        return view;
    }

    void set(Manifest manifest, String state, String error) {
        this.view = new View(manifest, state, error);
    }

    boolean enabled() {
        return ENABLED.equals(view.state());
    }
}

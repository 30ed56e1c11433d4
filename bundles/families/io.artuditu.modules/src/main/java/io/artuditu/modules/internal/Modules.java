package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.Workspaces;
import io.artuditu.sdk.ActionEvent;
import io.artuditu.sdk.ActionHandler;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.AtomicFiles;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.platform.ServerControl;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleException;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.component.runtime.dto.UnsatisfiedReferenceDTO;
import org.osgi.util.tracker.BundleTracker;
import org.osgi.util.tracker.BundleTrackerCustomizer;

/**
 * The module manager: every known module (script folders linked by path, bundles that
 * carry {@code META-INF/artuditu/module.toml}), its state, its actions, settings, panes and
 * log, and the ui store its widgets live in.
 *
 * <p>Persisted under {@code <home>/modules/}: {@code state.json} (links and disabled ids),
 * {@code settings.json}, {@code ui.json} (placements); module config folders under
 * {@code <home>/modules/data/<id>/}. The record map changes only under this object's lock;
 * bundle operations, revocation and actions run outside it (a bundle's state change calls
 * back into the tracker on another thread).
 */
@Component(service = Modules.class, immediate = true)
public final class Modules implements Directory {
    private static final Logger LOG = System.getLogger(Modules.class.getName());
    static final int MAX_MODULES = 128;
    static final long READY_WAIT_MS = 15_000;

    private final BundleContext context;
    private final Path dir;
    private final Path stateFile;
    private final Local local;
    private final ServerControl server;
    final UiStore ui;
    final Settings settings;
    final ActionRunner runner = new ActionRunner();
    private final ScheduledExecutorService timers;
    private final Map<String, ModuleRecord> records = new TreeMap<>();
    private final BundleTracker<ModuleRecord> tracker;
    /** Persisted: linked paths (folders and jars) and ids the operator disabled. */
    private final Set<String> links = new LinkedHashSet<>();
    private final Set<String> disabled = new LinkedHashSet<>();
    /** Module bundles whose manifest lacks the extensions scope: their UHP families are hidden. */
    private final Set<Long> noExtensions = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus bus;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile Workspaces workspaces;
    /** Declarative Services' own view, for what a bundle module's components failed to do. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile ServiceComponentRuntime scr;

    @Activate
    public Modules(BundleContext context, @Reference UhpDispatcher dispatcher, @Reference ServerControl server) {
        this.context = context;
        this.server = server;
        this.local = new Local(dispatcher);
        Path home = SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv());
        this.dir = home.resolve("modules");
        this.stateFile = dir.resolve("state.json");
        removeLeftovers(List.of(stateFile, dir.resolve("settings.json"), dir.resolve("ui.json")));
        this.settings = new Settings(dir.resolve("settings.json"));
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "modules-timer");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        this.timers = t;
        this.ui = new UiStore(this, new Events(), dir.resolve("ui.json"), System::currentTimeMillis, timers);
        loadState();
        for (String link : List.copyOf(links)) {
            if (!link.endsWith(".jar")) {
                adoptFolder(Path.of(link));
            }
        }
        this.tracker = new BundleTracker<>(context, Bundle.INSTALLED | Bundle.RESOLVED | Bundle.STARTING | Bundle.ACTIVE
                | Bundle.STOPPING, new Tracker());
        tracker.open();
        // Not here: a module bundle started inside this constructor would ask for its context
        // while this component is still being activated, and Declarative Services refuses that.
        // Script modules' first actions wait for the families they use (tokens, ui) too.
        List<String> jars = links.stream().filter(l -> l.endsWith(".jar")).toList();
        List<ModuleRecord> toStart;
        synchronized (this) {
            toStart = records.values().stream().filter(r -> r.kind.equals(ModuleRecord.SCRIPT) && r.enabled()).toList();
        }
        timers.execute(() -> {
            awaitPlatform();
            jars.forEach(j -> reinstall(Path.of(j)));
            toStart.stream().filter(ModuleRecord::enabled).forEach(this::started);
        });
    }

    /** At start-up, until the families an action needs are registered (at most {@link #READY_WAIT_MS}). */
    private void awaitPlatform() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_WAIT_MS);
        while (System.nanoTime() < deadline && !(local.has("uhp.token.create") && local.has("ui.bar.push"))) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Deactivate
    void deactivate() {
        tracker.close();
        List<ModuleRecord> all;
        synchronized (this) {
            all = List.copyOf(records.values());
        }
        for (ModuleRecord r : all) {
            revoke(r, false);
        }
        timers.shutdownNow();
        runner.close();
    }

    // ---- Directory ----

    @Override
    public synchronized Optional<Manifest> enabled(String moduleId) {
        ModuleRecord r = records.get(moduleId);
        return r != null && r.enabled() ? Optional.of(r.view().manifest()) : Optional.empty();
    }

    @Override
    public synchronized Collection<Manifest> enabledManifests() {
        return records.values().stream().filter(ModuleRecord::enabled).map(r -> r.view().manifest()).toList();
    }

    @Override
    public synchronized boolean known(String moduleId) {
        return records.containsKey(moduleId);
    }

    synchronized List<ModuleRecord> all() {
        return List.copyOf(records.values());
    }

    synchronized ModuleRecord get(String id) {
        ModuleRecord r = records.get(id);
        if (r == null) {
            throw UhpException.notFound("module", id, "id", "no module " + id + " (module.list shows the known ones)");
        }
        return r;
    }

    synchronized Optional<ModuleRecord> ofBundle(long bundleId) {
        return records.values().stream().filter(r -> r.bundleId == bundleId).findFirst();
    }

    /**
     * What a bundle module's components could not do, as Declarative Services reports it: a
     * component whose activation threw (with the exception) or that waits for a reference
     * nobody provides. Empty for a script module or when DS is away.
     */
    List<String> componentProblems(ModuleRecord r) {
        ServiceComponentRuntime rt = scr;
        Bundle b = r.bundleId < 0 ? null : context.getBundle(r.bundleId);
        if (b != null && b.getState() == Bundle.INSTALLED) {
            return List.of("its bundle does not resolve: a package or capability it needs is missing"
                    + " (server.bundle.start " + b.getBundleId() + " names it)");
        }
        if (rt == null || b == null || b.getState() != Bundle.ACTIVE) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (familyRefused(r.bundleId) && b.getRegisteredServices() != null
                && java.util.Arrays.stream(b.getRegisteredServices()).anyMatch(ref -> java.util.Arrays.asList(
                        (String[]) ref.getProperty("objectClass")).contains(io.artuditu.uhp.api.UhpFamily.class.getName()))) {
            out.add("it registers a UHP method family, but its manifest does not hold the extensions scope:"
                    + " its methods are not offered");
        }
        for (ComponentDescriptionDTO d : rt.getComponentDescriptionDTOs(b)) {
            if (!rt.isComponentEnabled(d)) {
                continue;
            }
            for (ComponentConfigurationDTO c : rt.getComponentConfigurationDTOs(d)) {
                if (c.state == ComponentConfigurationDTO.FAILED_ACTIVATION) {
                    out.add("component " + d.name + " failed to activate: " + firstLine(c.failure));
                } else if (c.state == ComponentConfigurationDTO.UNSATISFIED_REFERENCE) {
                    for (UnsatisfiedReferenceDTO u : c.unsatisfiedReferences) {
                        out.add("component " + d.name + " waits for its reference " + u.name
                                + (u.target == null ? "" : " " + u.target));
                    }
                }
            }
        }
        return out;
    }

    /** The root cause's line of a stack trace DS recorded (a constructor's exception comes wrapped). */
    private static String firstLine(String s) {
        if (s == null) {
            return "(no reason given)";
        }
        int cause = s.lastIndexOf("Caused by: ");
        String from = cause >= 0 ? s.substring(cause + "Caused by: ".length()) : s;
        int nl = from.indexOf('\n');
        return (nl < 0 ? from : from.substring(0, nl)).strip();
    }

    /** Whether a UHP family of this bundle must stay hidden (a module without the extensions scope). */
    boolean familyRefused(long bundleId) {
        return noExtensions.contains(bundleId);
    }

    private void gate(ModuleRecord r) {
        Manifest m = r.view().manifest();
        if (m == null || !(m.scopes().contains(Scope.EXTENSIONS) || m.scopes().contains(Scope.ALL))) {
            noExtensions.add(r.bundleId);
        } else {
            noExtensions.remove(r.bundleId);
        }
    }

    Path configDir(String id) throws IOException {
        Path p = dir.resolve("data").resolve(id);
        Files.createDirectories(p);
        return p;
    }

    Local local() {
        return local;
    }

    // ---- link / unlink / enable / disable ----

    /** {@code module.link}: a script folder or a bundle jar. */
    ModuleRecord link(String pathText, boolean enable) {
        Path p;
        try {
            p = Path.of(pathText);
        } catch (InvalidPathException e) {
            throw UhpException.invalid("path is not a valid path: " + pathText);
        }
        if (!p.isAbsolute()) {
            throw UhpException.invalid("path must be absolute: " + pathText);
        }
        Path real;
        try {
            real = p.toRealPath();
        } catch (IOException e) {
            throw UhpException.invalid("no such file or folder: " + pathText);
        }
        if (Files.isDirectory(real)) {
            return linkFolder(real, enable);
        }
        if (real.toString().endsWith(".jar") && Files.isRegularFile(real)) {
            return linkJar(real, enable);
        }
        throw UhpException.invalid(pathText + " is neither a module folder (holding module.toml) nor a bundle jar");
    }

    private ModuleRecord linkFolder(Path real, boolean enable) {
        Manifest m;
        try {
            m = Manifest.ofFolder(real);
        } catch (Manifest.Invalid e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "not linked: " + e.getMessage(), Map.of("path", "path"));
        }
        ModuleRecord r;
        synchronized (this) {
            refuseTaken(m.id(), real);
            if (enable) {
                disabled.remove(m.id());
            } else {
                disabled.add(m.id());
            }
            links.add(real.toString());
            saveState();
            r = new ModuleRecord(m.id(), ModuleRecord.SCRIPT, real, m, enable ? ModuleRecord.ENABLED : ModuleRecord.DISABLED,
                    null);
            records.put(m.id(), r);
        }
        r.log.info("linked from " + real + (enable ? " and enabled" : ""));
        changed(r);
        if (enable) {
            started(r);
        }
        return r;
    }

    private ModuleRecord linkJar(Path real, boolean enable) {
        Manifest m = jarManifest(real);
        String location = real.toUri().toString();
        synchronized (this) {
            refuseTaken(m.id(), real);
            if (context.getBundle(location) != null) {
                throw UhpException.invalid(real + " is already installed; use server.bundle.update to update it");
            }
            if (enable) {
                disabled.remove(m.id());
            } else {
                disabled.add(m.id());
            }
        }
        Bundle b;
        try (InputStream in = Files.newInputStream(real)) {
            b = context.installBundle(location, in);
        } catch (IOException | BundleException e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "not linked: the framework refused " + real + ": "
                    + e.getMessage());
        }
        if (enable) {
            try {
                b.start();
            } catch (BundleException e) {
                uninstallQuietly(b);
                throw new UhpException(ErrorCode.INVALID_REQUEST, "not linked: " + m.id() + " cannot start: "
                        + e.getMessage());
            }
        }
        synchronized (this) {
            links.add(real.toString());
            saveState();
        }
        return get(m.id());
    }

    /** The manifest inside a jar, checked before anything is installed (so an incompatible module is refused). */
    static Manifest jarManifest(Path jar) {
        try (JarFile j = new JarFile(jar.toFile())) {
            ZipEntry e = j.getEntry(Manifest.BUNDLE_ENTRY);
            if (e == null) {
                throw UhpException.invalid(jar + " is not a module: it carries no " + Manifest.BUNDLE_ENTRY);
            }
            if (e.getSize() > Manifest.MAX_BYTES) {
                throw UhpException.invalid(Manifest.BUNDLE_ENTRY + " is larger than " + Manifest.MAX_BYTES + " bytes");
            }
            try (InputStream in = j.getInputStream(e)) {
                return Manifest.parse(in.readNBytes(Manifest.MAX_BYTES + 1), null);
            }
        } catch (Manifest.Invalid e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "not linked: " + e.getMessage(), Map.of("path", "path"));
        } catch (IOException e) {
            throw UhpException.invalid(jar + " is not a readable jar: " + e.getMessage());
        }
    }

    private void refuseTaken(String id, Path real) {
        ModuleRecord other = records.get(id);
        if (other != null) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "module id " + id + " is already used by " + other.path
                    + " (module.unlink " + id + " first)", Map.of("id", id));
        }
        if (records.size() >= MAX_MODULES) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "at most " + MAX_MODULES + " modules", Map.of("limit",
                    MAX_MODULES));
        }
    }

    ModuleRecord unlink(String id) {
        ModuleRecord r = get(id);
        if (r.kind.equals(ModuleRecord.BUNDLE)) {
            Bundle b = context.getBundle(r.bundleId);
            revoke(r, true);
            if (b != null) {
                try {
                    b.uninstall();
                } catch (BundleException | IllegalStateException e) {
                    throw new UhpException(ErrorCode.INTERNAL_ERROR, "cannot uninstall " + id + ": " + e.getMessage());
                }
                refresh(b);
            }
        } else {
            revoke(r, true);
        }
        synchronized (this) {
            records.remove(id);
            links.remove(r.path.toString());
            disabled.remove(id);
            saveState();
        }
        r.log.info("unlinked");
        if (r.kind.equals(ModuleRecord.SCRIPT)) {
            // a bundle module's event comes from the tracker, when its bundle is gone
            publish("module.changed", Local.JSON.createObjectNode().put("id", id).put("state", "unlinked"));
        }
        return r;
    }

    ModuleRecord enable(String id) {
        ModuleRecord r = get(id);
        synchronized (this) {
            disabled.remove(id);
            saveState();
        }
        if (r.kind.equals(ModuleRecord.BUNDLE)) {
            Bundle b = context.getBundle(r.bundleId);
            try {
                b.start();
            } catch (BundleException | IllegalStateException e) {
                fail(r, "cannot start its bundle: " + e.getMessage());
            }
            return r;
        }
        revoke(r, false);
        Manifest m;
        try {
            m = Manifest.ofFolder(r.path);
        } catch (Manifest.Invalid e) {
            fail(r, e.getMessage());
            return r;
        }
        if (!m.id().equals(r.id)) {
            fail(r, "module.toml now says id = \"" + m.id() + "\"; unlink and link it again to rename it");
            return r;
        }
        r.set(m, ModuleRecord.ENABLED, null);
        r.log.info("enabled (version " + m.version() + ")");
        changed(r);
        started(r);
        return r;
    }

    ModuleRecord disable(String id) {
        ModuleRecord r = get(id);
        synchronized (this) {
            disabled.add(id);
            saveState();
        }
        if (r.kind.equals(ModuleRecord.BUNDLE)) {
            Bundle b = context.getBundle(r.bundleId);
            try {
                b.stop();
            } catch (BundleException | IllegalStateException e) {
                fail(r, "cannot stop its bundle: " + e.getMessage());
            }
            return r;
        }
        revoke(r, true);
        r.set(r.view().manifest(), ModuleRecord.DISABLED, null);
        r.log.info("disabled");
        changed(r);
        return r;
    }

    private void fail(ModuleRecord r, String why) {
        revoke(r, true);
        r.set(r.view().manifest(), ModuleRecord.FAILED, why);
        r.log.error("failed: " + why);
        changed(r);
    }

    /** A script module just enabled: its periodic actions and its on_enable action. */
    private void started(ModuleRecord r) {
        Manifest m = r.view().manifest();
        for (Manifest.Action a : m.actions().values()) {
            if (a.everyMs() > 0) {
                r.timers.add(timers.scheduleWithFixedDelay(() -> background(r, a.id(), true), a.everyMs(), a.everyMs(),
                        TimeUnit.MILLISECONDS));
            }
        }
        if (m.onEnable() != null) {
            background(r, m.onEnable(), false);
        }
    }

    /**
     * Starts an action nobody waits for. A periodic run ({@code skipBusy}) never overlaps
     * itself; an {@code on_enable} run always starts, even while the run of the previous
     * enabling is still being killed.
     */
    private void background(ModuleRecord r, String action, boolean skipBusy) {
        if (!r.enabled() || skipBusy && r.busy.contains(action)) {
            return;
        }
        try {
            invoke(r.id, action, new ActionEvent(action, null, null, -1, null), false);
        } catch (UhpException e) {
            r.log.warn("action " + action + " not started: " + e.getMessage());
        }
    }

    /**
     * Everything the module holds, let go: timers, running actions, widgets, docks,
     * notifications, panes it opened and (for a bundle) its context's threads,
     * subscriptions and scheduler. {@code closePanes} is false only when the server stops
     * (the panes then outlive the module bundle, as every PTY does).
     */
    void revoke(ModuleRecord r, boolean closePanes) {
        r.timers.forEach(f -> f.cancel(true));
        r.timers.clear();
        r.running.forEach(ActionRunner::kill);
        int cleared = ui.clearOwner(r.id);
        ContextComponent ctx = r.context;
        if (ctx != null) {
            ctx.revoke();
        }
        r.javaActions.clear();
        if (closePanes) {
            for (String pane : List.copyOf(r.panes)) {
                try {
                    local.call("pane.close", Local.JSON.createObjectNode().put("pane", pane), null);
                } catch (UhpException gone) {
                    // already closed
                }
                r.panes.remove(pane);
            }
        }
        if (cleared > 0) {
            r.log.info("cleared " + cleared + " widgets, docks and notifications");
        }
    }

    // ---- actions ----

    /** {@code module.action.invoke}, and every click and timer. */
    CompletableFuture<ActionRunner.Result> invokeAsync(String id, String action, ActionEvent event) {
        ModuleRecord r = get(id);
        if (!r.enabled()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "module " + id + " is " + r.view().state(),
                    Map.of("state", r.view().state()));
        }
        Manifest m = r.view().manifest();
        Manifest.Action a = m.actions().get(action);
        if (a == null) {
            throw UhpException.notFound("action", action, "action", "module " + id + " declares no action " + action);
        }
        ActionHandler java = r.javaActions.get(action);
        if (a.run() == null && java == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "module " + id + " has not registered a handler for "
                    + action + " yet");
        }
        Map<String, String> env = a.run() == null ? Map.of() : environment(r, m, a, event);
        r.busy.add(action);
        CompletableFuture<ActionRunner.Result> f;
        try {
            f = runner.submit(() -> {
                try {
                    return a.run() != null ? runner.runScript(r, a, r.path, env)
                            : runner.runJava(r.context, java, event, a.timeoutMs());
                } finally {
                    revokeToken(env.get("ARTUDITU_TOKEN_ID"));
                }
            });
        } catch (UhpException e) {
            r.busy.remove(action);
            revokeToken(env.get("ARTUDITU_TOKEN_ID"));
            throw e;
        }
        return f.whenComplete((res, err) -> {
            r.busy.remove(action);
            finished(r, action, res, err);
        });
    }

    ActionRunner.Result invoke(String id, String action, ActionEvent event, boolean wait) {
        CompletableFuture<ActionRunner.Result> f = invokeAsync(id, action, event);
        if (!wait) {
            return null;
        }
        try {
            return f.get(Manifest.MAX_TIMEOUT_MS + 5_000L, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "interrupted while waiting for the action");
        } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "the action did not finish: " + e);
        }
    }

    private void finished(ModuleRecord r, String action, ActionRunner.Result res, Throwable err) {
        ObjectNode ev = Local.JSON.createObjectNode().put("module", r.id).put("action", action);
        if (res == null) {
            r.log.error("action " + action + " failed: " + err);
            ev.putNull("exit_code").put("timed_out", false);
        } else {
            StringBuilder s = new StringBuilder("action ").append(action);
            if (res.timedOut()) {
                s.append(" killed after its timeout");
            } else if (res.error() != null) {
                s.append(" failed: ").append(res.error());
            } else {
                s.append(" exited ").append(res.exitCode());
            }
            s.append(" in ").append(res.durationMs()).append(" ms");
            if (res.outputBytes() > 0) {
                s.append("; ").append(res.outputBytes()).append(" bytes of output").append(res.truncated() ? " (tail kept)" : "")
                        .append(":\n").append(tail(res.output(), 2048));
            }
            boolean bad = res.timedOut() || res.error() != null || res.exitCode() == null || res.exitCode() != 0;
            r.log.add(bad ? "error" : "info", s.toString());
            if (res.exitCode() == null) {
                ev.putNull("exit_code");
            } else {
                ev.put("exit_code", res.exitCode());
            }
            ev.put("timed_out", res.timedOut());
        }
        publish("module.action.finished", ev);
    }

    static String tail(String s, int max) {
        return s.length() <= max ? s : "…" + s.substring(s.length() - max);
    }

    private Map<String, String> environment(ModuleRecord r, Manifest m, Manifest.Action a, ActionEvent e) {
        Map<String, String> env = new HashMap<>();
        env.put("ARTUDITU_MODULE_ID", r.id);
        env.put("ARTUDITU_MODULE_ACTION_ID", a.id());
        putIf(env, "ARTUDITU_MODULE_ROW_VALUE", e.rowValue());
        putIf(env, "ARTUDITU_MODULE_BAR_ID", e.barId());
        if (e.barSegment() >= 0) {
            env.put("ARTUDITU_MODULE_BAR_SEGMENT", Integer.toString(e.barSegment()));
        }
        putIf(env, "ARTUDITU_MODULE_BAR_VALUE", e.barValue());
        env.put("ARTUDITU_SOCKET_PATH", server.socketPath().toString());
        env.put("ARTUDITU_MODULE_DIR", r.path.toString());
        try {
            env.put("ARTUDITU_MODULE_CONFIG_DIR", configDir(r.id).toString());
        } catch (IOException ignored) {
            // the action still runs; module.config_dir reports the problem
        }
        String cli = System.getenv("ARTUDITU_CLI");
        if (cli != null) {
            env.put("ARTUDITU_CLI", cli);
            Path bin = Path.of(cli).getParent();
            if (bin != null) {
                env.put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            }
        }
        if (!m.scopes().contains(Scope.ALL)) {
            ObjectNode p = Local.JSON.createObjectNode();
            ArrayNode s = p.putArray("scopes");
            m.scopes().forEach(x -> s.add(x.wire()));
            p.put("ttl_s", Math.max(1, (a.timeoutMs() + 999) / 1000 + 5));
            JsonNode tok;
            try {
                tok = local.call("uhp.token.create", p, null);
            } catch (UhpException ex) {
                throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "cannot create the action's token: " + ex.getMessage());
            }
            env.put("ARTUDITU_TOKEN", tok.path("secret").asText());
            env.put("ARTUDITU_TOKEN_ID", tok.path("id").asText());
        }
        return env;
    }

    private void revokeToken(String id) {
        if (id != null) {
            try {
                local.call("uhp.token.revoke", Local.JSON.createObjectNode().put("id", id), null);
            } catch (UhpException expired) {
                // already gone
            }
        }
    }

    private static void putIf(Map<String, String> env, String k, String v) {
        if (v != null) {
            env.put(k, v);
        }
    }

    // ---- panes ----

    String openPane(String id, List<String> command, String cwd, String workspaceId, boolean focus,
            java.util.OptionalLong ifRevision) throws IOException {
        ModuleRecord r = get(id);
        if (!r.enabled()) {
            throw UhpException.invalid("module " + id + " is " + r.view().state());
        }
        Workspaces w = workspaces;
        if (w == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the workspace model is not running");
        }
        Path dirPath = null;
        if (cwd != null) {
            dirPath = Path.of(cwd);
            if (!dirPath.isAbsolute() || !Files.isDirectory(dirPath)) {
                throw UhpException.invalid("cwd must be an existing absolute folder: " + cwd);
            }
        }
        PaneInfo p;
        try {
            p = w.open(new PaneRequest(workspaceId, command, dirPath, Map.of("ARTUDITU_MODULE_ID", id), 80, 24, focus),
                    ifRevision);
        } catch (IllegalArgumentException e) {
            throw UhpException.invalid(e.getMessage());
        }
        r.panes.add(p.id());
        r.log.info("opened pane " + p.id());
        return p.id();
    }

    void ownPane(String id, String pane) {
        ModuleRecord r = get(id);
        if (!r.panes.contains(pane)) {
            throw UhpException.notFound("pane", pane, "pane", "module " + id + " did not open pane " + pane);
        }
        Workspaces w = workspaces;
        if (w != null && w.pane(pane).isEmpty()) {
            r.panes.remove(pane);
            throw UhpException.notFound("pane", pane, "pane", "pane " + pane + " is closed");
        }
    }

    // ---- bundles ----

    private void reinstall(Path jar) {
        String location = jar.toUri().toString();
        if (context.getBundle(location) != null) {
            return;
        }
        try {
            Manifest m = jarManifest(jar);
            Bundle b;
            try (InputStream in = Files.newInputStream(jar)) {
                b = context.installBundle(location, in);
            }
            if (!disabled.contains(m.id())) {
                b.start();
            }
        } catch (IOException | BundleException | UhpException e) {
            LOG.log(Level.WARNING, "linked module " + jar + " was not installed again: " + e.getMessage());
        }
    }

    private void refresh(Bundle b) {
        try {
            context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(b));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "refresh after uninstalling " + b.getSymbolicName() + " failed: " + e);
        }
    }

    private static void uninstallQuietly(Bundle b) {
        try {
            b.uninstall();
        } catch (BundleException | IllegalStateException e) {
            LOG.log(Level.WARNING, "cannot uninstall " + b.getSymbolicName() + ": " + e.getMessage());
        }
    }

    /** Bundles carrying a module manifest become bundle modules; their state follows the bundle's. */
    private final class Tracker implements BundleTrackerCustomizer<ModuleRecord> {
        @Override
        public ModuleRecord addingBundle(Bundle bundle, BundleEvent event) {
            java.net.URL entry = bundle.getEntry(Manifest.BUNDLE_ENTRY);
            if (entry == null) {
                return null;
            }
            Manifest m = null;
            String error = null;
            String id;
            try (InputStream in = entry.openStream()) {
                m = Manifest.parse(in.readNBytes(Manifest.MAX_BYTES + 1), null);
                id = m.id();
            } catch (IOException | Manifest.Invalid e) {
                error = e.getMessage();
                id = bundle.getSymbolicName();
            }
            ModuleRecord r;
            synchronized (Modules.this) {
                ModuleRecord other = records.get(id);
                if (other != null && other.bundleId != bundle.getBundleId()) {
                    LOG.log(Level.WARNING, "bundle " + bundle.getSymbolicName() + " declares module id " + id
                            + ", already used by " + other.path + "; ignored");
                    return null;
                }
                r = new ModuleRecord(id, ModuleRecord.BUNDLE, Path.of(bundle.getLocation().replaceFirst("^file:", "")),
                        m, error != null ? ModuleRecord.FAILED : stateOf(bundle), error);
                r.bundleId = bundle.getBundleId();
                records.put(id, r);
                gate(r);
            }
            r.log.info("bundle " + bundle.getSymbolicName() + " " + bundle.getVersion() + " is " + r.view().state()
                    + (error != null ? ": " + error : ""));
            changed(r);
            return r;
        }

        @Override
        public void modifiedBundle(Bundle bundle, BundleEvent event, ModuleRecord r) {
            String before = r.view().state();
            if (event != null && event.getType() == BundleEvent.UPDATED) {
                revoke(r, true);
                r.log.info("updated to " + bundle.getVersion());
                reread(bundle, r);
            }
            if (r.view().manifest() == null) {
                return;
            }
            String now = stateOf(bundle);
            if (ModuleRecord.FAILED.equals(before) && event != null && event.getType() != BundleEvent.STARTED) {
                return;
            }
            if (!now.equals(before)) {
                if (!now.equals(ModuleRecord.ENABLED)) {
                    revoke(r, true);
                }
                r.set(r.view().manifest(), now, null);
                r.log.info(now);
                changed(r);
            }
        }

        @Override
        public void removedBundle(Bundle bundle, BundleEvent event, ModuleRecord r) {
            revoke(r, bundle.getState() == Bundle.UNINSTALLED);
            noExtensions.remove(bundle.getBundleId());
            synchronized (Modules.this) {
                if (records.get(r.id) == r) {
                    records.remove(r.id);
                }
            }
            publish("module.changed", Local.JSON.createObjectNode().put("id", r.id).put("state", "unlinked"));
        }

        private void reread(Bundle bundle, ModuleRecord r) {
            java.net.URL entry = bundle.getEntry(Manifest.BUNDLE_ENTRY);
            try (InputStream in = entry.openStream()) {
                Manifest m = Manifest.parse(in.readNBytes(Manifest.MAX_BYTES + 1), null);
                r.set(m, r.view().state(), null);
                gate(r);
            } catch (IOException | Manifest.Invalid | NullPointerException e) {
                r.set(r.view().manifest(), ModuleRecord.FAILED, String.valueOf(e.getMessage()));
            }
        }
    }

    private static String stateOf(Bundle b) {
        return b.getState() == Bundle.ACTIVE || b.getState() == Bundle.STARTING ? ModuleRecord.ENABLED
                : ModuleRecord.DISABLED;
    }

    // ---- persistence ----

    private void adoptFolder(Path folder) {
        Manifest m;
        try {
            m = Manifest.ofFolder(folder);
        } catch (Manifest.Invalid e) {
            String id = folder.getFileName().toString().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
            ModuleRecord r = new ModuleRecord(id, ModuleRecord.SCRIPT, folder, null, ModuleRecord.FAILED, e.getMessage());
            r.log.error("failed: " + e.getMessage());
            records.putIfAbsent(id, r);
            return;
        }
        if (records.containsKey(m.id())) {
            LOG.log(Level.WARNING, folder + " declares module id " + m.id() + ", already used; ignored");
            return;
        }
        boolean on = !disabled.contains(m.id());
        ModuleRecord r = new ModuleRecord(m.id(), ModuleRecord.SCRIPT, folder, m,
                on ? ModuleRecord.ENABLED : ModuleRecord.DISABLED, null);
        records.put(m.id(), r);
        r.log.info("loaded from " + folder + " (" + r.view().state() + ")");
    }

    /**
     * What interrupted writes of this folder's files left beside them (temporary files of
     * {@link AtomicFiles}), and nothing else; before the files are read. A failure is logged.
     */
    private static void removeLeftovers(List<Path> files) {
        for (Path f : files) {
            try {
                AtomicFiles.removeLeftovers(f);
            } catch (IOException e) {
                LOG.log(Level.WARNING, "cannot look for temporary files beside " + f + ": " + e.getMessage());
            }
        }
    }

    private void loadState() {
        try {
            if (!Files.isRegularFile(stateFile) || Files.size(stateFile) > Settings.MAX_FILE_BYTES) {
                return;
            }
            JsonNode n = Local.JSON.readTree(stateFile.toFile());
            n.path("links").forEach(x -> links.add(x.asText()));
            n.path("disabled").forEach(x -> disabled.add(x.asText()));
        } catch (IOException e) {
            LOG.log(Level.WARNING, stateFile + " is unreadable; starting with no linked modules: " + e.getMessage());
        }
    }

    private void saveState() {
        ObjectNode n = Local.JSON.createObjectNode();
        links.forEach(n.putArray("links")::add);
        disabled.forEach(n.putArray("disabled")::add);
        try {
            Files.createDirectories(dir);
            AtomicFiles.write(stateFile, Local.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(n));
        } catch (IOException e) {
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "cannot save " + stateFile + ": " + e.getMessage());
        }
    }

    // ---- events ----

    private void changed(ModuleRecord r) {
        ObjectNode d = Local.JSON.createObjectNode().put("id", r.id).put("state", r.view().state()).put("kind", r.kind);
        if (r.view().error() != null) {
            d.put("error", r.view().error());
        }
        publish("module.changed", d);
    }

    void publish(String event, ObjectNode data) {
        EventBus b = bus;
        if (b != null) {
            try {
                b.publish(event, data);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cannot publish " + event + ": " + e);
            }
        }
    }

    void observe(String event, ObjectNode data) {
        EventBus b = bus;
        if (b != null) {
            try {
                b.publishObservation(event, data);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cannot publish " + event + ": " + e);
            }
        }
    }

    private final class Events implements UiStore.Listener {
        @Override
        public void barChanged(String owner, String id) {
            observe("ui.bar.changed", Local.JSON.createObjectNode().put("key", owner + "/" + id).put("owner", owner)
                    .put("id", id));
        }

        @Override
        public void dockChanged(String owner, String id) {
            observe("ui.dock.changed", Local.JSON.createObjectNode().put("id", id).put("owner", owner));
        }

        @Override
        public void notificationsChanged() {
            observe("ui.notification.changed", Local.JSON.createObjectNode());
        }
    }
}

package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.sdk.ActionHandler;
import io.artuditu.sdk.ModuleContext;
import io.artuditu.sdk.Notification;
import io.artuditu.sdk.Row;
import io.artuditu.sdk.Segment;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.Subscription;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.service.component.ComponentContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ServiceScope;

/**
 * The {@link ModuleContext} a bundle module gets: one instance per using bundle (bundle
 * scope), bound to the module its manifest declares. Everything handed out is tracked and
 * revoked when the module bundle stops (the framework ungets the service), when the
 * module is disabled, or when this bundle goes away.
 */
@Component(service = ModuleContext.class, scope = ServiceScope.BUNDLE)
public final class ContextComponent implements ModuleContext {
    static final long JOIN_MS = 1_000;

    private final Modules modules;
    private final ModuleRecord record;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> subscriptions = new CopyOnWriteArrayList<>();
    private final List<Runnable> settingsListeners = new CopyOnWriteArrayList<>();
    private final ScheduledThreadPoolExecutor scheduler;
    private volatile boolean active = true;

    @Activate
    public ContextComponent(@Reference Modules modules, ComponentContext cc) {
        this.modules = modules;
        Bundle using = cc.getUsingBundle();
        this.record = modules.ofBundle(using.getBundleId()).filter(r -> r.view().manifest() != null)
                .orElseThrow(() -> new IllegalStateException("bundle " + using.getSymbolicName()
                        + " is not a module: it carries no valid " + Manifest.BUNDLE_ENTRY));
        String id = record.id;
        this.scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "module-" + id + "-scheduler");
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        record.context = this;
        record.log.info("context acquired by " + using.getSymbolicName());
    }

    @Deactivate
    void deactivate() {
        revoke();
    }

    /** Idempotent: let go of everything, wait briefly for threads to end. */
    void revoke() {
        if (!active) {
            return;
        }
        active = false;
        if (record.context == this) {
            record.context = null;
        }
        record.javaActions.clear();
        for (AutoCloseable s : subscriptions) {
            try {
                s.close();
            } catch (Exception ignored) {
                // closing is best effort
            }
        }
        subscriptions.clear();
        scheduler.shutdownNow();
        for (Thread t : threads) {
            t.interrupt();
        }
        try {
            scheduler.awaitTermination(JOIN_MS, TimeUnit.MILLISECONDS);
            for (Thread t : threads) {
                t.join(JOIN_MS);
                if (t.isAlive()) {
                    record.log.error("thread " + t.getName() + " did not end within " + JOIN_MS + " ms of revocation");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        threads.clear();
        modules.ui.clearOwner(record.id);
        record.log.info("context revoked");
    }

    private void live() {
        if (!active) {
            throw new IllegalStateException("the context of module " + record.id + " was revoked");
        }
    }

    @Override
    public String moduleId() {
        return record.id;
    }

    @Override
    public Path configDir() {
        live();
        try {
            return modules.configDir(record.id);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public JsonNode setting(String key) {
        live();
        Manifest.Setting s = record.view().manifest().settings().get(key);
        if (s == null) {
            throw new IllegalArgumentException("module " + record.id + " declares no setting " + key);
        }
        return modules.settings.get(record.id, s);
    }

    @Override
    public void onSettingsChanged(Runnable listener) {
        live();
        settingsListeners.add(listener);
    }

    void settingsChanged() {
        for (Runnable r : settingsListeners) {
            if (active) {
                scheduler.execute(r);
            }
        }
    }

    @Override
    public boolean pushBar(String widgetId, List<Segment> content, List<Segment> compactContent) {
        live();
        ArrayNode c = array(content);
        ArrayNode cc = compactContent == null ? null : array(compactContent);
        return (Boolean) modules.ui.pushBar(record.id, widgetId, null, c, cc, null)[0];
    }

    private static ArrayNode array(List<Segment> segs) {
        ArrayNode a = Local.JSON.createArrayNode();
        segs.forEach(s -> a.add(s.toJson()));
        return a;
    }

    @Override
    public boolean removeBar(String widgetId) {
        live();
        return modules.ui.removeBar(record.id, widgetId);
    }

    @Override
    public void pushDock(String dockId, String title, List<Row> rows) {
        live();
        ArrayNode a = Local.JSON.createArrayNode();
        rows.forEach(r -> a.add(r.toJson()));
        modules.ui.pushDock(record.id, dockId, title, null, a);
    }

    @Override
    public void notify(Notification n) {
        live();
        modules.ui.pushNotification(record.id, n.text(), n.level(), n.ttlMs() == 0 ? null : n.ttlMs(), n.action(),
                n.value(), n.dedupeKey());
    }

    @Override
    public int clearNotifications(String dedupeKey) {
        live();
        return modules.ui.clearNotifications(record.id, dedupeKey);
    }

    @Override
    public void toast(String text) {
        live();
        call("ui.toast", Local.JSON.createObjectNode().put("text", text));
    }

    @Override
    public void onAction(String actionId, ActionHandler handler) {
        live();
        if (!record.view().manifest().actions().containsKey(actionId)) {
            throw new IllegalArgumentException("module " + record.id + " declares no action " + actionId);
        }
        record.javaActions.put(actionId, handler);
    }

    @Override
    public JsonNode call(String method, ObjectNode params) {
        live();
        String secret = null;
        String tokenId = null;
        Set<io.artuditu.uhp.api.Scope> scopes = record.view().manifest().scopes();
        if (!scopes.contains(io.artuditu.uhp.api.Scope.ALL)) {
            ObjectNode p = Local.JSON.createObjectNode();
            ArrayNode s = p.putArray("scopes");
            scopes.forEach(x -> s.add(x.wire()));
            p.put("ttl_s", 60);
            JsonNode tok = modules.local().call("uhp.token.create", p, null);
            secret = tok.path("secret").asText();
            tokenId = tok.path("id").asText();
        }
        try {
            return modules.local().call(method, params, secret);
        } finally {
            if (tokenId != null) {
                try {
                    modules.local().call("uhp.token.revoke", Local.JSON.createObjectNode().put("id", tokenId), null);
                } catch (UhpException gone) {
                    // expired already
                }
            }
        }
    }

    @Override
    public String openPane(ObjectNode params) {
        live();
        List<String> command = new ArrayList<>();
        params.path("command").forEach(c -> command.add(c.asText()));
        try {
            return modules.openPane(record.id, command, params.hasNonNull("cwd") ? params.get("cwd").asText() : null,
                    params.hasNonNull("workspace_id") ? params.get("workspace_id").asText() : null,
                    params.path("focus").asBoolean(true), OptionalLong.empty());
        } catch (IOException e) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, e.getMessage());
        }
    }

    @Override
    public AutoCloseable subscribe(Set<String> events, Consumer<JsonNode> listener) {
        live();
        EventBus bus = modules.bus;
        if (bus == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the event bus is not running");
        }
        Subscription sub = bus.subscribe(OptionalLong.empty(), events);
        Thread t = startThread("events", () -> {
            try {
                for (byte[] line = sub.take(); line != null; line = sub.take()) {
                    try {
                        listener.accept(Local.JSON.readTree(line));
                    } catch (RuntimeException | IOException e) {
                        record.log.error("event listener threw " + e);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                sub.close();
            }
        });
        AutoCloseable handle = () -> {
            sub.close();
            t.interrupt();
        };
        subscriptions.add(handle);
        return handle;
    }

    @Override
    public ScheduledExecutorService scheduler() {
        live();
        return scheduler;
    }

    @Override
    public Thread startThread(String name, Runnable body) {
        live();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (RuntimeException e) {
                record.log.error("thread " + name + " threw " + e);
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, "module-" + record.id + "-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return t;
    }

    @Override
    public void log(String message) {
        record.log.info(message);
    }

    @Override
    public boolean active() {
        return active;
    }
}

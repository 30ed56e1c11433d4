package io.artuditu.example.panedock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.sdk.ActionHandler;
import io.artuditu.sdk.ModuleContext;
import io.artuditu.sdk.Row;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;

/**
 * A {@link ModuleContext} for unit tests, without a server: it records what the module
 * registers, calls and pushes, answers {@link ModuleContext#call} from a function, runs
 * {@code scheduler().execute} at once and keeps scheduled tasks without running them (a
 * test calls the module's methods itself). Built with {@link Proxy}, so a method the
 * SDK adds later needs no change here; an unexpected one fails the test.
 */
final class FakeContext {
    final Map<String, ActionHandler> actions = new HashMap<>();
    final List<Set<?>> subscriptions = new ArrayList<>();
    final List<String> calls = new ArrayList<>();
    final List<List<Row>> docks = new ArrayList<>();
    final List<Runnable> scheduled = new ArrayList<>();
    final ModuleContext context;

    @SuppressWarnings("unchecked")
    FakeContext(String moduleId, Function<String, JsonNode> answers) {
        ScheduledExecutorService scheduler = (ScheduledExecutorService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {ScheduledExecutorService.class}, (p, m, a) -> {
                    switch (m.getName()) {
                        case "execute":
                            ((Runnable) a[0]).run();
                            return null;
                        case "schedule":
                        case "scheduleWithFixedDelay":
                        case "scheduleAtFixedRate":
                            scheduled.add((Runnable) a[0]);
                            return null;
                        default:
                            throw new UnsupportedOperationException("scheduler." + m.getName());
                    }
                });
        context = (ModuleContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ModuleContext.class}, (p, m, a) -> {
                    switch (m.getName()) {
                        case "moduleId":
                            return moduleId;
                        case "active":
                            return true;
                        case "scheduler":
                            return scheduler;
                        case "onAction":
                            actions.put((String) a[0], (ActionHandler) a[1]);
                            return null;
                        case "subscribe":
                            subscriptions.add((Set<?>) a[0]);
                            return (AutoCloseable) () -> { };
                        case "call":
                            calls.add(a[0] + " " + a[1]);
                            return answers.apply((String) a[0]);
                        case "pushDock":
                            docks.add((List<Row>) a[2]);
                            return null;
                        case "log":
                            return null;
                        default:
                            throw new UnsupportedOperationException("context." + m.getName());
                    }
                });
    }

    static ObjectNode ok() {
        return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("type", "ok");
    }
}

package io.artuditu.diff.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.api.AgentStates;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Targets;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.platform.BasicCall;
import io.artuditu.vt.TerminalScreens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The diff family over an in-memory {@link Workspaces} (nothing spawns: a pane records its
 * launch command), a recording event bus, agent states the test sets, and terminal screens
 * that keep what was written. Calls are checked against the contract like the dispatcher does.
 */
final class Harness implements Workspaces, AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    final AtomicLong ids = new AtomicLong();
    Topology state = Topology.empty();
    final List<ObjectNode> events = new CopyOnWriteArrayList<>();
    final Map<String, String> agentOf = new HashMap<>();
    final Set<String> exited = new HashSet<>();
    final Map<String, ByteArrayOutputStream> typed = new HashMap<>();
    final Map<String, List<String>> launched = new HashMap<>();
    final Map<String, UhpMethod> methods = new HashMap<>();
    final DiffFamily family;
    private List<String> nextCommand = List.of("sh");

    Harness(Path home) {
        this(home, Map.of("ARTUDITU_CLI", "/opt/artu"), true);
    }

    Harness(Path home, Map<String, String> env, boolean watch) {
        family = new DiffFamily(this, env, home, () -> bus, () -> agents, () -> screens, watch);
        family.methods().forEach(m -> methods.put(m.name(), m));
    }

    final Spawner spawner = new Spawner() {
        @Override
        public Pane spawn(String id, String ws, Path cwd) {
            launched.put(id, nextCommand);
            return new Pane(id, "term_" + id, cwd, nextCommand, null, null);
        }

        @Override
        public Spawner with(Launch launch) {
            Spawner self = this;
            return new Spawner() {
                @Override
                public Pane spawn(String id, String ws, Path cwd) {
                    launched.put(id, launch.command());
                    return new Pane(id, "term_" + id, cwd, launch.command(), null, null);
                }

                @Override
                public String newId() {
                    return self.newId();
                }
            };
        }

        @Override
        public String newId() {
            return String.format("%016x", ids.incrementAndGet());
        }
    };

    final AgentStates agents = new AgentStates() {
        @Override
        public Optional<AgentState> state(String paneId) {
            String a = agentOf.get(paneId);
            return a == null ? Optional.empty() : Optional.of(new AgentState(a, "idle", "screen", 1));
        }

        @Override
        public Map<String, Long> counters() {
            return Map.of();
        }
    };

    final TerminalScreens screens = new TerminalScreens() {
        @Override
        public <T> Optional<T> read(String terminalId, Function<io.artuditu.vt.Terminal, T> reader) {
            return Optional.of(reader.apply(io.artuditu.vt.Terminal.create(80, 24)));
        }

        @Override
        public AutoCloseable watch(Consumer<String> changed) {
            return () -> { };
        }

        @Override
        public AutoCloseable watchInput(Consumer<String> typedBy) {
            return () -> { };
        }

        @Override
        public void write(String terminalId, byte[] bytes) {
            typed.computeIfAbsent(terminalId, k -> new ByteArrayOutputStream()).writeBytes(bytes);
        }
    };

    final EventBus bus = new EventBus() {
        final AtomicLong seq = new AtomicLong();

        @Override
        public long publish(String event, ObjectNode data) {
            ObjectNode e = JSON.createObjectNode().put("event", event);
            e.set("data", data.deepCopy());
            events.add(e);
            return seq.incrementAndGet();
        }

        @Override
        public long sequence() {
            return seq.get();
        }

        @Override
        public Subscription subscribe(OptionalLong afterSequence, Set<String> names) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EventWaiter await(String event, ObjectNode where, OptionalLong afterSequence) {
            throw new UnsupportedOperationException();
        }
    };

    /** Opens a workspace on {@code folder}; returns its id. */
    String workspace(Path folder) throws IOException {
        return change(OptionalLong.empty(), (s, sp) -> Lifecycle.of(sp).openWorkspace(s, folder, null, sp));
    }

    /** Sets one metadata value of a workspace, as workspace.report_metadata does. */
    void metadata(String wsId, String key, Object value) {
        Workspace w = state.requireWorkspace(wsId);
        Map<String, Object> m = new HashMap<>(w.metadata());
        m.put(key, value);
        state = state.withWorkspace(state.workspaceIndex(wsId), new Workspace(w.id(), w.name(), w.cwd(), w.pinned(), w.tabs(),
                w.activeTab(), m));
    }

    ObjectNode call(String method, String params) {
        ObjectNode p;
        try {
            p = (ObjectNode) JSON.readTree(params);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        UhpMethod m = methods.get(method);
        if (m == null) {
            fail("no handler for " + method);
        }
        Optional<JsonSchema.Violation> bad = m.paramsSchema().validate(p, "params");
        if (bad.isPresent()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, bad.get().toString(), Map.of("field", bad.get().field()));
        }
        Target t = Targets.resolve(state, m.target(), p, null, id -> Map.of());
        ObjectNode r = m.handler().handle(BasicCall.of(m.name(), p).resolved(t, Map.of()));
        if (m.carriesRevision()) {
            r.put("revision", 0);
        }
        Optional<JsonSchema.Violation> wrong = m.resultSchema().validate(r, "result");
        wrong.ifPresent(v -> fail(method + " result breaks its schema: " + v + " in " + r));
        return r;
    }

    /** Asserts a refusal with {@code code}; returns it. */
    UhpException reject(ErrorCode code, String method, String params) {
        UhpException e = assertThrows(UhpException.class, () -> call(method, params), method + " " + params);
        assertEquals(code, e.code(), method + " " + params + ": " + e.getMessage() + " " + e.details());
        return e;
    }

    List<ObjectNode> events(String name) {
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode e : events) {
            if (e.get("event").asText().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public void close() {
        family.deactivate();
    }

    @Override
    public Topology topology() {
        return state;
    }

    @Override
    public synchronized <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException {
        Change<T> c = operation.apply(state, spawner);
        state = c.state();
        return c.result();
    }

    @Override
    public PaneInfo open(PaneRequest request, OptionalLong ifRevision) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PaneInfo> pane(String paneId) {
        Pane p = state.panes().get(paneId);
        if (p == null) {
            return Optional.empty();
        }
        String ws = state.locate(paneId).map(l -> l.workspace().id()).orElse(null);
        return Optional.of(new PaneInfo(p.id(), p.terminalId(), ws, p.command(), p.cwd(), p.name(), null, 1, 0));
    }

    @Override
    public Optional<PaneExit> exited(String paneId) {
        return exited.contains(paneId) ? Optional.of(new PaneExit("term_" + paneId, 0, 0)) : Optional.empty();
    }

    @Override
    public Optional<PaneInfo> paneOfTerminal(String terminalId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PaneInfo> focusedPane() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<PaneInfo> panes() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<WorkspaceInfo> workspaces() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean close(String paneId, long graceMillis) {
        throw new UnsupportedOperationException();
    }
}

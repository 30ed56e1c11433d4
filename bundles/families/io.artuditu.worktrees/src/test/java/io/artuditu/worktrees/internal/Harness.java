package io.artuditu.worktrees.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.platform.BasicCall;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worktrees family over an in-memory {@link Workspaces} whose {@code change} applies the
 * operation to a {@link Topology} (nothing spawns; the launches asked for are recorded). Calls go through what the dispatcher does
 * around a handler: params checked against the contract, the target resolved by the model's
 * resolver, the revision added, and the result checked against the contract's result schema.
 */
final class Harness implements Workspaces {
    static final ObjectMapper JSON = new ObjectMapper();
    final AtomicLong ids = new AtomicLong();
    Topology state = Topology.empty();
    final List<TopologyEvent> published = new ArrayList<>();
    final Spawner spawner = new Spawner() {
        @Override
        public Pane spawn(String id, String ws, Path cwd) {
            return new Pane(id, "term_" + id, cwd, List.of("sh"), null, null);
        }

        @Override
        public String newId() {
            return String.format("%016x", ids.incrementAndGet());
        }

        @Override
        public Spawner with(Launch launch) {
            launches.add(launch);
            return this;
        }
    };
    final List<Spawner.Launch> launches = new ArrayList<>();
    final List<String> events = new ArrayList<>();
    final WorktreesFamily family;
    final Map<String, UhpMethod> methods = new HashMap<>();

    Harness(Path home) {
        family = new WorktreesFamily(this, home, new GitRunner(), (name, data) -> events.add(name + " " + data));
        family.methods().forEach(m -> methods.put(m.name(), m));
    }

    /** Opens a workspace on {@code folder} (one pane tab, active); returns its id. */
    String workspace(Path folder) throws IOException {
        return change(OptionalLong.empty(), (s, sp) -> Lifecycle.of(sp).openWorkspace(s, folder, null, sp));
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
            r.put("revision", published.size());
        }
        Optional<JsonSchema.Violation> wrong = m.resultSchema().validate(r, "result");
        wrong.ifPresent(v -> fail(method + " result breaks its schema: " + v + " in " + r));
        return r;
    }

    /** Asserts a refusal with {@code code} that left the state as it was and published nothing. */
    UhpException reject(ErrorCode code, String method, String params) {
        Topology before = state;
        int events = published.size();
        UhpException e = assertThrows(UhpException.class, () -> call(method, params), method + " " + params);
        assertEquals(code, e.code(), method + " " + params + ": " + e.getMessage());
        assertSame(before, state, "a refusal changes nothing");
        assertEquals(events, published.size(), "a refusal publishes nothing");
        return e;
    }

    @Override
    public Topology topology() {
        return state;
    }

    @Override
    public <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException {
        Change<T> c = operation.apply(state, spawner);
        state = c.state();
        published.addAll(c.events());
        return c.result();
    }

    @Override
    public PaneInfo open(PaneRequest request, OptionalLong ifRevision) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PaneInfo> pane(String paneId) {
        throw new UnsupportedOperationException();
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

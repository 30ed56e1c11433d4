package io.artuditu.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Targets;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.TargetSpec;
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
 * The four topology families over an in-memory {@link Workspaces}: {@code change} applies
 * the operation to a {@link Topology} with a spawner that starts nothing. Calls go through
 * what the dispatcher does around a handler: the params are checked against the contract
 * (a violation is {@code invalid_request}), the declared targets are resolved by the
 * model's resolver ({@link Targets}), the revision is added, and the result must satisfy
 * the contract's result schema.
 */
final class Harness {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The fake model. */
    static final class FakeWorkspaces implements Workspaces {
        final AtomicLong ids = new AtomicLong();
        Topology state = Topology.empty();
        boolean failSpawn;
        final List<TopologyEvent> published = new ArrayList<>();
        final Spawner spawner = (id, ws, cwd) -> {
            if (failSpawn) {
                throw new IOException("no such program");
            }
            return new Pane(id, "term_" + id, cwd, List.of("sh"), null, null);
        };
        /** The spawner a change gets: the fake above, drawing ids in order. */
        final Spawner changes = new Spawner() {
            @Override
            public Pane spawn(String paneId, String workspaceId, Path cwd) throws IOException {
                return spawner.spawn(paneId, workspaceId, cwd);
            }

            @Override
            public String newId() {
                return String.format("%016x", ids.incrementAndGet());
            }
        };

        @Override
        public Topology topology() {
            return state;
        }

        @Override
        public <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException {
            Change<T> c = operation.apply(state, changes);
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

    final FakeWorkspaces model = new FakeWorkspaces();
    final Map<String, UhpMethod> methods = new HashMap<>();

    Harness() {
        for (UhpFamily f : List.of(new WorkspaceFamily(model), new TabFamily(model), new PaneTopologyFamily(model),
                new LayoutFamily(model))) {
            f.methods().forEach(m -> methods.put(m.name(), m));
        }
    }

    static ObjectNode params(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    ObjectNode call(String method, String params) {
        return call(method, params(params));
    }

    /** Runs a method as the dispatcher would; fails the test when the result breaks its schema. */
    ObjectNode call(String method, ObjectNode params) {
        UhpMethod m = methods.get(method);
        if (m == null) {
            fail("no handler for " + method);
        }
        Optional<JsonSchema.Violation> bad = m.paramsSchema().validate(params, "params");
        if (bad.isPresent()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, bad.get().toString(), Map.of("field", bad.get().field()));
        }
        ObjectNode r = m.handler().handle(resolved(m, params));
        if (m.carriesRevision()) {
            r.put("revision", model.published.size()); // as on the wire: the event sequence
        }
        Optional<JsonSchema.Violation> wrong = m.resultSchema().validate(r, "result");
        wrong.ifPresent(v -> fail(method + " result breaks its schema: " + v + " in " + r));
        return r;
    }

    /** The call a handler gets: its declared targets resolved first, against this instant, as the dispatcher does. */
    BasicCall resolved(UhpMethod m, ObjectNode params) {
        Target primary = m.target() == null ? null : Targets.resolve(model.state, m.target(), params, null, id -> Map.of());
        Map<String, Object> roles = new HashMap<>();
        m.targets().forEach((role, spec) -> {
            boolean named = params.hasNonNull(spec.idField())
                    || spec.positionField() != null && params.hasNonNull(spec.positionField());
            roles.put(role, named || spec.omitted() != TargetSpec.Omitted.OPTIONAL
                    ? Targets.resolve(model.state, spec, params, primary, id -> Map.of()) : null);
        });
        return BasicCall.of(m.name(), params).resolved(primary, roles);
    }

    /** Asserts a refusal with {@code code} that left the state exactly as it was. */
    UhpException reject(ErrorCode code, String method, String params) {
        return reject(code, method, params(params));
    }

    UhpException reject(ErrorCode code, String method, ObjectNode params) {
        Topology before = model.state;
        int events = model.published.size();
        String what = method + " " + brief(params);
        UhpException e = assertThrows(UhpException.class, () -> call(method, params), what);
        assertEquals(code, e.code(), what + ": " + e.getMessage());
        assertSame(before, model.state, what + " changed the state although refused");
        assertEquals(events, model.published.size(), "a refusal publishes nothing");
        return e;
    }

    /** Params for a message, without serializing a huge tree. */
    static String brief(ObjectNode params) {
        StringBuilder b = new StringBuilder("{");
        params.fields().forEachRemaining(e -> b.append(e.getKey()).append('=')
                .append(e.getValue().isContainerNode() ? "{..}" : e.getValue().toString()).append(' '));
        return b.append('}').toString();
    }

    /** Asserts that a read left the state exactly as it was. */
    ObjectNode read(String method, String params) {
        Topology before = model.state;
        ObjectNode r = call(method, params);
        assertSame(before, model.state, method + " is a read and must not change anything");
        return r;
    }

    static void assertField(UhpException e, String field) {
        assertTrue(e.details().toString().contains(field), "details " + e.details() + " should name " + field);
    }
}

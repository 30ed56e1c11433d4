package io.artuditu.files.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Targets;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
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
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The files family over an in-memory {@link Workspaces} holding one workspace on a real
 * folder, with one pane tab of one pane. Calls go through what the dispatcher does around a
 * handler: params checked against the contract, the workspace target resolved by the
 * model's resolver ({@link Targets}), the revision added, the result checked against its
 * schema. Published events are recorded; the spawner records the launches it is asked for.
 */
final class Harness implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String WS = "workspace_00000000000000a1";

    /** An event as published. */
    record Published(String event, ObjectNode data) {
    }

    final class FakeWorkspaces implements Workspaces {
        Topology state;
        final List<TopologyEvent> events = new ArrayList<>();
        final List<Spawner.Launch> launches = new ArrayList<>();
        boolean failSpawn;

        @Override
        public <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException {
            Spawner sp = new Spawner() {
                Spawner.Launch launch = Spawner.Launch.shell();

                @Override
                public Pane spawn(String paneId, String workspaceId, Path cwd) throws IOException {
                    if (failSpawn) {
                        throw new IOException("no such program: " + launch.command());
                    }
                    launches.add(launch);
                    return new Pane(paneId, "term_" + paneId, cwd, launch.command(), null, null);
                }

                @Override
                public Spawner with(Spawner.Launch l) {
                    launch = l;
                    return this;
                }
            };
            Change<T> c = operation.apply(state, sp);
            state = c.state();
            events.addAll(c.events());
            return c.result();
        }

        @Override
        public Topology topology() {
            return state;
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

    final Path root;
    final FakeWorkspaces model = new FakeWorkspaces();
    final List<Published> published = new CopyOnWriteArrayList<>();
    final FilesFamily family;
    final Map<String, UhpMethod> methods = new HashMap<>();

    Harness(Path root, Map<String, String> env) {
        this.root = root;
        Tab tab = new Tab("tab_00000000000000b1", TabKind.PANES, null, new Node.Leaf("1"), "1", false);
        Workspace w = new Workspace(WS, "ws", root, false, List.of(tab), tab.id());
        model.state = new Topology(List.of(w), WS, Map.of("1", new Pane("1", "term_1", root, List.of("sh"), null, null)),
                2, 0);
        EventBus bus = new EventBus() {
            @Override
            public long publish(String event, ObjectNode data) {
                published.add(new Published(event, data));
                return published.size();
            }

            @Override
            public long sequence() {
                return published.size();
            }

            @Override
            public Subscription subscribe(OptionalLong afterSequence, Set<String> events) {
                throw new UnsupportedOperationException();
            }

            @Override
            public EventWaiter await(String event, ObjectNode where, OptionalLong afterSequence) {
                throw new UnsupportedOperationException();
            }
        };
        family = new FilesFamily(model, env, () -> bus);
        family.apply(family.defaults());
        family.methods().forEach(m -> methods.put(m.name(), m));
    }

    Harness(Path root) {
        this(root, Map.of());
    }

    @Override
    public void close() {
        family.deactivate();
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
        Target t = Targets.resolve(model.state, m.target(), params, null, id -> Map.of());
        ObjectNode r = m.handler().handle(BasicCall.of(m.name(), params).resolved(t, Map.of()));
        if (m.carriesRevision()) {
            r.put("revision", model.events.size());
        }
        Optional<JsonSchema.Violation> wrong = m.resultSchema().validate(r, "result");
        wrong.ifPresent(v -> fail(method + " result breaks its schema: " + v + " in " + r));
        return r;
    }

    /** The paths of the rows, in order. */
    static List<String> paths(ObjectNode result) {
        List<String> out = new ArrayList<>();
        for (JsonNode row : result.get("rows")) {
            out.add(row.get("path").asText());
        }
        return out;
    }

    /**
     * Asserts a refusal with {@code code} that changed nothing: not the topology, not the
     * tree (the rows and selection files.tree answers), and published no event.
     */
    UhpException reject(ErrorCode code, String method, String params) {
        Topology before = model.state;
        int events = model.events.size();
        int launches = model.launches.size();
        int published = this.published.size();
        ObjectNode treeBefore = call("files.tree", "{}");
        UhpException e = assertThrows(UhpException.class, () -> call(method, params), method + " " + params);
        assertEquals(code, e.code(), method + " " + params + ": " + e.getMessage());
        assertSame(before, model.state, method + " changed the topology although refused");
        assertEquals(events, model.events.size());
        assertEquals(launches, model.launches.size(), "a refusal starts nothing");
        assertEquals(published, this.published.size(), "a refusal publishes nothing");
        assertEquals(treeBefore, call("files.tree", "{}"), method + " changed the tree although refused");
        return e;
    }
}

package io.artuditu.files.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.testkit.FamilyHarness;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The files family over the test kit's in-memory model holding one workspace on a real
 * folder, with one pane tab of one pane, called as the dispatcher calls it
 * ({@link FamilyHarness}). Published events are recorded; the spawner records the launches
 * it is asked for.
 */
final class Harness implements AutoCloseable {
    static final ObjectMapper JSON = FamilyHarness.JSON;
    static final String WS = "workspace_00000000000000a1";

    /** An event as published. */
    record Published(String event, ObjectNode data) {
    }

    final Path root;
    /** The in-memory model, which also calls the family as the dispatcher would. */
    final FamilyHarness model = new FamilyHarness();
    final List<Published> published = new CopyOnWriteArrayList<>();
    final FilesFamily family;

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
        model.register(family.methods());
    }

    Harness(Path root) {
        this(root, Map.of());
    }

    @Override
    public void close() {
        family.deactivate();
    }

    static ObjectNode params(String json) {
        return FamilyHarness.params(json);
    }

    ObjectNode call(String method, String params) {
        return model.call(method, params);
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
        int events = model.published.size();
        int launches = model.launches.size();
        int published = this.published.size();
        ObjectNode treeBefore = call("files.tree", "{}");
        UhpException e = assertThrows(UhpException.class, () -> call(method, params), method + " " + params);
        assertEquals(code, e.code(), method + " " + params + ": " + e.getMessage());
        assertSame(before, model.state, method + " changed the topology although refused");
        assertEquals(events, model.published.size());
        assertEquals(launches, model.launches.size(), "a refusal starts nothing");
        assertEquals(published, this.published.size(), "a refusal publishes nothing");
        assertEquals(treeBefore, call("files.tree", "{}"), method + " changed the tree although refused");
        return e;
    }
}

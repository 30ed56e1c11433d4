package io.artuditu.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Topology;
import io.artuditu.testkit.FamilyHarness;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import java.util.List;

/**
 * The four topology families over the test kit's in-memory model ({@link FamilyHarness}: a
 * spawner that starts nothing, calls made as the dispatcher makes them — params checked
 * against the contract, declared targets resolved by the model's resolver, the revision
 * added, the result checked against its schema).
 */
final class Harness {
    static final ObjectMapper JSON = FamilyHarness.JSON;

    /** The in-memory model, which also calls the families as the dispatcher would. */
    final FamilyHarness model = new FamilyHarness();

    Harness() {
        for (UhpFamily f : List.of(new WorkspaceFamily(model), new TabFamily(model), new PaneTopologyFamily(model),
                new LayoutFamily(model))) {
            model.register(f.methods());
        }
    }

    static ObjectNode params(String json) {
        return FamilyHarness.params(json);
    }

    ObjectNode call(String method, String params) {
        return model.call(method, params);
    }

    ObjectNode call(String method, ObjectNode params) {
        return model.call(method, params);
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

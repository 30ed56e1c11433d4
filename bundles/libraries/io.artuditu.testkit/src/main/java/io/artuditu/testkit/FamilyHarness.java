package io.artuditu.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Targets;
import io.artuditu.model.topology.Topology;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.uhp.platform.BasicCall;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A family's methods over an {@link InMemoryWorkspaces}, called the way the dispatcher calls a
 * handler: params checked against the contract's schema, a declared target resolved by the
 * model's resolver ({@link Targets}), the revision added, and the result checked against the
 * contract's result schema.
 */
public class FamilyHarness extends InMemoryWorkspaces {
    public static final ObjectMapper JSON = new ObjectMapper();
    /** The registered methods by name. */
    public final Map<String, UhpMethod> methods = new HashMap<>();

    /** Registers a family's methods. */
    public void register(List<UhpMethod> family) {
        family.forEach(m -> methods.put(m.name(), m));
    }

    /** {@code json} as an object, for params. */
    public static ObjectNode params(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Calls {@code method} with {@code params} (JSON text); a refusal is thrown as the handler threw it. */
    public ObjectNode call(String method, String params) {
        return call(method, params(params));
    }

    /** Calls {@code method} with {@code params}; fails the test when the result breaks its schema. */
    public ObjectNode call(String method, ObjectNode params) {
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
            r.put("revision", published.size()); // as on the wire: the event sequence
        }
        Optional<JsonSchema.Violation> wrong = m.resultSchema().validate(r, "result");
        wrong.ifPresent(v -> fail(method + " result breaks its schema: " + v + " in " + r));
        return r;
    }

    /** The call a handler gets: its declared targets resolved first, against this instant, as the dispatcher does. */
    public BasicCall resolved(UhpMethod m, ObjectNode params) {
        Target primary = m.target() == null ? null : Targets.resolve(state, m.target(), params, null, id -> Map.of());
        Map<String, Object> roles = new HashMap<>();
        m.targets().forEach((role, spec) -> {
            boolean named = params.hasNonNull(spec.idField())
                    || spec.positionField() != null && params.hasNonNull(spec.positionField());
            roles.put(role, named || spec.omitted() != TargetSpec.Omitted.OPTIONAL
                    ? Targets.resolve(state, spec, params, primary, id -> Map.of()) : null);
        });
        return BasicCall.of(m.name(), params).resolved(primary, roles);
    }

    /** Asserts a refusal with {@code code} that left the state as it was and published nothing. */
    public UhpException reject(ErrorCode code, String method, String params) {
        Topology before = state;
        int events = published.size();
        UhpException e = assertThrows(UhpException.class, () -> call(method, params), method + " " + params);
        assertEquals(code, e.code(), method + " " + params + ": " + e.getMessage());
        assertSame(before, state, "a refusal changes nothing");
        assertEquals(events, published.size(), "a refusal publishes nothing");
        return e;
    }
}

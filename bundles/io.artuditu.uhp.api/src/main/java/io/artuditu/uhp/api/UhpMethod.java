package io.artuditu.uhp.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.MethodContract;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One method a family offers: its exact name, the scope it needs, its params and result
 * schemas and its handler. Immutable.
 */
public final class UhpMethod {
    /** The spec's grammar: {@code family.verb} or {@code family.noun.verb}, snake_case. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*){0,3}");

    private final String name;
    private final Scope scope;
    private final JsonSchema params;
    private final JsonSchema result;
    private final MethodHandler handler;

    private UhpMethod(String name, Scope scope, JsonSchema params, JsonSchema result, MethodHandler handler) {
        if (!NAME.matcher(name).matches() || name.length() > Limits.MAX_ID_BYTES) {
            throw new IllegalArgumentException("method name does not follow the UHP grammar: " + name);
        }
        this.name = name;
        this.scope = Objects.requireNonNull(scope, "scope");
        this.params = Objects.requireNonNull(params, "params schema");
        this.result = Objects.requireNonNull(result, "result schema");
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    /** A method described by the contract shipped in this API bundle (name, scope, schemas). */
    public static UhpMethod of(MethodContract contract, MethodHandler handler) {
        return new UhpMethod(contract.name(), contract.scope(), contract.params(), contract.result(), handler);
    }

    /**
     * A method whose contract its own bundle carries (third-party modules). The schemas
     * are compiled here, so an unsupported keyword fails at registration, not at call time.
     */
    public static UhpMethod of(String name, Scope scope, JsonNode paramsSchema, JsonNode resultSchema,
            MethodHandler handler) {
        return new UhpMethod(name, scope, JsonSchema.compile(paramsSchema), JsonSchema.compile(resultSchema), handler);
    }

    public String name() {
        return name;
    }

    public Scope scope() {
        return scope;
    }

    public JsonSchema paramsSchema() {
        return params;
    }

    public JsonSchema resultSchema() {
        return result;
    }

    public MethodHandler handler() {
        return handler;
    }
}

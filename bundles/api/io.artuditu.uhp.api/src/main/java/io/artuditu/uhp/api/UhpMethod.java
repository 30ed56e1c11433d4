package io.artuditu.uhp.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.MethodContract;
import io.artuditu.uhp.api.schema.TargetSpec;
import java.util.Map;
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
    private final boolean mutates;
    private final boolean revision;
    private final TargetSpec target;
    private final Map<String, TargetSpec> targets;

    private UhpMethod(String name, Scope scope, JsonSchema params, JsonSchema result, MethodHandler handler) {
        this(name, scope, params, result, handler, false, false, null, Map.of());
    }

    private UhpMethod(String name, Scope scope, JsonSchema params, JsonSchema result, MethodHandler handler,
            boolean mutates, boolean revision, TargetSpec target, Map<String, TargetSpec> targets) {
        if (!NAME.matcher(name).matches() || name.length() > Limits.MAX_ID_BYTES) {
            throw new IllegalArgumentException("method name does not follow the UHP grammar: " + name);
        }
        this.name = name;
        this.scope = Objects.requireNonNull(scope, "scope");
        this.params = Objects.requireNonNull(params, "params schema");
        this.result = Objects.requireNonNull(result, "result schema");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.mutates = mutates;
        this.revision = revision || mutates;
        this.target = target;
        this.targets = Map.copyOf(targets);
    }

    /**
     * A method as its contract row describes it (name, scope, schemas, {@code mutates},
     * {@code revision}). Families normally get these from {@link FamilyContract#route}.
     */
    public static UhpMethod of(MethodContract contract, MethodHandler handler) {
        return of(contract, Map.of(), handler);
    }

    /**
     * A method as its contract row describes it, with the further targets the row declares
     * by role ({@link FamilyContract#targets}). {@link FamilyContract#route} uses this.
     */
    public static UhpMethod of(MethodContract contract, Map<String, TargetSpec> targets, MethodHandler handler) {
        return new UhpMethod(contract.name(), contract.scope(), contract.params(), contract.result(), handler,
                contract.mutates(), contract.revision(), contract.target(), targets);
    }

    /**
     * A method built without a contract file. The schemas are compiled here, so an
     * unsupported keyword fails at registration, not at call time. Prefer a family file and
     * {@link FamilyContract}: it declares events too, and a bad row is listed instead of
     * failing the whole family.
     */
    public static UhpMethod of(String name, Scope scope, JsonNode paramsSchema, JsonNode resultSchema,
            MethodHandler handler) {
        return new UhpMethod(name, scope, JsonSchema.compile(paramsSchema), JsonSchema.compile(resultSchema), handler);
    }

    /**
     * This method changing application state: it may carry {@code if_revision} (the
     * dispatcher refuses a stale one, and hands it to the handler for the writer to check
     * where the change is made) and the dispatcher adds {@code revision} to its result (so
     * its result schema must declare it).
     */
    public UhpMethod mutating() {
        return new UhpMethod(name, scope, params, result, handler, true, true, target, targets);
    }

    /**
     * What the method acts on, resolved by the dispatcher before the handler runs
     * ({@link Call#target}); null when it names no workspace, tab, pane, terminal or agent.
     */
    public TargetSpec target() {
        return target;
    }

    /** Further targets by role, resolved the same way ({@link Call#target(String, Class)}); usually empty. */
    public Map<String, TargetSpec> targets() {
        return targets;
    }

    /** Whether the method changes application state (see {@link #mutating}). */
    public boolean mutates() {
        return mutates;
    }

    /** Whether the dispatcher adds the current {@code revision} to the method's results. */
    public boolean carriesRevision() {
        return revision;
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

package io.artuditu.uhp.api.schema;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.events.EventBus;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One family's contract, read from one file its own bundle carries: every method's scope,
 * params and result schemas, {@code mutates}, {@code revision}, {@code target} and
 * {@code cli} block, further targets ({@code "targets"}: role → target, for a method that
 * names a second object such as {@code tab.swap}'s {@code with}), and the events the family
 * publishes with their data schemas. Built-in
 * families and third-party modules read theirs the same way, with {@link #load}.
 *
 * <p>The file:
 * <pre>
 * {"family": "example",
 *  "methods": {"example.echo": {"scope": "read", "description": "…", "params": {…}, "result": {…},
 *                               "mutates": false, "revision": false, "target": {…}, "cli": {…}}},
 *  "events":  {"example.echoed": {"description": "…", "data": {…}}}}
 * </pre>
 * and the bundle names it in its manifest header {@value #HEADER} (so a plain class-path
 * program such as the CLI can find every family file, {@link UhpContract#fromClassPath}).
 *
 * <p>Reading never throws. A method whose row is unusable (an unknown scope, a schema that
 * does not compile, a bad target or cli block, a name outside the UHP grammar) is left out
 * and recorded in {@link #problems()}, as is an event whose data schema does not compile; a
 * missing or unreadable file gives a contract with no methods and one problem. The family
 * then registers with the methods that are good and {@code uhp.capabilities} lists the rest
 * under {@code failures}.
 *
 * <p>A family writes its route table once, against the contract:
 * <pre>
 * contract = FamilyContract.load(EchoFamily.class, "protocol/example.echo.json")
 *         .route("example.echo", this::echo)
 *         .bind();
 * </pre>
 * {@link #bind()} returns the contract with its {@linkplain #routes() route table}; a route
 * without a contract row and a row without a route are problems too, never exceptions.
 *
 * <p>Immutable and thread safe.
 */
public final class FamilyContract {
    /**
     * The manifest header that names a bundle's family files: paths from the bundle's root,
     * comma separated, in the order their methods are listed, for example
     * {@code Artuditu-Contract: protocol/uhp/v1/discovery.json}.
     */
    public static final String HEADER = "Artuditu-Contract";

    /** A key named twice in a file is an error, not a silent last-one-wins. */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /**
     * Something in the file that could not be used, and what it cost: the method or event
     * left out, or (both null) the whole file.
     *
     * @param method the method left out or left unrouted, or null
     * @param event  the event left out, or null
     * @param reason what is wrong, for an operator
     */
    public record Problem(String method, String event, String reason) {
        public Problem {
            Objects.requireNonNull(reason, "reason");
        }

        /** A problem with one method. */
        public static Problem ofMethod(String method, String reason) {
            return new Problem(method, null, reason);
        }

        /** A problem with one event. */
        public static Problem ofEvent(String event, String reason) {
            return new Problem(null, event, reason);
        }

        /** A problem with the whole file. */
        public static Problem ofFile(String reason) {
            return new Problem(null, null, reason);
        }

        @Override
        public String toString() {
            return method != null ? method + ": " + reason : event != null ? "event " + event + ": " + reason : reason;
        }
    }

    /**
     * One event as the contract describes it.
     *
     * @param name        exact event name
     * @param family      family that declares it
     * @param description what it reports, or "" when the file says nothing
     * @param data        compiled schema of its {@code data}
     */
    public record EventContract(String name, String family, String description, JsonSchema data) {
    }

    private final String source;
    private final String family;
    private final ObjectNode document;
    private final Map<String, MethodContract> methods;
    /** Per method, its further targets by role ({@code "targets"}); absent for most methods. */
    private final Map<String, Map<String, TargetSpec>> roles;
    private final Map<String, EventContract> events;
    private final List<Problem> problems;
    private final List<UhpMethod> routes;

    private FamilyContract(String source, String family, ObjectNode document, Map<String, MethodContract> methods,
            Map<String, Map<String, TargetSpec>> roles, Map<String, EventContract> events, List<Problem> problems,
            List<UhpMethod> routes) {
        this.source = source;
        this.family = family;
        this.document = document;
        this.methods = Collections.unmodifiableMap(new LinkedHashMap<>(methods));
        this.roles = Map.copyOf(roles);
        this.events = Collections.unmodifiableMap(new LinkedHashMap<>(events));
        this.problems = List.copyOf(problems);
        this.routes = List.copyOf(routes);
    }

    /**
     * Reads the family file {@code resource} (a path from the bundle's root, no leading slash)
     * through {@code anchor}'s class loader: pass a class of the bundle that carries the
     * file, normally the family itself. Never throws; see {@link #problems()}.
     */
    public static FamilyContract load(Class<?> anchor, String resource) {
        Objects.requireNonNull(resource, "resource");
        ClassLoader loader = anchor.getClassLoader();
        URL url = loader == null ? ClassLoader.getSystemResource(resource) : loader.getResource(resource);
        if (url == null) {
            return failed(resource, "contract file missing: " + resource);
        }
        try (InputStream in = url.openStream()) {
            return read(resource, in);
        } catch (IOException e) {
            return failed(resource, "contract file unreadable: " + resource + ": " + e.getMessage());
        }
    }

    /**
     * Reads a family file from {@code in} (not closed here); {@code source} names it in
     * problems. Never throws; see {@link #problems()}.
     */
    public static FamilyContract read(String source, InputStream in) {
        JsonNode doc;
        try {
            doc = MAPPER.readTree(in);
        } catch (IOException | RuntimeException e) {
            return failed(source, "contract file " + source + " is not JSON: " + e.getMessage());
        }
        if (!(doc instanceof ObjectNode)) {
            return failed(source, "contract file " + source + " is not a JSON object");
        }
        return parse(source, (ObjectNode) doc);
    }

    /** A contract with nothing in it but {@code reason}. */
    static FamilyContract failed(String source, String reason) {
        return new FamilyContract(source, "", MAPPER.createObjectNode(), Map.of(), Map.of(), Map.of(),
                List.of(Problem.ofFile(reason)), List.of());
    }

    private static FamilyContract parse(String source, ObjectNode doc) {
        JsonNode fam = doc.get("family");
        if (fam == null || !fam.isTextual() || fam.textValue().isEmpty()) {
            return failed(source, "contract file " + source + " names no family (\"family\": \"…\")");
        }
        String family = fam.textValue();
        List<Problem> problems = new ArrayList<>();
        Map<String, MethodContract> methods = new LinkedHashMap<>();
        Map<String, Map<String, TargetSpec>> roles = new LinkedHashMap<>();
        JsonNode rows = doc.path("methods");
        if (!rows.isMissingNode() && !rows.isObject()) {
            problems.add(Problem.ofFile("\"methods\" is not an object"));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = rows.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            try {
                MethodContract m = method(family, e.getKey(), e.getValue());
                Map<String, TargetSpec> more = roles(e.getKey(), e.getValue());
                methods.put(e.getKey(), m);
                if (!more.isEmpty()) {
                    roles.put(e.getKey(), more);
                }
            } catch (RuntimeException bad) {
                problems.add(Problem.ofMethod(e.getKey(), String.valueOf(bad.getMessage())));
            }
        }
        Map<String, EventContract> events = new LinkedHashMap<>();
        JsonNode evs = doc.path("events");
        if (!evs.isMissingNode() && !evs.isObject()) {
            problems.add(Problem.ofFile("\"events\" is not an object"));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = evs.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            try {
                events.put(e.getKey(), event(family, e.getKey(), e.getValue()));
            } catch (RuntimeException bad) {
                problems.add(Problem.ofEvent(e.getKey(), String.valueOf(bad.getMessage())));
            }
        }
        return new FamilyContract(source, family, doc, methods, roles, events, problems, List.of());
    }

    /** A method row's {@code "targets"}: role → target, each checked like {@code "target"}. */
    private static Map<String, TargetSpec> roles(String name, JsonNode m) {
        JsonNode t = m.get("targets");
        if (t == null || t.isNull()) {
            return Map.of();
        }
        if (!t.isObject()) {
            throw new IllegalArgumentException("bad targets: not an object");
        }
        Map<String, TargetSpec> out = new LinkedHashMap<>();
        JsonNode props = m.path("params").path("properties");
        for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().matches("[a-z][a-z0-9_]{0,31}")) {
                throw new IllegalArgumentException("bad targets: role " + e.getKey() + " is not a snake_case word");
            }
            TargetSpec spec;
            try {
                spec = TargetSpec.parse(name, e.getValue());
            } catch (RuntimeException bad) {
                throw new IllegalArgumentException("bad targets: " + e.getKey() + ": " + strip(name, bad.getMessage()), bad);
            }
            for (String f : new String[] {spec.idField(), spec.positionField()}) {
                if (f != null && !props.has(f)) {
                    throw new IllegalArgumentException("bad targets: " + e.getKey() + ": field " + f + " is not a param");
                }
            }
            out.put(e.getKey(), spec);
        }
        return out;
    }

    /** One method row, checked; throws with the reason it cannot be used. */
    private static MethodContract method(String family, String name, JsonNode m) {
        if (!UhpMethod.NAME.matcher(name).matches() || name.length() > Limits.MAX_ID_BYTES) {
            throw new IllegalArgumentException("the name does not follow the UHP method grammar");
        }
        if (!m.isObject()) {
            throw new IllegalArgumentException("the row is not an object");
        }
        if (!m.hasNonNull("scope")) {
            throw new IllegalArgumentException("no scope");
        }
        Scope scope = Scope.fromWire(m.get("scope").asText())
                .orElseThrow(() -> new IllegalArgumentException("unknown scope " + m.get("scope")));
        JsonSchema params = schema(m, "params");
        JsonSchema result = schema(m, "result");
        for (String flag : new String[] {"mutates", "revision"}) {
            if (m.has(flag) && !m.get(flag).isBoolean()) {
                throw new IllegalArgumentException("\"" + flag + "\" is not a boolean");
            }
        }
        boolean mutates = m.path("mutates").asBoolean(false);
        TargetSpec target;
        CliSpec cli;
        try {
            target = TargetSpec.parse(name, m.get("target"));
            if (target != null && target.omitted() == TargetSpec.Omitted.OPTIONAL) {
                throw new IllegalArgumentException("only a further target (\"targets\") may be optional");
            }
            if (target != null) {
                JsonNode props = m.path("params").path("properties");
                for (String f : new String[] {target.idField(), target.positionField()}) {
                    if (f != null && !props.has(f)) {
                        throw new IllegalArgumentException("target field " + f + " is not a param");
                    }
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad target: " + strip(name, e.getMessage()), e);
        }
        try {
            cli = CliSpec.parse(name, m.get("cli"), m.path("params"));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad cli block: " + strip(name, e.getMessage()), e);
        }
        return new MethodContract(name, family, scope, params, result, mutates,
                mutates || m.path("revision").asBoolean(false), target, cli);
    }

    private static JsonSchema schema(JsonNode m, String which) {
        if (!m.has(which)) {
            throw new IllegalArgumentException("no " + which + " schema");
        }
        try {
            return JsonSchema.compile(m.get(which));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(which + " schema does not compile: " + e.getMessage(), e);
        }
    }

    private static EventContract event(String family, String name, JsonNode e) {
        if (!EventBus.validName(name)) {
            throw new IllegalArgumentException("the name does not follow the event grammar");
        }
        if (!e.isObject()) {
            throw new IllegalArgumentException("the entry is not an object");
        }
        if (e.has("description") && !e.get("description").isTextual()) {
            throw new IllegalArgumentException("\"description\" is not a string");
        }
        JsonSchema data = schema(e, "data");
        return new EventContract(name, family, e.path("description").asText(""), data);
    }

    /** Reasons thrown by the target and cli parsers start with the method's name; the problem already names it. */
    private static String strip(String name, String message) {
        String m = String.valueOf(message);
        return m.startsWith(name + ": ") ? m.substring(name.length() + 2) : m;
    }

    // ---- what the file says ----

    /** The family name the file declares; "" when the file could not be read. */
    public String family() {
        return family;
    }

    /** The resource the contract was read from, as given to {@link #load} or {@link #read}. */
    public String source() {
        return source;
    }

    /** Every usable method, in file order. */
    public Map<String, MethodContract> methods() {
        return methods;
    }

    /**
     * The method's contract; empty when the file does not describe it or its row was left
     * out (then {@link #problems()} says why). Never throws.
     */
    public Optional<MethodContract> method(String name) {
        return Optional.ofNullable(methods.get(name));
    }

    /**
     * The further targets a method declares by role ({@code "targets"}), in file order;
     * empty for a method that names one object or none.
     */
    public Map<String, TargetSpec> targets(String method) {
        return roles.getOrDefault(method, Map.of());
    }

    /** Every usable event the family declares it publishes, in file order. */
    public Map<String, EventContract> events() {
        return events;
    }

    /**
     * What could not be used: rows and events left out, a missing or unreadable file and,
     * for a {@linkplain #bind() bound} contract, routes without a row and rows without a
     * route. Empty when everything is in order.
     */
    public List<Problem> problems() {
        return problems;
    }

    /** A copy of the file as read (every row, the unusable ones too); empty when unreadable. */
    public ObjectNode document() {
        return document.deepCopy();
    }

    /** The route table {@link #bind()} built, in route order; empty for a contract that was not bound. */
    public List<UhpMethod> routes() {
        return routes;
    }

    @Override
    public String toString() {
        return "FamilyContract[" + family + " from " + source + ", " + methods.size() + " methods, " + events.size()
                + " events, " + problems.size() + " problems]";
    }

    // ---- binding handlers ----

    /** An empty route table for this contract, for a family that adds its routes through a helper of its own. */
    public Binder binder() {
        return new Binder(this);
    }

    /** Starts a route table: {@code method} answered by {@code handler}. */
    public Binder route(String method, MethodHandler handler) {
        return new Binder(this).route(method, handler);
    }

    /** Starts a route table with a handler built from the method's contract row (its target, its cli block). */
    public Binder routeWith(String method, Function<MethodContract, MethodHandler> handler) {
        return new Binder(this).routeWith(method, handler);
    }

    /**
     * A family's route table under construction: each method named once, against its
     * contract row. Confined to the thread that builds it (a family's constructor).
     */
    public static final class Binder {
        private final FamilyContract contract;
        private final Map<String, UhpMethod> routes = new LinkedHashMap<>();
        private final List<Problem> problems;

        Binder(FamilyContract contract) {
            this.contract = contract;
            this.problems = new ArrayList<>(contract.problems);
        }

        /** {@code method} answered by {@code handler}. */
        public Binder route(String method, MethodHandler handler) {
            return routeWith(method, c -> handler);
        }

        /** {@code method} answered by the handler {@code factory} builds from its contract row. */
        public Binder routeWith(String method, Function<MethodContract, MethodHandler> factory) {
            if (routes.containsKey(method)) {
                problems.add(Problem.ofMethod(method, "routed twice; the first route is kept"));
                return this;
            }
            MethodContract row = contract.methods.get(method);
            if (row == null) {
                // A row left out already has its problem; a route the file never described gets one.
                boolean known = contract.problems.stream().anyMatch(p -> method.equals(p.method()));
                if (!known) {
                    problems.add(Problem.ofMethod(method, "no contract for " + method + " in " + contract.source));
                }
                return this;
            }
            try {
                MethodHandler handler = factory.apply(row);
                if (handler == null) {
                    throw new IllegalArgumentException("the handler is null");
                }
                routes.put(method, UhpMethod.of(row, contract.targets(method), handler));
            } catch (RuntimeException e) {
                problems.add(Problem.ofMethod(method, "no handler: " + e.getMessage()));
            }
            return this;
        }

        /**
         * The contract with this route table; every row left without a route becomes a
         * problem ("contract row without a handler").
         */
        public FamilyContract bind() {
            List<Problem> all = new ArrayList<>(problems);
            for (String name : contract.methods.keySet()) {
                if (!routes.containsKey(name) && all.stream().noneMatch(p -> name.equals(p.method()))) {
                    all.add(Problem.ofMethod(name, "contract row without a handler"));
                }
            }
            return new FamilyContract(contract.source, contract.family, contract.document, contract.methods,
                    contract.roles, contract.events, all, new ArrayList<>(routes.values()));
        }
    }
}

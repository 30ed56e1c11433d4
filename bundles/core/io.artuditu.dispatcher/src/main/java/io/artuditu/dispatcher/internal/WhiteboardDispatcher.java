package io.artuditu.dispatcher.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.Connection;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.auth.TokenAuthority;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.uhp.platform.BasicCall;
import io.artuditu.uhp.platform.ClaimConflict;
import io.artuditu.uhp.platform.FamilyFailure;
import io.artuditu.uhp.platform.MethodInfo;
import io.artuditu.uhp.platform.Reply;
import io.artuditu.uhp.platform.StatsContributor;
import io.artuditu.uhp.platform.TargetResolver;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;

/**
 * The one dispatcher: tracks {@link UhpFamily} services on the whiteboard and routes each
 * request line to the method with its exact name. Validate, then run: the envelope and
 * the params are checked against the contract before a handler sees them.
 *
 * <p>A handler's {@link UhpException} becomes its error reply; anything else it throws
 * becomes {@code internal_error} with a correlation id that the server log repeats with
 * the stack trace. A family that leaves stops taking calls at once; calls it is already
 * running finish (unbind waits for them, up to {@link #DRAIN_MILLIS}).
 *
 * <p>Targets: a method whose contract declares what it acts on ({@code "target"}, and
 * further ones by role under {@code "targets"}) has it resolved here, once, by the
 * {@link TargetResolver} of its kind, after the params passed their schema and before the
 * handler runs; the handler reads the answer with {@link io.artuditu.uhp.api.Call#target}.
 * A target that does not exist is answered here ({@code not_found}); a kind whose resolver
 * is not running answers {@code method_unavailable}.
 *
 * <p>Revisions: the revision is the event bus's sequence (0 while no bus runs). The
 * dispatcher takes no lock around handlers: each state has one writer of its own (the app
 * loop for the topology, the config store for the configuration), and a method that
 * {@linkplain UhpMethod#mutates mutates} hands its {@code if_revision} to that writer
 * ({@link io.artuditu.uhp.api.Call#ifRevision}), which checks it where the change is made
 * ({@link EventBus#checkRevision}). The dispatcher refuses a stale one before the handler
 * runs too, so most conflicts cost nothing. {@code if_revision} on any other method is
 * {@code invalid_request}. It may come at the top level or inside {@code params}
 * ({@link RequestReader} merges the two and takes it out of the params, so no params
 * schema sees it). Methods that {@linkplain UhpMethod#carriesRevision carry the revision}
 * get {@code revision} (read after the handler) added to their result.
 *
 * <p>Failures: a family registers with the methods its contract could offer; what it could
 * not ({@link UhpFamily#problems()}), a family whose route table could not be read, and a
 * family component that failed to activate (asked of the DS runtime when present) are
 * {@link #failures()}, which {@code uhp.capabilities} lists.
 */
@Component(service = {UhpDispatcher.class, StatsContributor.class}, immediate = true)
public final class WhiteboardDispatcher implements UhpDispatcher, StatsContributor {
    /** How long a leaving family's running calls may take before unbind stops waiting. */
    static final long DRAIN_MILLIS = 10_000;
    /**
     * The longest a call to a family that is away waits for it while a hold is open
     * ({@link #holdAwayFamilies}, a bundle update): past it the call answers
     * {@code method_unavailable} as without a hold. The calls waiting are bounded by the
     * connections, one request each.
     */
    static final long HOLD_MILLIS = 5_000;
    /**
     * When true, every result is checked against its method's result schema and a
     * mismatch answers {@code internal_error}: tests run the server this way.
     */
    static final String STRICT_RESULTS = "artuditu.uhp.strict-results";

    /** What a request without {@code auth} holds: the socket's owner may call everything. */
    private static final Set<Scope> OWNER = Set.of(Scope.ALL);

    private static final Logger LOG = System.getLogger(WhiteboardDispatcher.class.getName());

    private final Registry registry = new Registry();
    private final RequestReader reader = new RequestReader();
    private final ObjectMapper mapper = reader.mapper();
    private final boolean strictResults;
    private final LongAdder completed = new LongAdder();
    private final LongAdder latencyNanos = new LongAdder();
    private final Map<ErrorCode, LongAdder> errors = new EnumMap<>(ErrorCode.class);
    private final AtomicReference<TokenAuthority> tokens = new AtomicReference<>();
    /** Open holds ({@link #holdAwayFamilies}): while above 0, calls to an away family wait for it. */
    private final AtomicInteger holds = new AtomicInteger();
    /** Calls that waited for an away family under a hold. */
    private final LongAdder held = new LongAdder();
    /** The resolver of each target kind; a kind claimed twice keeps the first (logged). */
    private final Map<TargetSpec.Kind, TargetResolver> resolvers = new ConcurrentHashMap<>();

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus bus;

    /** The DS runtime, to find family components that failed to activate (and so never registered). */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile ServiceComponentRuntime components;

    /** The envelope schemas, for the assembled contract. */
    private final ObjectNode envelope = UhpContract.envelope();

    @Activate
    public WhiteboardDispatcher() {
        this(Boolean.getBoolean(STRICT_RESULTS));
    }

    WhiteboardDispatcher(boolean strictResults) {
        this.strictResults = strictResults;
        for (ErrorCode c : ErrorCode.values()) {
            errors.put(c, new LongAdder());
        }
    }

    /** A dispatcher with strict results and no framework: {@code io.artuditu.dispatcher.testing.FamilyHarness}. */
    public static WhiteboardDispatcher forTests() {
        return new WhiteboardDispatcher(true);
    }

    /** For the test harness: a family as if its service had appeared. */
    public static void addFamilyForTests(WhiteboardDispatcher d, UhpFamily family, String bundle, long serviceId) {
        d.addFamily(family, bundle, 0, serviceId);
    }

    /** For the test harness: a target resolver as if its service had appeared. */
    public static void addResolverForTests(WhiteboardDispatcher d, TargetResolver resolver) {
        d.bindResolver(resolver);
    }

    /** For the test harness: the token authority delegated requests are checked against. */
    public static void bindTokensForTests(WhiteboardDispatcher d, TokenAuthority authority) {
        d.bindTokens(authority);
    }

    // ---- whiteboard ----

    @Reference(service = UhpFamily.class, cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void bindFamily(UhpFamily family, ServiceReference<UhpFamily> ref) {
        String bundle = ref.getBundle() == null ? "?" : ref.getBundle().getSymbolicName();
        Object rankingProp = ref.getProperty(Constants.SERVICE_RANKING);
        int ranking = rankingProp instanceof Integer ? (Integer) rankingProp : 0;
        long serviceId = (Long) ref.getProperty(Constants.SERVICE_ID);
        addFamily(family, bundle, ranking, serviceId);
    }

    void unbindFamily(UhpFamily family, ServiceReference<UhpFamily> ref) {
        removeFamily((Long) ref.getProperty(Constants.SERVICE_ID));
    }

    @Reference(service = TargetResolver.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC)
    void bindResolver(TargetResolver resolver) {
        for (TargetSpec.Kind k : resolver.kinds()) {
            TargetResolver before = resolvers.putIfAbsent(k, resolver);
            if (before != null && before != resolver) {
                LOG.log(Level.WARNING, "two resolvers for " + k.wire() + " targets; " + before.getClass().getName()
                        + " answers, " + resolver.getClass().getName() + " is ignored");
            }
        }
    }

    void unbindResolver(TargetResolver resolver) {
        resolvers.values().removeIf(r -> r == resolver);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindTokens(TokenAuthority authority) {
        tokens.set(authority);
    }

    void unbindTokens(TokenAuthority authority) {
        tokens.compareAndSet(authority, null);
    }

    /**
     * Adds a family with the methods it offers; what it could not offer is kept as its
     * failures. A family whose route table cannot be read is logged, skipped and listed.
     */
    void addFamily(UhpFamily family, String bundle, int ranking, long serviceId) {
        String name = null;
        List<UhpMethod> methods;
        FamilyContract contract;
        List<FamilyContract.Problem> problems;
        try {
            name = family.family();
            methods = family.methods();
            if (methods.stream().anyMatch(java.util.Objects::isNull)) {
                throw new IllegalArgumentException("route table contains null");
            }
            contract = family.contract();
            problems = family.problems();
            if (problems.stream().anyMatch(java.util.Objects::isNull)) {
                throw new IllegalArgumentException("problem list contains null");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "ignoring family from bundle " + bundle + ": its route table is unreadable", e);
            registry.reject(serviceId, new FamilyFailure(name != null ? name : family.getClass().getName(), null, null,
                    bundle, "its route table is unreadable: " + e));
            return;
        }
        Registry.Family f = new Registry.Family(name, bundle, ranking, serviceId, methods, contract, problems);
        registry.add(f);
        for (FamilyFailure p : f.failures) {
            LOG.log(Level.WARNING, "family " + name + " from " + bundle + " left out "
                    + (p.method() != null ? "method " + p.method() : p.event() != null ? "event " + p.event() : "its contract")
                    + ": " + p.reason());
        }
        for (ClaimConflict c : registry.table().conflicts()) {
            if (c.loserBundle().equals(bundle) || c.winnerBundle().equals(bundle)) {
                LOG.log(Level.WARNING, "method " + c.method() + " is claimed by " + c.winnerBundle() + " and "
                        + c.loserBundle() + "; " + c.winnerBundle() + " answers");
            }
        }
        LOG.log(Level.DEBUG, "family " + name + " from " + bundle + " added " + methods.size() + " methods");
    }

    void removeFamily(long serviceId) {
        if (registry.forget(serviceId)) {
            return;
        }
        Registry.Family f = registry.find(serviceId);
        if (f == null) {
            return;
        }
        registry.remove(f);
        try {
            int left = f.closeAndDrain(DRAIN_MILLIS);
            if (left > 0) {
                LOG.log(Level.WARNING, "family " + f.name + " left with " + left + " calls still running");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- dispatch ----

    @Override
    public Reply dispatch(byte[] buf, int off, int len, Caller caller) {
        return dispatch(buf, off, len, caller, Connection.NONE);
    }

    @Override
    public Reply dispatch(byte[] buf, int off, int len, Caller caller, Connection connection) {
        long start = System.nanoTime();
        Reply reply;
        RequestReader.Request req = null;
        try {
            req = reader.read(buf, off, len);
            reply = run(req, caller, connection, true);
        } catch (RequestReader.Rejected r) {
            reply = error(r.id, r.error);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            // A failure outside any handler (those are answered in run) still gets its one
            // reply: a connection is never dropped without one.
            reply = internalError(req == null ? null : req.id(), (req == null ? "reading a request" : req.method())
                    + " (connection " + caller.connection() + ")", e);
        }
        latencyNanos.add(System.nanoTime() - start);
        completed.increment();
        return reply;
    }

    /** The current revision: the event sequence, 0 while no bus runs. */
    long revision() {
        EventBus b = bus;
        return b == null ? 0 : b.sequence();
    }

    @Override
    public AutoCloseable holdAwayFamilies() {
        holds.incrementAndGet();
        AtomicBoolean open = new AtomicBoolean(true);
        return () -> {
            if (open.compareAndSet(true, false)) {
                holds.decrementAndGet();
                registry.wake();
            }
        };
    }

    /**
     * The route of a method that was registered once and is away now, while a hold is open:
     * waits (at most {@value #HOLD_MILLIS} ms, and not past the hold) for its family to
     * come back. Null when it did not.
     */
    private Registry.Route awaitReturn(String method) {
        if (holds.get() == 0) {
            return null;
        }
        held.increment();
        try {
            return registry.awaitRoute(method, HOLD_MILLIS, () -> holds.get() > 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * @param again whether a call that finds its family stopping may, under a hold, wait for
     *     the family's successor and run once more against it (checked again from the start)
     */
    private Reply run(RequestReader.Request req, Caller caller, Connection connection, boolean again) {
        Registry.Route route = registry.table().routes().get(req.method());
        boolean away = route == null && registry.remembers(req.method());
        if (away) {
            route = awaitReturn(req.method());
        }
        if (route == null) {
            return away
                    ? error(req.id(), new UhpException(ErrorCode.METHOD_UNAVAILABLE,
                            "method " + req.method() + " is not available: its family is not running"))
                    : error(req.id(), new UhpException(ErrorCode.UNKNOWN_METHOD, "unknown method: " + clip(req.method())));
        }
        Set<Scope> scopes = OWNER;
        if (req.auth() != null) {
            TokenAuthority authority = tokens.get();
            Optional<Set<Scope>> held = authority == null ? Optional.empty() : authority.scopesOf(req.auth());
            if (held.isEmpty()) {
                return error(req.id(), new UhpException(ErrorCode.FORBIDDEN, "unknown or expired token"));
            }
            Scope needed = route.method().scope();
            if (!TokenAuthority.grants(held.get(), needed)) {
                return error(req.id(), new UhpException(ErrorCode.FORBIDDEN,
                        req.method() + " needs scope " + needed.wire() + ", which this token does not hold",
                        Map.of("needed_scope", needed.wire())));
            }
            scopes = held.get();
        }
        Optional<JsonSchema.Violation> bad = route.method().paramsSchema().validate(req.params(), "params");
        if (bad.isPresent()) {
            JsonSchema.Violation v = bad.get();
            return error(req.id(), new UhpException(ErrorCode.INVALID_REQUEST, v.toString(),
                    Map.of("field", v.field(), "path", v.path())));
        }
        UhpMethod method = route.method();
        if (req.ifRevision() != null && !method.mutates()) {
            return error(req.id(), new UhpException(ErrorCode.INVALID_REQUEST,
                    "if_revision applies only to methods that change state; " + req.method() + " does not",
                    Map.of("field", "if_revision")));
        }
        Registry.Family family = route.family();
        if (!family.enter()) {
            // Routed to the family just before it left: under a hold, wait for the one that
            // replaces it, as a call that came a moment later would.
            if (again && awaitReturn(req.method()) != null) {
                return run(req, caller, connection, false);
            }
            return error(req.id(), new UhpException(ErrorCode.METHOD_UNAVAILABLE,
                    "method " + req.method() + " is not available: its family is stopping"));
        }
        BasicCall call = new BasicCall(req.id(), req.method(), req.params(), caller, mapper.getNodeFactory(),
                scopes, connection);
        try {
            if (req.ifRevision() != null) {
                EventBus b = bus;
                if (b != null) {
                    b.checkRevision(req.ifRevision());
                } else if (req.ifRevision() != 0) {
                    throw new UhpException(ErrorCode.REVISION_CONFLICT, "if_revision " + req.ifRevision()
                            + " is newer than the current revision 0; nothing ran", Map.of("revision", 0));
                }
                call.ifRevision(OptionalLong.of(req.ifRevision()));
            }
            resolveTargets(method, req.params(), call);
            ObjectNode result = method.handler().handle(call);
            if (result == null || !result.path("type").isTextual()) {
                throw new IllegalStateException(req.method() + " returned a result without a type");
            }
            if (method.carriesRevision()) {
                result.put("revision", revision());
            }
            if (strictResults) {
                Optional<JsonSchema.Violation> wrong = route.method().resultSchema().validate(result, "result");
                if (wrong.isPresent()) {
                    throw new IllegalStateException(req.method() + " result breaks its schema: " + wrong.get());
                }
            }
            ObjectNode out = mapper.createObjectNode();
            out.put("id", req.id());
            out.set("result", result);
            return new Reply(serialize(out), null, call.afterReplyActions(), call.streamHandler());
        } catch (UhpException e) {
            return error(req.id(), e);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            return internalError(req.id(), req.method() + " (family " + family.name + ", bundle " + family.bundle
                    + ", connection " + caller.connection() + ")", e);
        } finally {
            family.exit();
        }
    }

    /** The method's declared targets, each by the resolver of its kind, handed to the call. */
    private void resolveTargets(UhpMethod method, ObjectNode params, BasicCall call) {
        if (method.target() == null && method.targets().isEmpty()) {
            return;
        }
        Object primary = method.target() == null ? null : resolve(method.name(), method.target(), params, null, false);
        Map<String, Object> roles = new HashMap<>();
        method.targets().forEach((role, spec) -> roles.put(role, named(spec, params) || spec.omitted()
                != TargetSpec.Omitted.OPTIONAL ? resolve(method.name(), spec, params, primary, true) : null));
        call.resolved(primary, roles);
    }

    private Object resolve(String method, TargetSpec spec, ObjectNode params, Object primary, boolean role) {
        TargetResolver r = resolvers.get(spec.kind());
        if (r == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "method " + method + " is not available: nothing "
                    + "resolves " + spec.kind().wire() + " targets while its bundle is away");
        }
        Object found = role ? r.resolve(spec, params, primary) : r.resolve(spec, params);
        if (found == null) {
            throw new IllegalStateException("the " + spec.kind().wire() + " resolver answered null");
        }
        return found;
    }

    /** Whether the request names the target at all (by its id or its position). */
    private static boolean named(TargetSpec spec, ObjectNode params) {
        return params.hasNonNull(spec.idField()) || spec.positionField() != null && params.hasNonNull(spec.positionField());
    }

    /** {@code internal_error} with a correlation id; the log has it with {@code where} and the stack trace. */
    private Reply internalError(String id, String where, Throwable e) {
        String correlation = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffff_ffff_ffffL);
        LOG.log(Level.ERROR, "internal error " + correlation + " in " + where, e);
        return error(id, new UhpException(ErrorCode.INTERNAL_ERROR,
                "internal error; the server log has the details under correlation id " + correlation,
                Map.of("correlation_id", correlation)));
    }

    @Override
    public Reply error(String id, ErrorCode code, String message) {
        return error(id, new UhpException(code, message));
    }

    private Reply error(String id, UhpException e) {
        errors.get(e.code()).increment();
        ObjectNode out = mapper.createObjectNode();
        if (id == null) {
            out.putNull("id");
        } else {
            out.put("id", id);
        }
        ObjectNode err = out.putObject("error");
        err.put("code", e.code().wire());
        err.put("message", e.getMessage());
        if (!e.details().isEmpty()) {
            err.set("details", mapper.valueToTree(e.details()));
        }
        return new Reply(serialize(out), e.code(), List.of());
    }

    private byte[] serialize(ObjectNode reply) {
        try {
            byte[] body = mapper.writeValueAsBytes(reply);
            byte[] line = java.util.Arrays.copyOf(body, body.length + 1);
            line[body.length] = '\n';
            return line;
        } catch (JsonProcessingException e) {
            // Only a handler result holding an unserializable POJO gets here.
            LOG.log(Level.ERROR, "reply not serializable", e);
            return ("{\"id\":null,\"error\":{\"code\":\"internal_error\",\"message\":\"reply not serializable\"}}\n")
                    .getBytes(StandardCharsets.UTF_8);
        }
    }

    private static String clip(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }

    // ---- registry views and stats ----

    @Override
    public List<MethodInfo> methods() {
        return registry.methods();
    }

    @Override
    public List<ClaimConflict> conflicts() {
        return registry.table().conflicts();
    }

    @Override
    public List<FamilyFailure> failures() {
        List<FamilyFailure> out = new ArrayList<>(registry.failures());
        ServiceComponentRuntime scr = components;
        if (scr != null) {
            try {
                out.addAll(failedComponents(scr));
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "the DS runtime could not list its components", e);
            }
        }
        return out;
    }

    /** Family components the DS runtime could not activate: their service never appeared. */
    static List<FamilyFailure> failedComponents(ServiceComponentRuntime scr) {
        List<FamilyFailure> out = new ArrayList<>();
        for (ComponentDescriptionDTO d : scr.getComponentDescriptionDTOs()) {
            if (d.serviceInterfaces == null || !List.of(d.serviceInterfaces).contains(UhpFamily.class.getName())) {
                continue;
            }
            for (ComponentConfigurationDTO c : scr.getComponentConfigurationDTOs(d)) {
                if (c.state == ComponentConfigurationDTO.FAILED_ACTIVATION) {
                    out.add(new FamilyFailure(d.name, null, null, d.bundle == null ? "?" : d.bundle.symbolicName,
                            "the family failed to activate: " + rootCause(c.failure)));
                }
            }
        }
        return out;
    }

    /** The innermost cause's line of a DS failure (a stack trace as text), at most 300 characters. */
    static String rootCause(String failure) {
        if (failure == null || failure.isBlank()) {
            return "no reason given";
        }
        String line = failure.lines().findFirst().orElse(failure);
        for (String l : (Iterable<String>) failure.lines()::iterator) {
            if (l.startsWith("Caused by: ")) {
                line = l.substring("Caused by: ".length());
            }
        }
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }

    @Override
    public UhpContract contract() {
        return registry.contract(envelope);
    }

    @Override
    public void contribute(ObjectNode stats) {
        ObjectNode req = stats.putObject("requests");
        long n = completed.sum();
        req.put("completed", n);
        req.put("mean_latency_us", n == 0 ? 0 : latencyNanos.sum() / n / 1000);
        req.put("held_for_update", held.sum());
        ObjectNode errs = req.putObject("errors");
        errors.forEach((code, count) -> {
            long c = count.sum();
            if (c > 0) {
                errs.put(code.wire(), c);
            }
        });
    }
}

package io.artuditu.uhp.platform;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.Connection;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.StreamHandler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The plain {@link Call}: what the dispatcher hands a handler, and what the platform's own
 * tests build to call a handler directly ({@link #of}). Confined to one thread.
 */
public final class BasicCall implements Call {
    private final String id;
    private final String method;
    private final ObjectNode params;
    private final Caller caller;
    private final JsonNodeFactory nodes;
    private final Set<Scope> scopes;
    private final List<Runnable> afterReply = new ArrayList<>(1);
    private final Connection connection;
    private StreamHandler stream;
    private Object target;
    private Map<String, Object> roles = Map.of();
    private OptionalLong ifRevision = OptionalLong.empty();

    public BasicCall(String id, String method, ObjectNode params, Caller caller, JsonNodeFactory nodes) {
        this(id, method, params, caller, nodes, Set.of(Scope.ALL), Connection.NONE);
    }

    /**
     * A call holding only {@code scopes} (a delegated request) on {@code connection}
     * ({@link Connection#NONE} for an in-process call).
     */
    public BasicCall(String id, String method, ObjectNode params, Caller caller, JsonNodeFactory nodes,
            Set<Scope> scopes, Connection connection) {
        this.scopes = Set.copyOf(scopes);
        this.connection = Objects.requireNonNull(connection);
        this.id = Objects.requireNonNull(id);
        this.method = Objects.requireNonNull(method);
        this.params = Objects.requireNonNull(params);
        this.caller = Objects.requireNonNull(caller);
        this.nodes = Objects.requireNonNull(nodes);
    }

    /** An in-process call with id {@code "1"}, for tests and internal routing. */
    public static BasicCall of(String method, ObjectNode params) {
        return new BasicCall("1", method, params, Caller.inProcess(), JsonNodeFactory.instance);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public ObjectNode params() {
        return params;
    }

    @Override
    public Caller caller() {
        return caller;
    }

    @Override
    public Set<Scope> scopes() {
        return scopes;
    }

    @Override
    public ObjectNode newObject() {
        return nodes.objectNode();
    }

    @Override
    public void afterReply(Runnable action) {
        afterReply.add(Objects.requireNonNull(action));
    }

    @Override
    public void streamAfterReply(StreamHandler handler) {
        if (stream != null) {
            throw new IllegalStateException("a call streams at most once");
        }
        stream = Objects.requireNonNull(handler);
    }

    @Override
    public Connection connection() {
        return connection;
    }

    @Override
    public <T> T target(Class<T> type) {
        if (target == null) {
            throw new IllegalStateException(method + " declares no target");
        }
        return type.cast(target);
    }

    @Override
    public <T> T target(String role, Class<T> type) {
        if (!roles.containsKey(role)) {
            throw new IllegalStateException(method + " declares no target " + role);
        }
        return type.cast(roles.get(role));
    }

    @Override
    public OptionalLong ifRevision() {
        return ifRevision;
    }

    /**
     * What the dispatcher resolved before the handler: the declared target ({@code null} for
     * none) and the further ones by role (a role the request left out maps to null).
     */
    public BasicCall resolved(Object target, Map<String, Object> roles) {
        this.target = target;
        this.roles = roles.isEmpty() ? Map.of() : new HashMap<>(roles);
        return this;
    }

    /** The {@code if_revision} the request carries. */
    public BasicCall ifRevision(OptionalLong revision) {
        this.ifRevision = Objects.requireNonNull(revision);
        return this;
    }

    /** The handler registered with {@link #streamAfterReply}, or null. */
    public StreamHandler streamHandler() {
        return stream;
    }

    /** The actions registered with {@link #afterReply}, in order. */
    public List<Runnable> afterReplyActions() {
        return List.copyOf(afterReply);
    }
}

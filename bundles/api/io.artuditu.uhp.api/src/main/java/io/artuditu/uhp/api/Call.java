package io.artuditu.uhp.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One request as a handler sees it: already framed, parsed, routed and its params
 * validated against the method's schema. Confined to the thread that runs the handler.
 */
@org.osgi.annotation.versioning.ProviderType
public interface Call {
    /** The request id, echoed in the reply. */
    String id();

    /** The exact method name. */
    String method();

    /** The validated params; never null (an omitted params is an empty object). */
    ObjectNode params();

    Caller caller();

    /**
     * The scopes this request holds: {@code {all}} for the socket's owner without a token,
     * the token's scopes for a delegated request. The dispatcher has already checked the
     * method's own scope; a handler needs this only to bound what it hands on (a token
     * may not mint a token with more authority than it holds).
     */
    default Set<Scope> scopes() {
        return Set.of(Scope.ALL);
    }

    /** A fresh object node for building the result. */
    ObjectNode newObject();

    /**
     * Runs {@code action} after the reply has been written and flushed to the client,
     * on the connection's thread. Used by methods whose effect must follow their answer
     * ({@code server.stop}).
     */
    void afterReply(Runnable action);

    /**
     * Keeps the connection open after the reply: once the reply line is flushed, the
     * connection's thread runs {@code handler} with a sink for further lines (an event
     * stream). Only honoured when the handler returns a result (an error reply closes the
     * connection as usual). The connection still counts as one of the server's active
     * connections until the stream ends.
     */
    void streamAfterReply(StreamHandler handler);

    /** The connection the request came on; {@link Connection#NONE} in process. */
    Connection connection();

    /**
     * What the method's declared target ({@code "target"} in its contract row) resolved to,
     * before the handler ran: the dispatcher asks the resolver of the target's kind once, and
     * a target that does not exist was already answered with {@code not_found}. The type is
     * the resolver's: the workspace model's {@code Target} for workspaces, tabs, panes and
     * agents, the terminal family's screen for terminals.
     *
     * @throws IllegalStateException when the method declares no target, or it resolved to
     *     another type
     */
    default <T> T target(Class<T> type) {
        throw new IllegalStateException(method() + " declares no target");
    }

    /**
     * A further target the method's contract declares under {@code "targets"} by
     * {@code role} (for example {@code tab.swap}'s {@code with}); null when the request named
     * none and the role is optional.
     *
     * @throws IllegalStateException when the method declares no such role
     */
    default <T> T target(String role, Class<T> type) {
        throw new IllegalStateException(method() + " declares no target " + role);
    }

    /**
     * The {@code if_revision} the request carries (only a method that changes state may
     * carry one). The dispatcher has refused a stale one already; the writer that makes
     * the change checks it again where the change is made, against the state it is made on,
     * so nothing can slip in between.
     */
    default OptionalLong ifRevision() {
        return OptionalLong.empty();
    }
}

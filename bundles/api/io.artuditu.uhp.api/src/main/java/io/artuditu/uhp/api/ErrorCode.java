package io.artuditu.uhp.api;

import java.util.Locale;

/**
 * Every error code that may appear on the wire, in one place. The names are the
 * spec's ({@code uhp-method-reference.txt}); platform codes the spec leaves open are
 * documented in {@code docs/protocol/discovery.md}. Never renumber or rename: clients
 * match on {@link #wire()}.
 */
public enum ErrorCode {
    /** The request is malformed or a parameter is wrong; nothing changed. */
    INVALID_REQUEST("the request or one of its parameters is invalid; nothing changed"),
    /** The addressed object does not exist. */
    NOT_FOUND("the addressed object does not exist"),
    /** {@code if_revision} no longer matches; the request did not run. */
    REVISION_CONFLICT("state changed since the given if_revision; the request did not run"),
    /** Another source owns the addressed object. */
    AUTHORITY_CONFLICT("another source owns this object"),
    /** An event sequence is older than the replay window. */
    RESYNC_REQUIRED("the sequence is older than the replay window; take a fresh snapshot"),
    /** A waiting prompt already owns the pane. */
    AGENT_PROMPT_BUSY("a waiting prompt already owns this pane"),
    /** The agent does not support the operation. */
    UNSUPPORTED_AGENT("the agent does not support this operation"),
    /** The agent's session identity cannot be resolved. */
    SESSION_UNKNOWN("the agent session cannot be resolved"),
    /** A process could not be started. */
    SPAWN_FAILED("the process could not be started"),
    /** No family has ever registered this method on this server. */
    UNKNOWN_METHOD("no such method on this server"),
    /** The method's family was registered but its bundle is not running now. */
    METHOD_UNAVAILABLE("the method's family is not running; retry when it is back"),
    /** The caller's token lacks the scope the method needs, or the peer is not the owner. */
    FORBIDDEN("the caller is not allowed to call this method"),
    /** The request line exceeds {@link Limits#MAX_REQUEST_BYTES}. */
    REQUEST_TOO_LARGE("the request line exceeds the size limit"),
    /** The server already serves {@link Limits#MAX_CONNECTIONS} connections. */
    TOO_MANY_CONNECTIONS("the server is at its connection limit"),
    /** No complete request line arrived in time. */
    TIMEOUT("no complete request arrived in time"),
    /** The server is stopping and takes no new work. */
    SHUTTING_DOWN("the server is stopping"),
    /** A handler failed; the server log holds the details under the correlation id. */
    INTERNAL_ERROR("the server failed to handle the request; see the log for the correlation id");

    private final String wire;
    private final String meaning;

    ErrorCode(String meaning) {
        this.wire = name().toLowerCase(Locale.ROOT);
        this.meaning = meaning;
    }

    /** The code as it appears on the wire, for example {@code not_found}. */
    public String wire() {
        return wire;
    }

    /** One line saying what the code means to a client. */
    public String meaning() {
        return meaning;
    }
}

package io.artuditu.uhp.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

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

    /** A fresh object node for building the result. */
    ObjectNode newObject();

    /**
     * Runs {@code action} after the reply has been written and flushed to the client,
     * on the connection's thread. Used by methods whose effect must follow their answer
     * ({@code server.stop}).
     */
    void afterReply(Runnable action);
}

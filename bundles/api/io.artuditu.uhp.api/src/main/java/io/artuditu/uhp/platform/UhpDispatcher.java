package io.artuditu.uhp.platform;

import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.Connection;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.schema.UhpContract;
import java.util.List;

/**
 * Routes request lines to the families on the whiteboard. Provided by the dispatcher
 * bundle; used by transports (the socket server) and by the discovery family. Thread
 * safe: any number of connection threads call {@link #dispatch} at once.
 */
@org.osgi.annotation.versioning.ProviderType
public interface UhpDispatcher {
    /**
     * Parses, validates and runs one request line ({@code len} bytes of UTF-8 JSON, the
     * newline excluded) and returns the reply. Never throws: every failure is an error
     * reply.
     */
    Reply dispatch(byte[] buf, int off, int len, Caller caller);

    /**
     * As above, on a transport connection a handler may watch (waits, streams). A
     * dispatcher that cannot use the connection ignores it.
     */
    default Reply dispatch(byte[] buf, int off, int len, Caller caller, Connection connection) {
        return dispatch(buf, off, len, caller);
    }

    /**
     * Opens a hold for a change that takes families away and brings them back (a bundle
     * update, or the refresh after an uninstall): while any hold is open, a call to a method
     * whose family was registered once and is away now waits for it to come back, for a
     * bounded time, instead of answering {@code method_unavailable} at once. Closing the
     * handle (idempotent) ends the hold; calls still waiting then answer as without it.
     * A dispatcher that cannot hold returns a handle that does nothing.
     */
    default AutoCloseable holdAwayFamilies() {
        return () -> { };
    }

    /** Builds an error reply without running anything (transport-level refusals). */
    Reply error(String id, ErrorCode code, String message);

    /** The live registry, sorted by method name. */
    List<MethodInfo> methods();

    /** Method names claimed twice, with the winner and the loser. */
    List<ClaimConflict> conflicts();

    /**
     * What registered families could not offer (methods and events left out of their
     * contracts, routes without a row) and families that could not register at all, with
     * the reason.
     */
    List<FamilyFailure> failures();

    /**
     * The installed contract: the envelope with the contracts of the families registered
     * now ({@link io.artuditu.uhp.api.UhpFamily#contract()}), in registration order.
     */
    UhpContract contract();
}

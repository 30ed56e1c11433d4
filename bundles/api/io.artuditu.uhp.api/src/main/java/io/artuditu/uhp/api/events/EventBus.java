package io.artuditu.uhp.api.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The server's one event bus. Every published event takes the next value of one
 * monotonic sequence (the first event is 1; 0 means none yet); that sequence is also the
 * application-state revision. Thread safe.
 *
 * <p>Errors a client caused ({@code after_sequence} out of range) are thrown as
 * {@link io.artuditu.uhp.api.UhpException} so a family may let them through.
 */
@org.osgi.annotation.versioning.ProviderType
public interface EventBus {
    /**
     * Event names: two to four dot-separated snake_case segments, at most 128 bytes, for
     * example {@code pane.agent_status_changed}. Names under {@code events.} are the bus's
     * own and cannot be published.
     */
    Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*){1,3}");
    /** Longest event name. */
    int MAX_NAME_BYTES = 128;
    /** Largest serialized event line (ours): bigger events are refused at publish. */
    int MAX_EVENT_BYTES = 64 * 1024;

    /** Whether {@code name} is a valid event name (reserved {@code events.} names included). */
    static boolean validName(String name) {
        return name != null && name.length() <= MAX_NAME_BYTES && NAME.matcher(name).matches();
    }

    /**
     * Publishes one event; returns its sequence. {@code data} is copied.
     *
     * @throws IllegalArgumentException for a bad or reserved name, or an event line over
     *                                  {@link #MAX_EVENT_BYTES}
     */
    long publish(String event, ObjectNode data);

    /**
     * Publishes an event that reports what a terminal showed (its output, title, bell or a
     * notification) rather than a change of application state. It takes the next sequence
     * like every event, so streams and waits see it in order, but it does not move
     * {@link #stateSequence()}: an {@code if_revision} read before it is still current.
     * The default treats it as a state change.
     */
    default long publishObservation(String event, ObjectNode data) {
        return publish(event, data);
    }

    /** The sequence of the newest event (the fence); 0 before the first. */
    long sequence();

    /**
     * The sequence of the newest event that changed application state: every event but
     * {@linkplain #publishObservation observations}; 0 before the first. A mutation whose
     * {@code if_revision} is at least this (and not past {@link #sequence()}) saw the current
     * state. The default is {@link #sequence()}.
     */
    default long stateSequence() {
        return sequence();
    }

    /**
     * Refuses a change whose {@code if_revision} is stale: application state changed after
     * it (an {@linkplain #publishObservation observation} does not count), or it names a
     * revision this bus never gave out. Call it where the change is made, in the same
     * critical section as the change and its events, so no other change slips in between.
     *
     * @throws io.artuditu.uhp.api.UhpException {@code revision_conflict} with details
     *     {@code {"revision": current}}; nothing should run
     */
    default void checkRevision(long ifRevision) {
        long current = sequence();
        long changed = stateSequence();
        if (ifRevision < changed) {
            throw new io.artuditu.uhp.api.UhpException(io.artuditu.uhp.api.ErrorCode.REVISION_CONFLICT, "if_revision "
                    + ifRevision + " is stale: the state changed at revision " + changed + "; nothing ran",
                    java.util.Map.of("revision", current));
        }
        if (ifRevision > current) {
            throw new io.artuditu.uhp.api.UhpException(io.artuditu.uhp.api.ErrorCode.REVISION_CONFLICT, "if_revision "
                    + ifRevision + " is newer than the current revision " + current + "; nothing ran",
                    java.util.Map.of("revision", current));
        }
    }

    /**
     * Opens a subscription. With {@code afterSequence}, the retained events after it are
     * queued first, then live ones, with no gap and no duplicate.
     *
     * @param events exact names to deliver; empty for every event
     * @throws io.artuditu.uhp.api.UhpException {@code resync_required} when events after
     *         {@code afterSequence} already left the window, {@code invalid_request} when it is
     *         greater than {@link #sequence()}
     */
    Subscription subscribe(OptionalLong afterSequence, Set<String> events);

    /**
     * Registers a one-shot waiter for the next event called {@code event} whose data
     * holds every field of {@code where} with an equal value. The fence is read after the
     * waiter is registered. With {@code afterSequence}, a retained matching event after it
     * satisfies the waiter at once (errors as for {@link #subscribe}).
     */
    EventWaiter await(String event, ObjectNode where, OptionalLong afterSequence);
}

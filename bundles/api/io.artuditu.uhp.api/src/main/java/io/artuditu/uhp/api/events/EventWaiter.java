package io.artuditu.uhp.api.events;

import java.util.Optional;

/** One registered {@link EventBus#await} waiter. Thread safe. */
@org.osgi.annotation.versioning.ProviderType
public interface EventWaiter extends AutoCloseable {
    /** The sequence fence read right after registration. */
    long fence();

    /**
     * Parks until a matching event, {@link #close}, or the timeout; empty unless matched.
     */
    Optional<EventFrame> await(long timeoutMillis) throws InterruptedException;

    /** Unregisters and wakes a parked {@link #await}. Idempotent. */
    @Override
    void close();
}

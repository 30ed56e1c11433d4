package io.artuditu.uhp.api.events;

/**
 * One subscriber's bounded queue. When the queue is full at publish time the subscriber
 * is cut: its queue is emptied, it leaves the bus, and {@link #take} returns the resync
 * line once, then null. Thread safe; one thread takes.
 */
@org.osgi.annotation.versioning.ProviderType
public interface Subscription extends AutoCloseable {
    /** The event sequence when the subscription started (replay included before it). */
    long sequence();

    /** Frames the queue holds at most. */
    int capacity();

    /**
     * The next line to write: an event line, or once the {@code events.resync_required}
     * line; null once the subscription is over (closed, or after the resync line). Blocks.
     */
    byte[] take() throws InterruptedException;

    /** Runs {@code action} (on the publishing thread) if the subscriber is cut for falling behind. */
    void onOverflow(Runnable action);

    /** Leaves the bus; a blocked {@link #take} returns null. Idempotent. */
    @Override
    void close();
}

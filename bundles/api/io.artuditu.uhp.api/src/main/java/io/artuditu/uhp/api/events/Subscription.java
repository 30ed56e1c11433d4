package io.artuditu.uhp.api.events;

import io.artuditu.uhp.api.StreamSink;
import java.io.IOException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One subscriber's bounded queue. When the queue is full at publish time the subscriber
 * is cut: its queue is emptied, it leaves the bus, and {@link #take} returns the resync
 * line once, then null. Thread safe; one thread takes.
 */
@org.osgi.annotation.versioning.ProviderType
public interface Subscription extends AutoCloseable {
    /**
     * How long a cut subscriber may take to read its {@code events.resync_required} line
     * before its stream is aborted anyway (one that does not read would hold the
     * connection forever).
     */
    long RESYNC_GRACE_MS = 1_000;

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

    /**
     * Writes every line to {@code sink} until the subscription is over, then closes it: the
     * body of every event stream. When the subscriber is cut, {@code closer} aborts the
     * sink {@link #RESYNC_GRACE_MS} later, in case the client does not read the resync line.
     * An interrupt ends the stream with the interrupt flag set again.
     */
    default void pump(StreamSink sink, ScheduledExecutorService closer) throws IOException {
        onOverflow(() -> closer.schedule(sink::abort, RESYNC_GRACE_MS, TimeUnit.MILLISECONDS));
        try {
            for (byte[] line = take(); line != null; line = take()) {
                sink.write(line);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    /** Leaves the bus; a blocked {@link #take} returns null. Idempotent. */
    @Override
    void close();
}

package io.artuditu.events.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.events.Subscription;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One event published through the server's real bus ({@link EventBusComponent}, which wraps
 * {@link Bus}) to {@code subscribers} subscribers, in-process: no socket, no framework, one
 * thread. The event is {@code terminal.output} as {@code TerminalEvents} publishes it
 * while a pane prints ({@code {"terminal_id","pane","revision"}}, an observation); each subscriber is a
 * {@link Bus.Sub} made by {@code subscribe(empty, no filter)}, exactly what
 * {@code events.subscribe} without {@code after_sequence} or {@code events} gets. The replay
 * window is full after warm-up, so every publish also evicts its oldest frame.
 *
 * <p>The bus's own unit of work is a publish that <em>queues</em> the frame: {@code publish}
 * copies and serializes the data once, appends the frame to the window and offers it to every
 * subscriber's queue, then returns. Delivery happens later, on each subscriber's connection
 * thread, in {@link Subscription#pump}: {@code take()} the line (a copy of the frame's bytes),
 * then {@code StreamSink.write} it to the socket. The only real sink is the server bundle's
 * {@code SocketSink}, a write and flush on a connected socket per line, which has no in-memory
 * form; so no sink is part of either op.
 *
 * <ul>
 *   <li>{@link #publish}: one op = one {@code publishObservation} queued to every
 *       subscriber, the publisher's cost. Measured in batches of {@value #BATCH} (below the
 *       queue's {@value Bus#QUEUE_FRAMES} frames, so nobody is cut); the queues are emptied
 *       between batches, outside the measurement.</li>
 *   <li>{@link #publishAndTake}: one op = that publish plus every subscriber's {@code take()}
 *       of the line, i.e. the whole in-process hand-off up to the bytes a connection thread
 *       would write.</li>
 * </ul>
 *
 * <p>Not included: building the event's {@code ObjectNode} (done once; the bus deep-copies it
 * on every publish, and that copy is included), waking a connection thread blocked in
 * {@code take()} (no thread waits here, so {@code notifyAll} finds nobody), the socket write,
 * and contention between publishers and readers on the bus and queue monitors.
 *
 * <pre>java -jar bench/target/benchmarks.jar EventFanoutBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-XX:+UseSerialGC"})
public class EventFanoutBenchmark {
    /** Publishes per {@link #publish} invocation; the queues hold them all. */
    static final int BATCH = 64;
    private static final String EVENT = "terminal.output";

    @Param({"1", "8"})
    public int subscribers;

    private EventBusComponent bus;
    private Subscription[] subs;
    private ObjectNode data;

    @Setup
    public void setUp() throws InterruptedException {
        bus = new EventBusComponent();
        subs = new Subscription[subscribers];
        for (int i = 0; i < subscribers; i++) {
            subs[i] = bus.subscribe(OptionalLong.empty(), Set.of());
        }
        data = JsonNodeFactory.instance.objectNode().put("terminal_id", "t-3f9c2a71").put("pane", "p-0b7e41d2")
                .put("revision", 123_456L);
        long seq = bus.publishObservation(EVENT, data);
        for (Subscription s : subs) {
            String line = new String(s.take(), StandardCharsets.UTF_8);
            if (!line.startsWith("{\"event\":\"" + EVENT + "\",\"sequence\":" + seq + ",")) {
                throw new IllegalStateException("unexpected line: " + line);
            }
        }
    }

    /**
     * Empties every queue after a {@link #publish} batch, not measured. A state of its own so
     * that only {@link #publish} pays for an invocation-level helper.
     */
    @State(Scope.Benchmark)
    public static class Drain {
        @TearDown(Level.Invocation)
        public void drain(EventFanoutBenchmark b, Blackhole bh) throws InterruptedException {
            for (Subscription s : b.subs) {
                while (((Bus.Sub) s).queued() > 0) {
                    bh.consume(s.take());
                }
            }
        }
    }

    @TearDown
    public void check() {
        for (Subscription s : subs) {
            if (((Bus.Sub) s).queued() != 0) {
                throw new IllegalStateException("a queue was not drained");
            }
        }
        ObjectNode stats = JsonNodeFactory.instance.objectNode();
        bus.contribute(stats);
        if (stats.path("events").path("subscribers").asInt() != subscribers
                || stats.path("events").path("subscribers_cut").asLong() != 0) {
            throw new IllegalStateException("subscribers were cut: " + stats);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long publish(Drain drain) {
        long seq = 0;
        for (int i = 0; i < BATCH; i++) {
            seq += bus.publishObservation(EVENT, data);
        }
        return seq;
    }

    @Benchmark
    public void publishAndTake(Blackhole bh) throws InterruptedException {
        bh.consume(bus.publishObservation(EVENT, data));
        for (Subscription s : subs) {
            bh.consume(s.take());
        }
    }
}

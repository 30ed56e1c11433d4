package io.artuditu.events.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventFrame;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * The event bus. One monitor ({@code this}) guards the sequence, the replay window, the
 * subscriber list and the waiter list, so a subscription's replay and its first live
 * event, or a waiter's registration and its fence, can never have a publish between
 * them. Subscriber queues have their own monitor (always taken after the bus's), so a
 * reader never holds up a publisher.
 *
 * <p>Bounds: the window keeps at most {@code maxFrames} frames and {@code maxBytes}
 * bytes (whichever is hit first evicts the oldest); each subscriber queue
 * {@code queueFrames} frames and {@code queueBytes} bytes; waiters and subscribers are
 * bounded by the connections that own them.
 */
final class Bus implements EventBus {
    /** Frames a subscriber's queue holds before it is cut. */
    static final int QUEUE_FRAMES = 1024;
    /** Bytes a subscriber's queue holds before it is cut. */
    static final int QUEUE_BYTES = 4 << 20;
    static final String RESYNC_EVENT = "events.resync_required";

    private final ObjectMapper mapper = new ObjectMapper();
    private final int maxFrames;
    private final int maxBytes;
    private final int queueFrames;
    private final int queueBytes;

    private long sequence;
    /** The newest event that changed application state (not an observation). */
    private long stateSequence;
    private final ArrayDeque<EventFrame> window = new ArrayDeque<>();
    private long windowBytes;
    private final List<Sub> subscribers = new ArrayList<>();
    private final List<Waiter> waiters = new ArrayList<>();
    private final LongAdder cut = new LongAdder();

    Bus() {
        this(Limits.REPLAY_MAX_FRAMES, Limits.REPLAY_MAX_BYTES, QUEUE_FRAMES, QUEUE_BYTES);
    }

    Bus(int maxFrames, int maxBytes, int queueFrames, int queueBytes) {
        this.maxFrames = maxFrames;
        this.maxBytes = maxBytes;
        this.queueFrames = queueFrames;
        this.queueBytes = queueBytes;
    }

    // ---- publish ----

    @Override
    public long publish(String event, ObjectNode data) {
        return publish(event, data, true);
    }

    @Override
    public long publishObservation(String event, ObjectNode data) {
        return publish(event, data, false);
    }

    @Override
    public synchronized long stateSequence() {
        return stateSequence;
    }

    private long publish(String event, ObjectNode data, boolean changesState) {
        if (!EventBus.validName(event) || event.startsWith("events.")) {
            throw new IllegalArgumentException("not a publishable event name: " + event);
        }
        ObjectNode copy = data == null ? mapper.createObjectNode() : data.deepCopy();
        byte[] body;
        try {
            body = mapper.writeValueAsBytes(copy);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("event data is not serializable", e);
        }
        synchronized (this) {
            long seq = sequence + 1;
            byte[] line = line(event, seq, body);
            if (line.length > EventBus.MAX_EVENT_BYTES) {
                throw new IllegalArgumentException("event is " + line.length + " bytes; the limit is "
                        + EventBus.MAX_EVENT_BYTES);
            }
            sequence = seq;
            if (changesState) {
                stateSequence = seq;
            }
            EventFrame frame = new EventFrame(event, seq, copy, line);
            window.addLast(frame);
            windowBytes += line.length;
            while (window.size() > maxFrames || windowBytes > maxBytes) {
                windowBytes -= window.removeFirst().size();
            }
            for (Iterator<Sub> it = subscribers.iterator(); it.hasNext();) {
                Sub s = it.next();
                if (s.wants(event) && !s.offer(frame, seq)) {
                    it.remove();
                    cut.increment();
                    s.overflowed();
                }
            }
            for (Iterator<Waiter> it = waiters.iterator(); it.hasNext();) {
                Waiter w = it.next();
                if (w.matches(frame)) {
                    it.remove();
                    w.complete(frame);
                }
            }
            return seq;
        }
    }

    private static byte[] line(String event, long seq, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + event.length() + 48);
        out.writeBytes(("{\"event\":\"" + event + "\",\"sequence\":" + seq + ",\"data\":").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        out.write('}');
        out.write('\n');
        return out.toByteArray();
    }

    @Override
    public synchronized long sequence() {
        return sequence;
    }

    /** Throws unless every event after {@code after} is still retained (call under the monitor). */
    private void checkAfter(long after) {
        if (after > sequence) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "after_sequence " + after
                    + " is greater than the current sequence " + sequence,
                    Map.of("field", "after_sequence", "sequence", sequence));
        }
        long oldest = window.isEmpty() ? sequence + 1 : window.peekFirst().sequence();
        if (after + 1 < oldest) {
            throw new UhpException(ErrorCode.RESYNC_REQUIRED, "events after " + after
                    + " are no longer retained (oldest retained: " + oldest + "); take a fresh snapshot",
                    Map.of("oldest_retained", oldest, "sequence", sequence));
        }
    }

    // ---- subscriptions ----

    @Override
    public Subscription subscribe(OptionalLong afterSequence, Set<String> events) {
        Sub s = new Sub(Set.copyOf(events));
        synchronized (this) {
            s.sequence = sequence;
            if (afterSequence.isPresent()) {
                long after = afterSequence.getAsLong();
                checkAfter(after);
                for (EventFrame f : window) {
                    if (f.sequence() > after && s.wants(f.event()) && !s.offer(f, sequence)) {
                        // A replay larger than the queue: the subscriber starts out cut.
                        cut.increment();
                        s.overflowed();
                        return s;
                    }
                }
            }
            subscribers.add(s);
        }
        return s;
    }

    private synchronized void remove(Sub s) {
        subscribers.remove(s);
    }

    /** One subscriber: a bounded queue and its own monitor. */
    final class Sub implements Subscription {
        private final Set<String> filter;
        private final ArrayDeque<EventFrame> queue = new ArrayDeque<>();
        private int bytes;
        private long sequence;
        private long lastOffered;
        private boolean done;
        private byte[] resync;
        private Runnable overflowAction;

        Sub(Set<String> filter) {
            this.filter = filter;
        }

        boolean wants(String event) {
            return filter.isEmpty() || filter.contains(event);
        }

        /** Queues a frame; false when the queue is full (the caller then cuts this subscriber). */
        synchronized boolean offer(EventFrame f, long busSequence) {
            if (done || resync != null) {
                return true;
            }
            if (queue.size() >= queueFrames || bytes + f.size() > queueBytes) {
                queue.clear();
                bytes = 0;
                resync = resyncLine(busSequence, lastOffered);
                notifyAll();
                return false;
            }
            queue.addLast(f);
            bytes += f.size();
            lastOffered = f.sequence();
            notifyAll();
            return true;
        }

        private byte[] resyncLine(long busSequence, long delivered) {
            return ("{\"event\":\"" + RESYNC_EVENT + "\",\"sequence\":" + busSequence
                    + ",\"data\":{\"reason\":\"queue_full\",\"queue_capacity\":" + queueFrames
                    + ",\"last_queued_sequence\":" + delivered + "}}\n").getBytes(StandardCharsets.UTF_8);
        }

        void overflowed() {
            Runnable a;
            synchronized (this) {
                a = overflowAction;
            }
            if (a != null) {
                a.run();
            }
        }

        @Override
        public long sequence() {
            return sequence;
        }

        @Override
        public int capacity() {
            return queueFrames;
        }

        @Override
        public synchronized byte[] take() throws InterruptedException {
            while (queue.isEmpty() && resync == null && !done) {
                wait();
            }
            if (!queue.isEmpty()) {
                EventFrame f = queue.removeFirst();
                bytes -= f.size();
                return f.line();
            }
            if (resync != null && !done) {
                done = true;
                return resync;
            }
            return null;
        }

        /** The queued frames without taking them (tests). */
        synchronized int queued() {
            return queue.size();
        }

        @Override
        public void onOverflow(Runnable action) {
            boolean already;
            synchronized (this) {
                overflowAction = action;
                already = resync != null && !done;
            }
            if (already) {
                action.run();
            }
        }

        @Override
        public void close() {
            remove(this);
            synchronized (this) {
                done = true;
                queue.clear();
                bytes = 0;
                notifyAll();
            }
        }
    }

    // ---- waiters ----

    @Override
    public EventWaiter await(String event, ObjectNode where, OptionalLong afterSequence) {
        Waiter w = new Waiter(event, where == null ? mapper.createObjectNode() : where.deepCopy());
        synchronized (this) {
            if (afterSequence.isPresent()) {
                long after = afterSequence.getAsLong();
                checkAfter(after);
                for (EventFrame f : window) {
                    if (f.sequence() > after && w.matches(f)) {
                        w.fence = sequence;
                        w.complete(f);
                        return w;
                    }
                }
            }
            waiters.add(w);
            w.fence = sequence;
        }
        return w;
    }

    private synchronized void remove(Waiter w) {
        waiters.remove(w);
    }

    /** A one-shot waiter: matched at most once, by the publisher, under the bus monitor. */
    final class Waiter implements EventWaiter {
        private final String event;
        private final ObjectNode where;
        private final java.util.concurrent.CountDownLatch latch = new java.util.concurrent.CountDownLatch(1);
        private volatile EventFrame match;
        private long fence;

        Waiter(String event, ObjectNode where) {
            this.event = event;
            this.where = where;
        }

        boolean matches(EventFrame f) {
            if (!f.event().equals(event)) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = where.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!f.dataEquals(e.getKey(), e.getValue())) {
                    return false;
                }
            }
            return true;
        }

        void complete(EventFrame f) {
            match = f;
            latch.countDown();
        }

        @Override
        public long fence() {
            return fence;
        }

        @Override
        public java.util.Optional<EventFrame> await(long timeoutMillis) throws InterruptedException {
            latch.await(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
            return java.util.Optional.ofNullable(match);
        }

        @Override
        public void close() {
            remove(this);
            latch.countDown();
        }
    }

    // ---- stats ----

    synchronized void contribute(ObjectNode stats) {
        ObjectNode e = stats.putObject("events");
        e.put("sequence", sequence);
        e.put("subscribers", subscribers.size());
        e.put("waiters", waiters.size());
        e.put("retained_frames", window.size());
        e.put("retained_bytes", windowBytes);
        e.put("subscribers_cut", cut.sum());
        e.put("queue_capacity", queueFrames);
    }

    synchronized int waiters() {
        return waiters.size();
    }

    synchronized int subscribers() {
        return subscribers.size();
    }

    synchronized long retainedBytes() {
        return windowBytes;
    }

    synchronized List<Long> retained() {
        List<Long> out = new ArrayList<>(window.size());
        for (EventFrame f : window) {
            out.add(f.sequence());
        }
        return out;
    }
}

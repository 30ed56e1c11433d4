package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.FamilyHarness;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The git family over the test kit's in-memory model (nothing spawns), called as the
 * dispatcher calls it, with the write engine it uses; the engine's {@code git.op} events are
 * kept in order.
 */
final class Harness extends FamilyHarness {
    /** The write engine the family uses; {@link #close} stops it. */
    final GitEngine engine;
    /** The git.op events the engine published, in order. */
    final List<ObjectNode> opEvents = Collections.synchronizedList(new ArrayList<>());

    Harness() {
        this(GitProcess.Limits.DEFAULT, 5_000);
    }

    Harness(GitProcess.Limits limits, long graceMillis) {
        engine = new GitEngine(limits, graceMillis, () -> new RecordingBus(opEvents));
        register(new GitFamily(this, engine).methods());
    }

    void close() {
        engine.deactivate();
    }

    /** An event bus that keeps what is published (git.op only here). */
    record RecordingBus(List<ObjectNode> events) implements EventBus {
        @Override
        public long publish(String event, ObjectNode data) {
            if (!event.equals("git.op")) {
                throw new AssertionError("unexpected event " + event);
            }
            events.add(data.deepCopy());
            return events.size();
        }

        @Override
        public long sequence() {
            return events.size();
        }

        @Override
        public Subscription subscribe(OptionalLong afterSequence, Set<String> names) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EventWaiter await(String event, ObjectNode where, OptionalLong afterSequence) {
            throw new UnsupportedOperationException();
        }
    }
}

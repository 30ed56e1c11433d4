package io.artuditu.events.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
import io.artuditu.uhp.platform.StatsContributor;
import java.util.OptionalLong;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/** The server's one {@link EventBus}, and its counters under {@code events} in {@code uhp.stats}. */
@Component(service = {EventBus.class, StatsContributor.class}, immediate = true)
public final class EventBusComponent implements EventBus, StatsContributor {
    private final Bus bus = new Bus();

    @Override
    public long publish(String event, ObjectNode data) {
        return bus.publish(event, data);
    }

    @Override
    public long publishObservation(String event, ObjectNode data) {
        return bus.publishObservation(event, data);
    }

    @Override
    public long sequence() {
        return bus.sequence();
    }

    @Override
    public long stateSequence() {
        return bus.stateSequence();
    }

    @Override
    public Subscription subscribe(OptionalLong afterSequence, Set<String> events) {
        return bus.subscribe(afterSequence, events);
    }

    @Override
    public EventWaiter await(String event, ObjectNode where, OptionalLong afterSequence) {
        return bus.await(event, where, afterSequence);
    }

    @Override
    public void contribute(ObjectNode stats) {
        bus.contribute(stats);
    }
}

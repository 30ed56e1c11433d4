package io.artuditu.model.topology;

import java.util.List;

/**
 * What an accepted operation produces: the next state, the events to publish after it is
 * installed, and the operation's answer (for example the new pane's id).
 */
public record Change<T>(Topology state, List<TopologyEvent> events, T result) {
    public Change {
        events = List.copyOf(events);
    }
}

package io.artuditu.workspace.topology;

import java.util.Map;

/** An event a change publishes, in order: its name and flat data. */
public record TopologyEvent(String name, Map<String, Object> data) {
    public TopologyEvent {
        data = Map.copyOf(data);
    }
}

package io.artuditu.model.topology;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An event a change publishes, in order: its name and data (in the given order; a null
 * value is published as JSON null).
 */
public record TopologyEvent(String name, Map<String, Object> data) {
    public TopologyEvent {
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }
}

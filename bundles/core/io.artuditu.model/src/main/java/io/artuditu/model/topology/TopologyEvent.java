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

    /** An event with these key-value pairs, in order; pairs whose value is null are left out. */
    public static TopologyEvent of(String name, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put((String) kv[i], kv[i + 1]);
            }
        }
        return new TopologyEvent(name, m);
    }

    /** Like {@link #of} but keeps null values: a cleared name is news. */
    public static TopologyEvent withNulls(String name, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return new TopologyEvent(name, m);
    }
}

package io.artuditu.config.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The merge rules, as pure functions over JSON trees. */
final class Tables {
    private Tables() {
    }

    /**
     * Overlays {@code over} onto {@code base} in place: an object into an object merges
     * key by key, anything else replaces. Used to fill defaults under stored values.
     */
    static ObjectNode overlay(ObjectNode base, JsonNode over) {
        for (Iterator<Map.Entry<String, JsonNode>> it = over.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode mine = base.get(e.getKey());
            if (mine instanceof ObjectNode o && e.getValue().isObject()) {
                overlay(o, e.getValue());
            } else {
                base.set(e.getKey(), e.getValue().deepCopy());
            }
        }
        return base;
    }

    /**
     * Applies a patch in place: objects merge recursively, {@code null} removes the key
     * (so its default shows again), anything else replaces. An object left empty by
     * removals is removed too, so the file keeps only what the user set.
     */
    static void patch(ObjectNode target, JsonNode patch) {
        List<String> emptied = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey();
            JsonNode v = e.getValue();
            JsonNode mine = target.get(k);
            if (v.isNull()) {
                target.remove(k);
            } else if (v.isObject() && mine instanceof ObjectNode o) {
                patch(o, v);
                if (o.isEmpty()) {
                    emptied.add(k);
                }
            } else if (v.isObject()) {
                ObjectNode fresh = target.putObject(k);
                patch(fresh, v);
                if (fresh.isEmpty()) {
                    emptied.add(k);
                }
            } else {
                target.set(k, v.deepCopy());
            }
        }
        emptied.forEach(target::remove);
    }
}

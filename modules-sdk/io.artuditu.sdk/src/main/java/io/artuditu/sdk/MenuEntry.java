package io.artuditu.sdk;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One entry of a dock row's right-click menu. An entry with an empty action is a divider.
 *
 * @param title       the label
 * @param action      the module action it runs; empty for a divider
 * @param value       overrides the row's value for this entry, or null
 * @param destructive tints the label as dangerous
 */
public record MenuEntry(String title, String action, String value, boolean destructive) {
    public static MenuEntry of(String title, String action, String value) {
        return new MenuEntry(title, action, value, false);
    }

    public static MenuEntry divider() {
        return new MenuEntry("", "", null, false);
    }

    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode().put("title", title).put("action", action);
        if (value != null) {
            n.put("value", value);
        }
        if (destructive) {
            n.put("destructive", true);
        }
        return n;
    }
}

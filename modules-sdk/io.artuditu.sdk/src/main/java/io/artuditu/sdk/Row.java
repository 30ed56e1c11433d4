package io.artuditu.sdk;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One row of a sidebar dock.
 *
 * @param text   the label (required)
 * @param dot    an agent-state dot before the label, or null ({@code unknown} is not a dot)
 * @param action the module action a left click runs, or null
 * @param value  handed to the action as {@code ARTUDITU_MODULE_ROW_VALUE}, or null
 * @param menu   the right-click menu; empty for none
 */
public record Row(String text, AgentState dot, String action, String value, List<MenuEntry> menu) {
    public Row {
        menu = menu == null ? List.of() : List.copyOf(menu);
    }

    public static Row of(String text) {
        return new Row(text, null, null, null, List.of());
    }

    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode().put("text", text);
        if (dot != null) {
            n.put("dot", dot.wire());
        }
        if (action != null) {
            n.put("action", action);
        }
        if (value != null) {
            n.put("value", value);
        }
        if (!menu.isEmpty()) {
            ArrayNode m = n.putArray("menu");
            menu.forEach(e -> m.add(e.toJson()));
        }
        return n;
    }
}

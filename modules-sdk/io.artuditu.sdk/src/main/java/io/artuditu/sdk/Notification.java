package io.artuditu.sdk;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A notification, as {@code ui.notification.push} takes it.
 *
 * @param text      the message (required)
 * @param level     {@code info}, {@code success}, {@code warning} or {@code error}; null for info
 * @param ttlMs     how long it shows, clamped to 500–60,000 ms; 0 for the default (4,000 ms)
 * @param action    the module action a click runs, or null
 * @param value     handed to the action as {@code ARTUDITU_MODULE_ROW_VALUE}, or null
 * @param dedupeKey a newer notification with the same key replaces this one, or null
 */
public record Notification(String text, String level, int ttlMs, String action, String value, String dedupeKey) {
    public static Notification of(String text) {
        return new Notification(text, null, 0, null, null, null);
    }

    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode().put("text", text);
        if (level != null) {
            n.put("level", level);
        }
        if (ttlMs != 0) {
            n.put("ttl_ms", ttlMs);
        }
        if (action != null) {
            n.put("action", action);
        }
        if (value != null) {
            n.put("value", value);
        }
        if (dedupeKey != null) {
            n.put("dedupe_key", dedupeKey);
        }
        return n;
    }
}

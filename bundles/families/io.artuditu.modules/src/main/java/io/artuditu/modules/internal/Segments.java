package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.vt.Width;
import java.util.Map;
import java.util.Set;

/**
 * Checks bar content and dock rows past what the schema says: the spec's per-field byte
 * limit and control characters, each segment type's own fields, actions the owner declares,
 * and the widget's display width. Every problem is {@code invalid_request} naming the path.
 */
final class Segments {
    private static final Map<String, Set<String>> FIELDS = Map.of(
            "text", Set.of("type", "text", "tone", "action", "value"),
            "symbol", Set.of("type", "symbol", "tone", "action", "value"),
            "state", Set.of("type", "state", "label", "tone", "action", "value"),
            "badge", Set.of("type", "text", "tone", "action", "value"),
            "progress", Set.of("type", "value", "total", "width", "tone", "action"),
            "spacer", Set.of("type", "width"),
            "separator", Set.of("type", "tone"));
    static final int PROGRESS_DEFAULT_WIDTH = 8;

    private Segments() {
    }

    /** The content's display width; throws for anything the spec refuses. */
    static int check(ArrayNode content, String path, Manifest owner) {
        if (content.size() > Limits.BAR_SEGMENTS) {
            throw invalid(path + " has " + content.size() + " segments; a widget holds at most " + Limits.BAR_SEGMENTS,
                    path, Limits.BAR_SEGMENTS);
        }
        int width = 0;
        for (int i = 0; i < content.size(); i++) {
            width += segment((ObjectNode) content.get(i), path + "[" + i + "]", owner);
        }
        if (width > Limits.BAR_COLUMNS) {
            throw invalid(path + " is " + width + " columns wide; a widget is at most " + Limits.BAR_COLUMNS, path,
                    Limits.BAR_COLUMNS);
        }
        return width;
    }

    private static int segment(ObjectNode s, String path, Manifest owner) {
        String type = s.get("type").textValue();
        for (java.util.Iterator<String> it = s.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!FIELDS.get(type).contains(f)) {
                throw invalid(path + ": a " + type + " segment has no field " + f, path + "." + f, null);
            }
        }
        for (String f : new String[] {"text", "symbol", "label", "action"}) {
            if (s.has(f)) {
                field(s.get(f), path + "." + f);
            }
        }
        if (s.has("action")) {
            action(owner, s.get("action").textValue(), path + ".action");
        }
        switch (type) {
            case "progress": {
                JsonNode v = s.get("value");
                JsonNode t = s.get("total");
                if (v == null || !v.isIntegralNumber() || t == null) {
                    throw invalid(path + ": a progress segment needs integer value and total", path, null);
                }
                if (v.longValue() < 0 || v.longValue() > t.longValue()) {
                    throw invalid(path + ": progress value must be from 0 to total", path + ".value", null);
                }
                return s.path("width").asInt(PROGRESS_DEFAULT_WIDTH);
            }
            case "spacer":
                return s.path("width").asInt(1);
            case "separator":
                return 1;
            default:
                break;
        }
        if (s.has("value")) {
            if (!s.get("value").isTextual()) {
                throw invalid(path + ".value must be a string", path + ".value", null);
            }
            field(s.get("value"), path + ".value");
        }
        switch (type) {
            case "text":
                return Width.of(required(s, "text", path));
            case "symbol":
                return Width.of(required(s, "symbol", path));
            case "badge":
                return Width.of(required(s, "text", path)) + 2;
            default: // state
                if (!s.has("state")) {
                    throw invalid(path + ": a state segment needs state", path + ".state", null);
                }
                return 1 + (s.has("label") ? 1 + Width.of(s.get("label").textValue()) : 0);
        }
    }

    /** A dock's rows: field limits, actions of the owner, menus. */
    static void checkRows(ArrayNode rows, Manifest owner) {
        if (rows.size() > Limits.DOCK_ROWS) {
            throw invalid("rows has " + rows.size() + " entries; a dock holds at most " + Limits.DOCK_ROWS, "rows",
                    Limits.DOCK_ROWS);
        }
        for (int i = 0; i < rows.size(); i++) {
            JsonNode r = rows.get(i);
            String p = "rows[" + i + "]";
            for (String f : new String[] {"text", "action", "value"}) {
                if (r.has(f)) {
                    field(r.get(f), p + "." + f);
                }
            }
            if (r.hasNonNull("action") && !r.get("action").textValue().isEmpty()) {
                action(owner, r.get("action").textValue(), p + ".action");
            }
            JsonNode menu = r.get("menu");
            if (menu != null) {
                if (menu.size() > Limits.MENU_ENTRIES) {
                    throw invalid(p + ".menu has more than " + Limits.MENU_ENTRIES + " entries", p + ".menu",
                            Limits.MENU_ENTRIES);
                }
                for (int j = 0; j < menu.size(); j++) {
                    JsonNode e = menu.get(j);
                    String q = p + ".menu[" + j + "]";
                    for (String f : new String[] {"title", "action", "value"}) {
                        if (e.has(f)) {
                            field(e.get(f), q + "." + f);
                        }
                    }
                    String a = e.get("action").textValue();
                    if (!a.isEmpty()) {
                        action(owner, a, q + ".action");
                    }
                }
            }
        }
    }

    static void field(JsonNode v, String path) {
        String s = v.textValue();
        if (Limits.bytes(s) > Limits.FIELD_BYTES) {
            throw invalid(path + " is " + Limits.bytes(s) + " bytes; text and value fields are at most "
                    + Limits.FIELD_BYTES, path, Limits.FIELD_BYTES);
        }
        if (Limits.hasControl(s)) {
            throw invalid(path + " holds a control character", path, null);
        }
    }

    private static void action(Manifest owner, String action, String path) {
        if (!owner.actions().containsKey(action)) {
            throw invalid(path + ": module " + owner.id() + " declares no action " + action, path, null);
        }
    }

    private static String required(ObjectNode s, String f, String path) {
        if (!s.has(f)) {
            throw invalid(path + ": a " + s.get("type").textValue() + " segment needs " + f, path + "." + f, null);
        }
        return s.get(f).textValue();
    }

    static UhpException invalid(String message, String path, Integer limit) {
        return limit == null ? new UhpException(io.artuditu.uhp.api.ErrorCode.INVALID_REQUEST, message,
                Map.of("path", path))
                : new UhpException(io.artuditu.uhp.api.ErrorCode.INVALID_REQUEST, message,
                        Map.of("path", path, "limit", limit));
    }
}

package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What modules put on the workbench, in the shapes it draws: bar widgets
 * ({@code ui.bar.list}), docks ({@code ui.dock.list}) and notifications
 * ({@code ui.notification.list}). The lists come bounded from the server; parsing bounds
 * them again, so a server that sends more never grows the workbench. Immutable records.
 */
final class ModuleUi {
    static final int MAX_WIDGETS = 64;
    static final int MAX_SEGMENTS = 64;
    static final int MAX_DOCKS = 64;
    static final int MAX_ROWS = 200;
    static final int MAX_MENU = 32;
    static final int MAX_NOTICES = 32;
    static final int MAX_TEXT = 1024;
    /** A notification stays at most this long here, whatever its expiry says (the server clamps ttl to 60 s). */
    static final long MAX_NOTICE_MS = 60_000;

    private ModuleUi() {
    }

    /**
     * One piece of a widget. {@code text} is what it shows (a text's or badge's text, a
     * symbol, a state's label); {@code value} and {@code total} are a progress's; {@code
     * actionValue} is what a click hands to the action.
     */
    record Segment(String type, String text, String tone, String state, long value, long total, int width,
            String action, String actionValue) {
    }

    record Widget(String key, String owner, String id, String region, int priority, List<Segment> content,
            List<Segment> compact) {
    }

    /** A menu entry; one with an empty action is a divider. */
    record Entry(String title, String action, String value, boolean destructive) {
        boolean divider() {
            return action == null || action.isEmpty();
        }
    }

    record Row(String text, String dot, String action, String value, List<Entry> menu) {
    }

    record Dock(String id, String side, String owner, String title, List<Row> rows) {
        String heading() {
            return title != null && !title.isBlank() ? title : id;
        }
    }

    /** A live notification; {@code expiresAt} is epoch milliseconds, as the server's clock (the same machine's). */
    record Notice(String id, String owner, String text, String level, long expiresAt, String action, String value) {
    }

    /** A {@code module.action.invoke} a click asks for. */
    record Invoke(String module, String action, String rowValue, String barId, Integer barSegment, String barValue) {
        static Invoke row(String module, String action, String rowValue) {
            return new Invoke(module, action, rowValue, null, null, null);
        }

        ObjectNode params() {
            ObjectNode p = JsonUhp.params().put("id", module).put("action", action);
            if (rowValue != null) {
                p.put("row_value", rowValue);
            }
            if (barId != null) {
                p.put("bar_id", barId);
            }
            if (barSegment != null) {
                p.put("bar_segment", barSegment);
            }
            if (barValue != null) {
                p.put("bar_value", barValue);
            }
            return p.put("wait", false);
        }
    }

    /**
     * A place on screen the mouse can act on, from the last paint: columns {@code x0} to
     * {@code x1} (exclusive) of row {@code y}. A left click runs {@code click} (when not
     * null); a right click opens {@code menu} (when not empty) for {@code owner}, whose
     * entries fall back to {@code rowValue}.
     */
    record Spot(int x0, int x1, int y, Invoke click, String owner, List<Entry> menu, String rowValue) {
        boolean contains(int x, int yy) {
            return yy == y && x >= x0 && x < x1;
        }
    }

    /** The first spot under (x, y), or null. */
    static Spot at(List<Spot> spots, int x, int y) {
        for (Spot s : spots) {
            if (s.contains(x, y)) {
                return s;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- parsing

    static List<Widget> widgets(JsonNode barList) {
        List<Widget> out = new ArrayList<>();
        for (JsonNode w : barList.path("widgets")) {
            if (out.size() >= MAX_WIDGETS) {
                break;
            }
            String owner = text(w, "owner");
            String id = text(w, "id");
            if (owner == null || id == null) {
                continue;
            }
            String key = text(w, "key");
            List<Segment> content = segments(w.path("content"));
            JsonNode cc = w.get("compact_content");
            List<Segment> compact = cc == null || !cc.isArray() || cc.isEmpty() ? null : segments(cc);
            out.add(new Widget(key == null ? owner + "/" + id : key, owner, id, w.path("region").asText("top-right"),
                    w.path("priority").asInt(0), content, compact));
        }
        return List.copyOf(out);
    }

    private static List<Segment> segments(JsonNode arr) {
        List<Segment> out = new ArrayList<>();
        for (JsonNode s : arr) {
            if (out.size() >= MAX_SEGMENTS) {
                break;
            }
            String type = s.path("type").asText("text");
            String shown = switch (type) {
                case "symbol" -> text(s, "symbol");
                case "state" -> text(s, "label");
                default -> text(s, "text");
            };
            boolean progress = type.equals("progress");
            JsonNode v = s.get("value");
            // a progress's value is its count; anyone else's is what the action gets
            String actionValue = progress || v == null || v.isNull() || v.isContainerNode() ? null : clip(v.asText());
            out.add(new Segment(type, shown, text(s, "tone"), text(s, "state"),
                    progress ? s.path("value").asLong(0) : 0, s.path("total").asLong(0), s.path("width").asInt(0),
                    text(s, "action"), actionValue));
        }
        return List.copyOf(out);
    }

    static List<Dock> docks(JsonNode dockList) {
        List<Dock> out = new ArrayList<>();
        for (JsonNode d : dockList.path("docks")) {
            if (out.size() >= MAX_DOCKS) {
                break;
            }
            String id = text(d, "id");
            if (id == null) {
                continue;
            }
            List<Row> rows = new ArrayList<>();
            for (JsonNode r : d.path("rows")) {
                if (rows.size() >= MAX_ROWS) {
                    break;
                }
                List<Entry> menu = new ArrayList<>();
                for (JsonNode e : r.path("menu")) {
                    if (menu.size() >= MAX_MENU) {
                        break;
                    }
                    menu.add(new Entry(str(e, "title"), text(e, "action"), text(e, "value"),
                            e.path("destructive").asBoolean(false)));
                }
                rows.add(new Row(str(r, "text"), text(r, "dot"), text(r, "action"), text(r, "value"),
                        List.copyOf(menu)));
            }
            out.add(new Dock(id, "right".equals(text(d, "side")) ? "right" : "left", text(d, "owner"), text(d, "title"),
                    List.copyOf(rows)));
        }
        return List.copyOf(out);
    }

    /** The live notifications, oldest first; those already expired at {@code now} are left out. */
    static List<Notice> notices(JsonNode list, long now) {
        List<Notice> out = new ArrayList<>();
        for (JsonNode n : list.path("notifications")) {
            long ttl = Math.max(0, Math.min(MAX_NOTICE_MS, n.path("ttl_ms").asLong(4000)));
            long expires = n.path("expires_at_ms").asLong(now + ttl);
            expires = Math.min(expires, now + MAX_NOTICE_MS);
            if (expires <= now) {
                continue;
            }
            out.add(new Notice(str(n, "id"), text(n, "owner"), str(n, "text"),
                    n.path("level").asText("info"), expires, text(n, "action"), text(n, "value")));
        }
        // the newest are the ones kept
        return List.copyOf(out.subList(Math.max(0, out.size() - MAX_NOTICES), out.size()));
    }

    static List<Dock> side(List<Dock> docks, String side) {
        List<Dock> out = new ArrayList<>();
        for (Dock d : docks) {
            if (d.side().equals(side)) {
                out.add(d);
            }
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? null : clip(v.asText());
    }

    private static String str(JsonNode n, String field) {
        String s = text(n, field);
        return s == null ? "" : s;
    }

    private static String clip(String s) {
        return s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT);
    }
}

package io.artuditu.diff.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One review note. Its anchor is a line range on one side of a file's diff; the server keeps
 * the anchored lines and up to {@link Anchor#CONTEXT} lines before and after as read from the
 * source when the note was made, and re-anchors by them. Mutable, guarded by its store.
 */
final class Note {
    /** Most anchored lines quoted in results and the sent message; each line at most {@link #QUOTE_LINE} chars. */
    static final int QUOTE_LINES = 20;
    static final int QUOTE_LINE = 300;
    /** Most deliveries remembered per note (the oldest go). */
    static final int MAX_SENT = 16;

    String id;
    String path;
    String rawPath;
    String layer;
    Base base;
    String side;
    int line;
    int endLine;
    String kind;
    String body;
    String state;
    String authorKind;
    String authorPane;
    String authorAgent;
    List<String> anchor = List.of();
    List<String> before = List.of();
    List<String> after = List.of();
    String createdAt;
    String updatedAt;
    /** The file's fingerprint when last anchored; a scan re-anchors when it differs. */
    String seen;
    /** The file's diff fingerprint when the note was made: diff.list's review_state compares it. */
    String madeOn;
    final List<ObjectNode> sent = new ArrayList<>();

    boolean old() {
        return side.equals("old");
    }

    /** Quote: the anchored lines, sanitized and bounded. */
    List<String> quote() {
        List<String> q = new ArrayList<>();
        for (int i = 0; i < anchor.size() && i < QUOTE_LINES; i++) {
            String s = Text.sanitize(anchor.get(i));
            q.add(s.length() > QUOTE_LINE ? s.substring(0, QUOTE_LINE) + "…" : s);
        }
        if (anchor.size() > QUOTE_LINES) {
            q.add("… (" + (anchor.size() - QUOTE_LINES) + " more lines)");
        }
        return q;
    }

    /** The API shape. */
    ObjectNode json() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", id).put("path", path).put("layer", layer).put("side", side).put("line", line).put("end_line", endLine)
                .put("kind", kind).put("body", body).put("state", state);
        ObjectNode b = o.putObject("base").put("kind", base.kind());
        b.put("ref", base.ref() == null ? null : Text.name(base.ref()));
        o.putObject("author").put("kind", authorKind).put("pane", authorPane).put("agent", authorAgent);
        ArrayNode q = o.putArray("quote");
        quote().forEach(q::add);
        o.put("created_at", createdAt).put("updated_at", updatedAt);
        ArrayNode s = o.putArray("sent");
        sent.forEach(s::add);
        return o;
    }

    /** The stored shape: the API's plus what the server keeps to re-anchor. */
    ObjectNode stored() {
        ObjectNode o = json();
        o.remove("quote");
        o.put("raw_path", rawPath);
        ArrayNode a = o.putArray("anchor");
        anchor.forEach(a::add);
        ArrayNode bf = o.putArray("before");
        before.forEach(bf::add);
        ArrayNode af = o.putArray("after");
        after.forEach(af::add);
        o.put("seen", seen);
        o.put("made_on", madeOn);
        o.putObject("base").put("kind", base.kind()).put("ref", base.ref());
        return o;
    }

    static Note fromStored(JsonNode o) {
        Note n = new Note();
        n.id = o.path("id").asText();
        n.path = o.path("path").asText();
        n.rawPath = o.path("raw_path").asText(n.path);
        n.layer = o.path("layer").asText("worktree");
        JsonNode b = o.path("base");
        n.base = "index".equals(b.path("kind").asText("index")) ? Base.INDEX
                : new Base(b.path("kind").asText(), b.path("ref").asText());
        n.side = o.path("side").asText("new");
        n.line = o.path("line").asInt(1);
        n.endLine = o.path("end_line").asInt(n.line);
        n.kind = o.path("kind").asText("question");
        n.body = o.path("body").asText();
        n.state = o.path("state").asText("open");
        JsonNode a = o.path("author");
        n.authorKind = a.path("kind").asText("person");
        n.authorPane = a.path("pane").isTextual() ? a.path("pane").asText() : null;
        n.authorAgent = a.path("agent").isTextual() ? a.path("agent").asText() : null;
        n.anchor = strings(o.path("anchor"));
        n.before = strings(o.path("before"));
        n.after = strings(o.path("after"));
        n.createdAt = o.path("created_at").asText();
        n.updatedAt = o.path("updated_at").asText();
        n.seen = o.path("seen").isTextual() ? o.path("seen").asText() : null;
        n.madeOn = o.path("made_on").isTextual() ? o.path("made_on").asText() : null;
        o.path("sent").forEach(s -> n.sent.add((ObjectNode) s));
        return n;
    }

    private static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(x -> out.add(x.asText()));
        return List.copyOf(out);
    }
}

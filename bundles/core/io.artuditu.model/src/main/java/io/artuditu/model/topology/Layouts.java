package io.artuditu.model.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * Trees from outside the model: checked without recursion and with a bound on the work
 * done, so a 10,000-level or a 10 MB tree is refused after at most
 * {@link #MAX_NODES} nodes or {@link Topology#MAX_DEPTH} levels, never with a
 * {@code StackOverflowError}. JSON form: a leaf is {@code {"pane":"7"}}, a split is
 * {@code {"axis":"horizontal","ratio":0.5,"a":{…},"b":{…}}}.
 */
public final class Layouts {
    /** Most nodes a tree may have: a full tree of {@link Topology#MAX_PANES} leaves. */
    public static final int MAX_NODES = 2 * Topology.MAX_PANES - 1;

    private Layouts() {
    }

    /**
     * Checks an outside tree against the tab's current panes: every one exactly once, no
     * other, axes set, ratios finite within 0..1, at most {@link Topology#MAX_DEPTH} deep.
     */
    public static void validate(Node root, Set<String> expected) {
        if (root == null) {
            throw UhpException.invalid("layout", "missing", "layout: a tree is required");
        }
        Set<String> seen = new HashSet<>();
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {root, 0});
        int nodes = 0;
        while (!stack.isEmpty()) {
            Object[] top = stack.pop();
            int depth = (Integer) top[1];
            if (++nodes > MAX_NODES) {
                throw UhpException.invalid("layout", "too_large", "layout: more than " + MAX_NODES + " nodes");
            }
            if (depth > Topology.MAX_DEPTH) {
                throw UhpException.invalid("layout", "too_deep",
                        "layout: deeper than " + Topology.MAX_DEPTH + " levels");
            }
            Object n = top[0];
            if (n == null) {
                throw UhpException.invalid("layout", "missing_child", "layout: a split lacks a child");
            }
            if (n instanceof Node.Leaf l) {
                if (!expected.contains(l.pane())) {
                    throw UhpException.invalid("layout", "foreign_pane",
                            "layout: pane " + l.pane() + " is not in this tab");
                }
                if (!seen.add(l.pane())) {
                    throw UhpException.invalid("layout", "duplicate_pane",
                            "layout: pane " + l.pane() + " appears more than once");
                }
            } else if (n instanceof Node.Split s) {
                if (s.axis() == null) {
                    throw UhpException.invalid("layout", "invalid_axis", "layout: a split has no axis");
                }
                checkRatio("layout", s.ratio());
                stack.push(new Object[] {s.b(), depth + 1});
                stack.push(new Object[] {s.a(), depth + 1});
            }
        }
        if (seen.size() != expected.size()) {
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(seen);
            throw UhpException.invalid("layout", "missing_pane",
                    "layout: panes " + new java.util.TreeSet<>(missing) + " are missing");
        }
    }

    /** Refuses a ratio that is not a finite number from 0 to 1, naming {@code field}. */
    public static void checkRatio(String field, double ratio) {
        if (!Double.isFinite(ratio) || ratio < 0 || ratio > 1) {
            throw UhpException.invalid(field, "invalid_ratio", field + ": the ratio must be a number from 0 to 1");
        }
    }

    /** The JSON form of a stored tree. */
    public static ObjectNode toJson(Node root) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (root instanceof Node.Leaf l) {
            return f.objectNode().put("pane", l.pane());
        }
        Node.Split s = (Node.Split) root;
        ObjectNode o = f.objectNode().put("axis", s.axis().wire()).put("ratio", s.ratio());
        o.set("a", toJson(s.a()));
        o.set("b", toJson(s.b()));
        return o;
    }

    /**
     * Reads a tree from JSON, bounded like {@link #validate} (node count and depth) and
     * without recursion; shape errors are {@code invalid_request}. Pane membership is left
     * to {@link #validate}.
     */
    public static Node fromJson(JsonNode json) {
        // Post-order build with an explicit stack: frames are (json, depth, state).
        Deque<Object[]> work = new ArrayDeque<>();
        Deque<Node> built = new ArrayDeque<>();
        work.push(new Object[] {json, 0, Boolean.FALSE});
        int nodes = 0;
        while (!work.isEmpty()) {
            Object[] top = work.pop();
            JsonNode j = (JsonNode) top[0];
            int depth = (Integer) top[1];
            if ((Boolean) top[2]) {
                Node b = built.pop();
                Node a = built.pop();
                Axis axis = Axis.of(j.get("axis").asText()).orElseThrow();
                built.push(new Node.Split(axis, j.get("ratio").asDouble(), a, b));
                continue;
            }
            if (++nodes > MAX_NODES) {
                throw UhpException.invalid("layout", "too_large", "layout: more than " + MAX_NODES + " nodes");
            }
            if (depth > Topology.MAX_DEPTH) {
                throw UhpException.invalid("layout", "too_deep",
                        "layout: deeper than " + Topology.MAX_DEPTH + " levels");
            }
            if (j == null || !j.isObject()) {
                throw UhpException.invalid("layout", "not_an_object", "layout: every node must be an object");
            }
            if (j.has("pane")) {
                if (j.size() != 1 || !j.get("pane").isTextual()) {
                    throw UhpException.invalid("layout", "invalid_leaf", "layout: a leaf is {\"pane\":\"<id>\"}");
                }
                built.push(new Node.Leaf(j.get("pane").asText()));
                continue;
            }
            for (Iterator<String> it = j.fieldNames(); it.hasNext();) {
                String k = it.next();
                if (!Set.of("axis", "ratio", "a", "b").contains(k)) {
                    throw UhpException.invalid("layout", "unknown_field", "layout: unknown field " + k);
                }
            }
            JsonNode axis = j.get("axis");
            if (axis == null || !axis.isTextual() || Axis.of(axis.asText()).isEmpty()) {
                throw UhpException.invalid("layout", "invalid_axis",
                        "layout: axis must be \"horizontal\" or \"vertical\"");
            }
            JsonNode ratio = j.get("ratio");
            if (ratio == null || !ratio.isNumber()) {
                throw UhpException.invalid("layout", "invalid_ratio", "layout: ratio must be a number from 0 to 1");
            }
            checkRatio("layout", ratio.asDouble());
            if (j.get("a") == null || j.get("b") == null) {
                throw UhpException.invalid("layout", "missing_child", "layout: a split needs a and b");
            }
            work.push(new Object[] {j, depth, Boolean.TRUE});
            work.push(new Object[] {j.get("b"), depth + 1, Boolean.FALSE});
            work.push(new Object[] {j.get("a"), depth + 1, Boolean.FALSE});
        }
        return built.pop();
    }
}

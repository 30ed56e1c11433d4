package io.artuditu.sdk;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One piece of a bar widget: the tagged shapes {@code ui.bar.push} takes. Immutable; the
 * {@code with…} methods return a copy. Validation (lengths, control characters, widths)
 * happens when the widget is pushed.
 */
public final class Segment {
    private final ObjectNode json;

    private Segment(ObjectNode json) {
        this.json = json;
    }

    private static ObjectNode node(String type) {
        return JsonNodeFactory.instance.objectNode().put("type", type);
    }

    public static Segment text(String text) {
        return new Segment(node("text").put("text", text));
    }

    public static Segment text(String text, Tone tone) {
        return text(text).withTone(tone);
    }

    public static Segment symbol(String symbol, Tone tone) {
        return new Segment(node("symbol").put("symbol", symbol).put("tone", tone.wire()));
    }

    public static Segment state(AgentState state, String label) {
        ObjectNode n = node("state").put("state", state.wire());
        if (label != null) {
            n.put("label", label);
        }
        return new Segment(n);
    }

    public static Segment badge(String text, Tone tone) {
        return new Segment(node("badge").put("text", text).put("tone", tone.wire()));
    }

    public static Segment progress(int value, int total, int width) {
        return new Segment(node("progress").put("value", value).put("total", total).put("width", width));
    }

    public static Segment spacer(int width) {
        return new Segment(node("spacer").put("width", width));
    }

    public static Segment separator() {
        return new Segment(node("separator"));
    }

    public Segment withTone(Tone tone) {
        ObjectNode n = json.deepCopy();
        n.put("tone", tone.wire());
        return new Segment(n);
    }

    /** A click on this segment runs {@code action} of the widget's module with {@code value}. */
    public Segment withAction(String action, String value) {
        ObjectNode n = json.deepCopy();
        n.put("action", action);
        if (value != null) {
            n.put("value", value);
        }
        return new Segment(n);
    }

    /** The wire form, a fresh copy. */
    public ObjectNode toJson() {
        return json.deepCopy();
    }

    @Override
    public String toString() {
        return json.toString();
    }
}

package io.artuditu.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Null-tolerant reads from the results tree: a missing field and a JSON null both read as absent. */
final class Json {
    private Json() {
    }

    /** The object or array under {@code field}, or null when it is missing, null or a plain value. */
    static JsonNode obj(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || !v.isContainerNode() ? null : v;
    }

    /** The text of a plain value (numbers and booleans as written), or null. */
    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? null : v.asText();
    }

    /** A finite number, or null (a missing field, null, NaN, text that is not a number). */
    static Double num(JsonNode node, String field) {
        return num(node == null ? null : node.get(field));
    }

    static Double num(JsonNode v) {
        if (v == null || !(v.isNumber() || v.isTextual())) {
            return null;
        }
        double d;
        if (v.isNumber()) {
            d = v.asDouble();
        } else {
            try {
                d = Double.parseDouble(v.asText());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return Double.isFinite(d) ? d : null;
    }

    /** true, false, or null when the field is not a boolean. */
    static Boolean bool(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || !v.isBoolean() ? null : v.asBoolean();
    }

    /** The elements of the array under {@code field}; empty when there is none. */
    static List<JsonNode> list(JsonNode node, String field) {
        List<JsonNode> out = new ArrayList<>();
        JsonNode v = node == null ? null : node.get(field);
        if (v != null && v.isArray()) {
            v.forEach(out::add);
        }
        return out;
    }

    /** The finite numbers of an array; anything else in it is skipped. */
    static List<Double> numbers(JsonNode array) {
        List<Double> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            for (JsonNode e : array) {
                Double d = num(e);
                if (d != null) {
                    out.add(d);
                }
            }
        }
        return out;
    }
}

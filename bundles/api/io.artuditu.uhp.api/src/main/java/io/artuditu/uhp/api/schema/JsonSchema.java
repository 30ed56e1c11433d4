package io.artuditu.uhp.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A compiled JSON Schema (draft 2020-12 keywords, the subset UHP's contract uses).
 *
 * <p>Supported: {@code type}, {@code properties}, {@code required},
 * {@code additionalProperties}, {@code items}, {@code enum}, {@code const},
 * {@code minimum}, {@code maximum}, {@code minLength}, {@code maxLength} (counted in
 * UTF-8 bytes, as every UHP limit is), {@code minItems}, {@code maxItems},
 * {@code pattern}, {@code maxProperties}, {@code propertyNames}, {@code anyOf}, {@code oneOf}, plus the
 * annotations {@code title},
 * {@code description}, {@code default}, {@code examples}, {@code format},
 * {@code $comment}, {@code $schema}, {@code $id}. Any other keyword fails
 * {@link #compile}, so the contract cannot silently say more than is enforced.
 *
 * <p>Numbers: {@code integer} is any number without a fractional part, however it is
 * written ({@code 3}, {@code 3.0}, {@code 3e0}, {@code -0}). Whatever the schema, a number
 * node that is not finite (a reader's infinity or NaN) or lies outside the 64-bit integer
 * range is a violation; no number makes {@link #validate} throw.
 *
 * <p>Paths: a violation names where it is, from the {@code root} given to {@link #validate}:
 * {@code root.field}, {@code root.list[2]}. An empty root names a document's own keys bare
 * ({@code rules[0].priority}), which is how the TOML files (config, module and agent
 * manifests, themes) report a bad value.
 *
 * <p>Immutable and thread safe once compiled.
 */
public final class JsonSchema {
    private static final Set<String> ANNOTATIONS = Set.of("title", "description", "default", "examples", "format",
            "$comment", "$schema", "$id", "deprecated");

    private final List<String> types;
    private final Map<String, JsonSchema> properties;
    private final List<String> required;
    private final Boolean additionalAllowed;
    private final JsonSchema additionalSchema;
    private final JsonSchema items;
    private final List<JsonNode> enumValues;
    private final JsonNode constValue;
    private final BigDecimal minimum;
    private final BigDecimal maximum;
    private final Integer minLength;
    private final Integer maxLength;
    private final Integer minItems;
    private final Integer maxItems;
    private final Integer maxProperties;
    private final JsonSchema propertyNames;
    private final Pattern pattern;
    private final List<JsonSchema> anyOf;
    private final List<JsonSchema> oneOf;
    private final JsonNode source;

    private JsonSchema(JsonNode s, String at) {
        if (!s.isObject()) {
            throw new IllegalArgumentException(at + ": a schema must be an object");
        }
        for (Iterator<String> it = s.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!ANNOTATIONS.contains(k) && !KEYWORDS.contains(k)) {
                throw new IllegalArgumentException(at + ": unsupported schema keyword '" + k + "'");
            }
        }
        this.source = s;
        this.types = readTypes(s.get("type"), at);
        Map<String, JsonSchema> props = new LinkedHashMap<>();
        JsonNode p = s.get("properties");
        if (p != null) {
            p.fields().forEachRemaining(e -> props.put(e.getKey(), new JsonSchema(e.getValue(), at + "." + e.getKey())));
        }
        this.properties = Map.copyOf(props);
        List<String> req = new ArrayList<>();
        JsonNode r = s.get("required");
        if (r != null) {
            r.forEach(n -> req.add(n.asText()));
        }
        this.required = List.copyOf(req);
        JsonNode ap = s.get("additionalProperties");
        this.additionalAllowed = ap != null && ap.isBoolean() ? ap.booleanValue() : null;
        this.additionalSchema = ap != null && ap.isObject() ? new JsonSchema(ap, at + ".*") : null;
        this.items = s.has("items") ? new JsonSchema(s.get("items"), at + "[]") : null;
        List<JsonNode> en = new ArrayList<>();
        if (s.has("enum")) {
            s.get("enum").forEach(en::add);
        }
        this.enumValues = en.isEmpty() ? null : List.copyOf(en);
        this.constValue = s.get("const");
        this.minimum = s.has("minimum") ? s.get("minimum").decimalValue() : null;
        this.maximum = s.has("maximum") ? s.get("maximum").decimalValue() : null;
        this.minLength = s.has("minLength") ? s.get("minLength").intValue() : null;
        this.maxLength = s.has("maxLength") ? s.get("maxLength").intValue() : null;
        this.minItems = s.has("minItems") ? s.get("minItems").intValue() : null;
        this.maxItems = s.has("maxItems") ? s.get("maxItems").intValue() : null;
        this.maxProperties = s.has("maxProperties") ? s.get("maxProperties").intValue() : null;
        this.propertyNames = s.has("propertyNames")
                ? new JsonSchema(s.get("propertyNames"), at + ".propertyNames") : null;
        this.pattern = s.has("pattern") ? Pattern.compile(s.get("pattern").asText()) : null;
        this.anyOf = readList(s.get("anyOf"), at + ".anyOf");
        this.oneOf = readList(s.get("oneOf"), at + ".oneOf");
    }

    private static final Set<String> KEYWORDS = Set.of("type", "properties", "required", "additionalProperties",
            "items", "enum", "const", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems",
            "maxProperties", "propertyNames", "pattern", "anyOf", "oneOf");

    /** Compiles a schema; throws {@link IllegalArgumentException} on an unsupported keyword. */
    public static JsonSchema compile(JsonNode schema) {
        return new JsonSchema(schema, "$");
    }

    /** The schema as written. */
    public JsonNode source() {
        return source;
    }

    /**
     * Checks {@code value}; returns the first violation, naming its path (for example
     * {@code params.timeout_s: expected integer, got string}), or empty when valid.
     * {@code root} is the path of {@code value} itself; empty for a whole document, whose
     * keys are then named bare ({@code name: is required}).
     */
    public Optional<Violation> validate(JsonNode value, String root) {
        return check(value, root);
    }

    /** A failed check: where and why. */
    public record Violation(String path, String problem) {
        /** The offending field's own name: the last path segment. */
        public String field() {
            int dot = path.lastIndexOf('.');
            return dot < 0 ? path : path.substring(dot + 1);
        }

        @Override
        public String toString() {
            return path + ": " + problem;
        }
    }

    private Optional<Violation> check(JsonNode v, String path) {
        if (v.isNumber()) {
            String range = outOfRange(v);
            if (range != null) {
                return fail(path, range);
            }
        }
        if (!types.isEmpty() && types.stream().noneMatch(t -> hasType(v, t))) {
            return fail(path, "expected " + String.join(" or ", types) + ", got " + typeName(v));
        }
        if (constValue != null && !constValue.equals(v)) {
            return fail(path, "must be " + constValue);
        }
        if (enumValues != null && !enumValues.contains(v)) {
            return fail(path, "must be one of " + enumValues);
        }
        if (v.isNumber()) {
            if (minimum != null && v.decimalValue().compareTo(minimum) < 0) {
                return fail(path, "must be at least " + minimum.toPlainString());
            }
            if (maximum != null && v.decimalValue().compareTo(maximum) > 0) {
                return fail(path, "must be at most " + maximum.toPlainString());
            }
        }
        if (v.isTextual()) {
            String text = v.textValue();
            int bytes = (minLength != null || maxLength != null) ? text.getBytes(StandardCharsets.UTF_8).length : 0;
            if (minLength != null && bytes < minLength) {
                return fail(path, "must be at least " + minLength + " bytes");
            }
            if (maxLength != null && bytes > maxLength) {
                return fail(path, "must be at most " + maxLength + " bytes");
            }
            if (pattern != null && !pattern.matcher(text).matches()) {
                return fail(path, "must match " + pattern.pattern());
            }
        }
        if (v.isArray()) {
            if (minItems != null && v.size() < minItems) {
                return fail(path, "must have at least " + minItems + " items");
            }
            if (maxItems != null && v.size() > maxItems) {
                return fail(path, "must have at most " + maxItems + " items");
            }
            if (items != null) {
                for (int i = 0; i < v.size(); i++) {
                    Optional<Violation> bad = items.check(v.get(i), path + "[" + i + "]");
                    if (bad.isPresent()) {
                        return bad;
                    }
                }
            }
        }
        if (v.isObject()) {
            for (String name : required) {
                if (!v.has(name)) {
                    return fail(child(path, name), "is required");
                }
            }
            if (maxProperties != null && v.size() > maxProperties) {
                return fail(path, "must have at most " + maxProperties + " fields");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonSchema ps = properties.get(e.getKey());
                String at = child(path, e.getKey());
                if (propertyNames != null) {
                    Optional<Violation> bad = propertyNames.check(TextNode.valueOf(e.getKey()), at);
                    if (bad.isPresent()) {
                        return fail(at, "name " + bad.get().problem());
                    }
                }
                if (ps != null) {
                    Optional<Violation> bad = ps.check(e.getValue(), at);
                    if (bad.isPresent()) {
                        return bad;
                    }
                } else if (additionalSchema != null) {
                    Optional<Violation> bad = additionalSchema.check(e.getValue(), at);
                    if (bad.isPresent()) {
                        return bad;
                    }
                } else if (Boolean.FALSE.equals(additionalAllowed)) {
                    return fail(at, "is not a known field");
                }
            }
        }
        if (anyOf != null && anyOf.stream().noneMatch(s -> s.check(v, path).isEmpty())) {
            return fail(path, "matches none of the allowed shapes");
        }
        if (oneOf != null) {
            long matches = oneOf.stream().filter(s -> s.check(v, path).isEmpty()).count();
            if (matches != 1) {
                return fail(path, matches == 0 ? "matches none of the allowed shapes" : "matches more than one shape");
            }
        }
        return Optional.empty();
    }

    /** The path of a key of the object at {@code path}; a document's own keys stand bare. */
    private static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static Optional<Violation> fail(String path, String problem) {
        return Optional.of(new Violation(path, problem));
    }

    private static boolean hasType(JsonNode v, String type) {
        switch (type) {
            case "object": return v.isObject();
            case "array": return v.isArray();
            case "string": return v.isTextual();
            case "boolean": return v.isBoolean();
            case "null": return v.isNull();
            case "number": return v.isNumber();
            case "integer": return v.isNumber() && integral(v);
            default: return false;
        }
    }

    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    /**
     * Why a number node holds no value UHP accepts, or null when it holds one. JSON has no
     * infinity or NaN (a reader makes them of a literal beyond double range), and every
     * number UHP carries lies within the 64-bit integer range, so a value past it is out of
     * range whatever the schema says. Checked before anything else reads the value: a
     * {@code BigDecimal} of an infinity throws, and one of {@code 1e999999999} must never be
     * expanded.
     */
    private static String outOfRange(JsonNode v) {
        if (v.isFloatingPointNumber() && !v.isBigDecimal()) {
            double d = v.doubleValue();
            if (!Double.isFinite(d)) {
                return "is not a finite number";
            }
            return d < -0x1p63 || d >= 0x1p63 ? OUT_OF_RANGE : null;
        }
        if (v.isBigInteger()) {
            return v.bigIntegerValue().bitLength() > 63 ? OUT_OF_RANGE : null;
        }
        if (v.isBigDecimal()) {
            BigDecimal d = v.decimalValue();
            return d.compareTo(LONG_MIN) < 0 || d.compareTo(LONG_MAX) > 0 ? OUT_OF_RANGE : null;
        }
        return null;
    }

    private static final String OUT_OF_RANGE = "is out of range: a number must lie within "
            + Long.MIN_VALUE + ".." + Long.MAX_VALUE;

    /** Whether a finite number node has no fractional part ({@code 3}, {@code 3.0}, {@code 3e2}, {@code -0.0}). */
    private static boolean integral(JsonNode v) {
        if (v.isIntegralNumber()) {
            return true;
        }
        if (v.isBigDecimal()) {
            BigDecimal d = v.decimalValue();
            return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
        }
        double d = v.doubleValue();
        return Double.isFinite(d) && d == Math.rint(d);
    }

    private static String typeName(JsonNode v) {
        if (v.getNodeType() == JsonNodeType.NUMBER) {
            return hasType(v, "integer") ? "integer" : "number";
        }
        return v.getNodeType() == JsonNodeType.POJO ? "object" : v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static final Set<String> TYPES = Set.of("object", "array", "string", "boolean", "null", "number", "integer");

    private static List<String> readTypes(JsonNode t, String at) {
        if (t == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (t.isArray()) {
            t.forEach(n -> out.add(n.asText()));
        } else {
            out.add(t.asText());
        }
        for (String s : out) {
            if (!TYPES.contains(s)) {
                throw new IllegalArgumentException(at + ": unknown type '" + s + "'");
            }
        }
        return List.copyOf(out);
    }

    private List<JsonSchema> readList(JsonNode n, String at) {
        if (n == null) {
            return null;
        }
        List<JsonSchema> out = new ArrayList<>();
        int i = 0;
        for (JsonNode s : n) {
            out.add(new JsonSchema(s, at + "[" + i++ + "]"));
        }
        return List.copyOf(out);
    }
}

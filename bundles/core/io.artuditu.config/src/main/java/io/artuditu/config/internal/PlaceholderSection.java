package io.artuditu.config.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.config.ConfigSection;

/**
 * A section whose owning family does not exist yet: it declares the keys (schema and
 * defaults) and keeps the last values it was given, which nothing consumes yet. When the
 * owning family arrives it registers its own section of the same name and this one is
 * deleted from {@code placeholder-sections.json}.
 */
final class PlaceholderSection implements ConfigSection {
    private final String name;
    private final JsonNode schema;
    private final ObjectNode defaults;
    private volatile ObjectNode current;

    PlaceholderSection(String name, JsonNode schema, ObjectNode defaults) {
        this.name = name;
        this.schema = schema;
        this.defaults = defaults;
        this.current = defaults;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public JsonNode schema() {
        return schema;
    }

    @Override
    public ObjectNode defaults() {
        return defaults.deepCopy();
    }

    @Override
    public void apply(ObjectNode values) {
        current = values;
    }

    ObjectNode current() {
        return current;
    }
}

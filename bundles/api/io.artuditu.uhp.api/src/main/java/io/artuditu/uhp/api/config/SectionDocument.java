package io.artuditu.uhp.api.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A {@link ConfigSection}'s schema and defaults kept in one JSON resource beside the class
 * that owns the table ({@code {"schema": {…}, "defaults": {…}}}), read once: a section
 * answers {@link ConfigSection#schema()} and {@link ConfigSection#defaults()} with
 * {@link #schema()} and {@link #defaults()}, which hand out copies.
 */
public final class SectionDocument {
    private final JsonNode doc;

    private SectionDocument(JsonNode doc) {
        this.doc = doc;
    }

    /** Reads {@code resource} next to {@code owner}; a missing or malformed one is a packaging error. */
    public static SectionDocument load(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing beside " + owner.getName());
            }
            JsonNode doc = new ObjectMapper().readTree(in);
            if (!doc.path("schema").isObject() || !doc.path("defaults").isObject()) {
                throw new IllegalStateException(resource + " needs a schema object and a defaults object");
            }
            return new SectionDocument(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A copy of the table's schema. */
    public JsonNode schema() {
        return doc.get("schema").deepCopy();
    }

    /** A copy of the table's defaults. */
    public ObjectNode defaults() {
        return (ObjectNode) doc.get("defaults").deepCopy();
    }
}

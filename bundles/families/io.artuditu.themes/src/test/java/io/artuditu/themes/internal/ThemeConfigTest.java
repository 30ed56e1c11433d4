package io.artuditu.themes.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code theme} table of config.toml: its schema and defaults, theme-config.json beside ThemeFamily. */
class ThemeConfigTest {
    @Test
    void theTableIsItsIdAloneAndItsDefaultIsTheFallbackTheme() throws Exception {
        JsonNode doc;
        try (InputStream in = ThemeFamily.class.getResourceAsStream("theme-config.json")) {
            assertNotNull(in, "theme-config.json ships beside ThemeFamily");
            doc = new ObjectMapper().readTree(in);
        }
        JsonNode schema = doc.get("schema");
        assertEquals(List.of("id"), keys(schema.get("properties")), "shown as its value key alone");
        JsonSchema s = JsonSchema.compile(schema);
        assertEquals(Registry.FALLBACK, doc.at("/defaults/id").asText());
        assertTrue(s.validate(doc.get("defaults"), "theme").isEmpty());
        for (String id : List.of("default", "solarized-light", "a.b_c", "x".repeat(64))) {
            assertTrue(s.validate(JsonNodeFactory.instance.objectNode().put("id", id), "theme").isEmpty(), id);
        }
        assertEquals("theme.id: must be at most 64 bytes", s.validate(JsonNodeFactory.instance.objectNode()
                .put("id", "x".repeat(65)), "theme").orElseThrow().toString());
        assertEquals("theme.id: must match ^[a-z0-9][a-z0-9_.-]*$", s.validate(JsonNodeFactory.instance.objectNode()
                .put("id", "Nord"), "theme").orElseThrow().toString());
    }

    private static List<String> keys(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }
}

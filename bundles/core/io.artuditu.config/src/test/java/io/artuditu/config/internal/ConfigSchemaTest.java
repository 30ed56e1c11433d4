package io.artuditu.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * config.toml is checked whole by one schema: the frame {@code schema/config.schema.json}
 * with each registered section's schema under its name. Every refusal of a file is the
 * validator's own violation, with its field and path, and the files that were accepted are.
 */
class ConfigSchemaTest {
    @TempDir
    Path home;
    Path file;
    ConfigStore store;
    ConfigStoreTest.Recording ui;

    @BeforeEach
    void setUp() throws Exception {
        file = home.resolve("config.toml");
        store = new ConfigStore(new TomlFile(file));
        store.load();
        ui = ConfigStoreTest.ui();
        assertTrue(store.add(ui));
    }

    @Test
    void theFrameShipsAndTheWholeSchemaHoldsEveryRegisteredSection() throws Exception {
        try (InputStream in = ConfigStore.class.getClassLoader().getResourceAsStream(ConfigStore.SCHEMA)) {
            assertNotNull(in, ConfigStore.SCHEMA + " is a resource of the bundle");
        }
        JsonNode whole = store.schema();
        assertEquals(ui.schema(), whole.at("/properties/ui"));
        assertEquals("object", whole.at("/additionalProperties/type").asText(), "any other table need only be a table");
        for (PlaceholderSection s : PlaceholderSections.load()) {
            store.add(s);
        }
        assertEquals(PlaceholderSections.load().size() + 1, store.schema().get("properties").size());
        store.remove(ui);
        assertTrue(store.schema().at("/properties/ui").isMissingNode(), "a section that goes takes its schema along");
    }

    /** One bad file for each kind of violation: server.reload_config answers the validator's own words. */
    @Test
    void eachKindOfViolationInTheFileIsTheValidatorsMessageWithItsFieldAndPath() throws Exception {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("[ui]\nnope = 1\n", "ui.nope: is not a known field");
        bad.put("[ui]\ngap = \"wide\"\n", "ui.gap: expected integer, got string");
        bad.put("[ui]\ngap = 9\n", "ui.gap: must be at most 8");
        bad.put("[ui.side]\nwidth = 11\n", "ui.side.width: must be at least 12");
        bad.put("[ui.keys]\nsplit = 1\n", "ui.keys.split: expected string, got integer");
        bad.put("gap = 1\n", "gap: expected object, got integer");
        bad.put("ui = \"x\"\n", "ui: expected object, got string");
        bad.put("other = [1]\n[ui]\ngap = 2\n", "other: expected object, got array");
        JsonSchema whole = JsonSchema.compile(store.schema());
        TomlMapper toml = new TomlMapper();
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Files.writeString(file, e.getKey());
            UhpException x = assertThrows(UhpException.class, store::reload, e.getKey());
            assertEquals(ErrorCode.INVALID_REQUEST, x.code());
            assertEquals("config.toml: " + e.getValue() + "; nothing changed", x.getMessage());
            JsonSchema.Violation v = whole.validate(toml.readTree(e.getKey()), "").orElseThrow();
            assertEquals(e.getValue(), v.toString(), "the store says what the validator says");
            assertEquals(v.path(), x.details().get("path"));
            assertEquals(v.field(), x.details().get("field"));
        }
    }

    /** A top-level key that is not a table breaks the frame: at start-up the whole file runs on defaults. */
    @Test
    void aFileBreakingTheFrameRunsOnDefaultsAtStartUp() throws Exception {
        Files.writeString(file, "stray = true\n[ui]\ngap = 5\n[other]\nx = 1\n");
        ConfigStore fresh = new ConfigStore(new TomlFile(file));
        fresh.load();
        ConfigStoreTest.Recording r = ConfigStoreTest.ui();
        assertTrue(fresh.add(r));
        ObjectNode snap = fresh.snapshot(JsonNodeFactory.instance.objectNode());
        assertEquals(r.defaults, snap.at("/config/ui"));
        assertTrue(snap.get("inactive").isEmpty(), snap.toString());
    }

    /** The documented example, and every placeholder table written out in full, read as they did. */
    @Test
    void theDocumentedExampleAndEveryDefaultWrittenOutPass() throws Exception {
        ConfigStore fresh = new ConfigStore(new TomlFile(file));
        fresh.load();
        for (PlaceholderSection s : PlaceholderSections.load()) {
            assertTrue(fresh.add(s), s.name());
        }
        String doc = Files.readString(Path.of("../../../docs/configuration.md"));
        int at = doc.indexOf("```toml\n") + "```toml\n".length();
        Files.writeString(file, doc.substring(at, doc.indexOf("```", at)));
        fresh.reload();
        ObjectNode snap = fresh.snapshot(JsonNodeFactory.instance.objectNode());
        assertEquals(2, snap.at("/config/layout/gap").intValue());
        assertEquals(40, snap.at("/config/sidebars/left/width").intValue());
        assertEquals("C-s", snap.at("/config/keymap/bindings/split").asText());

        ObjectNode all = JsonNodeFactory.instance.objectNode();
        for (PlaceholderSection s : PlaceholderSections.load()) {
            all.set(s.name(), s.defaults());
        }
        Files.writeString(file, new TomlMapper().writeValueAsString(all));
        fresh.reload();
        assertEquals(all, fresh.snapshot(JsonNodeFactory.instance.objectNode()).get("config"));
    }
}

package io.artuditu.modules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * module.toml's schema file is what checks a manifest: it ships in the bundle, every refusal
 * is worded as the schema validator words a violation ({@code path: problem}, the path naming
 * the field from the top of the file), and every example manifest of the repository reads.
 */
class ManifestSchemaTest {
    static final String HEAD = ManifestTest.HEAD;
    static final Path ROOT = Path.of("../../..");

    @TempDir
    Path dir;

    static String refused(String toml) {
        return assertThrows(Manifest.Invalid.class, () -> ManifestTest.bundle(toml), toml).getMessage();
    }

    @Test
    void theSchemaShipsInTheBundleAndSaysWhatTheReaderApplies() throws Exception {
        try (InputStream in = Manifest.class.getClassLoader().getResourceAsStream(Manifest.SCHEMA)) {
            assertNotNull(in, Manifest.SCHEMA + " is a resource of the bundle");
        }
        JsonNode s = Manifest.schema();
        List<String> scopes = new ArrayList<>();
        for (Scope sc : Scope.values()) {
            scopes.add(sc.wire());
        }
        List<String> listed = new ArrayList<>();
        s.at("/properties/scopes/items/enum").forEach(n -> listed.add(n.asText()));
        assertEquals(scopes, listed, "every scope, in the order Scope declares them");
        assertEquals(300_000, Manifest.MAX_TIMEOUT_MS);

        Manifest m = ManifestTest.bundle(HEAD + "[[actions]]\nid = \"a\"\n[[docks]]\nid = \"d\"\n[[bars]]\nid = \"b\"\n");
        assertEquals(s.at("/properties/actions/items/properties/timeout_ms/default").intValue(), m.actions().get("a").timeoutMs());
        assertEquals(s.at("/properties/docks/items/properties/placement/default").asText(), m.docks().get("d").placement());
        assertEquals(s.at("/properties/bars/items/properties/region/default").asText(), m.bars().get("b").region());
        assertEquals(s.at("/properties/bars/items/properties/priority/default").intValue(), m.bars().get("b").priority());
        assertEquals(s.at("/properties/scopes/default/0").asText(), m.scopes().iterator().next().wire());
        assertEquals(1, m.scopes().size());
    }

    /** One bad file for each kind of violation the schema catches: the message is the validator's own. */
    @Test
    void eachKindOfViolationIsTheValidatorsMessageNamingTheField() throws Exception {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put(HEAD + "[[bars]]\nid = \"b\"\ncolour = \"red\"\n", "bars[0].colour: is not a known field");
        bad.put(HEAD.replace("version = \"1.2.3\"\n", ""), "version: is required");
        bad.put(HEAD + "[[settings]]\nkey = \"k\"\ntype = \"boolean\"\n", "settings[0].default: is required");
        bad.put(HEAD + "scopes = \"read\"\n", "scopes: expected array, got string");
        bad.put(HEAD + "[[actions]]\nid = \"a\"\ntimeout_ms = \"5s\"\n",
                "actions[0].timeout_ms: expected integer, got string");
        bad.put(HEAD + "[[actions]]\nid = \"a\"\ntimeout_ms = 300001\n",
                "actions[0].timeout_ms: must be at most 300000");
        bad.put(HEAD + "[[bars]]\nid = \"b\"\npriority = -1001\n", "bars[0].priority: must be at least -1000");
        bad.put(HEAD + "[[docks]]\nid = \"d\"\nplacement = \"top\"\n",
                "docks[0].placement: must be one of [\"left\", \"right\"]");
        bad.put(HEAD + "[[docks]]\nid = \"D\"\n", "docks[0].id: must match ^[a-z0-9][a-z0-9._-]{0,63}$");
        bad.put(HEAD.replace("name = \"M\"", "name = \"a\\tb\""), "name: must match ^[^\\x00-\\x1f\\x7f-\\x9f]*$");
        bad.put(HEAD.replace("name = \"M\"", "name = \"" + "é".repeat(41) + "\""), "name: must be at most 80 bytes");
        bad.put(HEAD.replace("name = \"M\"", "name = \"\""), "name: must be at least 1 bytes");
        bad.put(HEAD + "scopes = [\"read\", \"read\", \"read\", \"read\", \"read\", \"read\", \"read\", \"read\", \"read\"]\n",
                "scopes: must have at most 8 items");
        bad.put(HEAD + "actions = 3\n", "actions: expected array, got integer");
        JsonSchema schema = JsonSchema.compile(Manifest.schema());
        TomlMapper toml = new TomlMapper();
        for (Map.Entry<String, String> e : bad.entrySet()) {
            assertEquals(e.getValue(), refused(e.getKey()), e.getKey());
            assertEquals(e.getValue(), schema.validate(toml.readTree(e.getKey()), "").orElseThrow().toString(),
                    "the reader says what the validator says");
        }
    }

    /** What the schema cannot say is refused in the same shape: the field's path, then the reason. */
    @Test
    void whatTheReaderChecksAfterTheSchemaIsWordedTheSameWay() throws Exception {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put(HEAD.replace("1.2.3", "1.x"), "version: must be an OSGi version");
        bad.put(HEAD.replace("[1.0,2.0)", "[1.0"), "api: must be a version range");
        bad.put(HEAD.replace("[1.0,2.0)", "[2.0,3.0)"), "api: module needs Artuditu API [2.0,3.0)");
        bad.put(HEAD + "[[bars]]\nid = \"x\"\n[[bars]]\nid = \"x\"\n", "bars[1].id: \"x\" is declared twice");
        bad.put(HEAD + "[[settings]]\nkey = \"k\"\ntype = \"choice\"\ndefault = \"a\"\n",
                "settings[0].choices: is required for type \"choice\"");
        bad.put(HEAD + "[[settings]]\nkey = \"k\"\ntype = \"string\"\nchoices = [\"a\"]\ndefault = \"a\"\n",
                "settings[0].choices: needs type = \"choice\"");
        bad.put(HEAD + "[[settings]]\nkey = \"k\"\ntype = \"boolean\"\ndefault = 1\n",
                "settings[0].default: must be true or false");
        bad.put(HEAD + "on_enable = \"go\"\n", "on_enable: is for script modules");
        bad.put(HEAD + "[[actions]]\nid = \"a\"\nrun = \"a.sh\"\n", "actions[0].run: is not allowed");
        bad.put(HEAD + "[[actions]]\nid = \"a\"\nevery_ms = 1000\n", "actions[0].every_ms: is for script modules");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            String got = refused(e.getKey());
            assertTrue(got.startsWith(e.getValue()), e.getValue() + " <- " + got);
        }
        Files.writeString(dir.resolve("module.toml"), HEAD + "on_enable = \"go\"\n");
        assertEquals("on_enable: names no declared action: go",
                assertThrows(Manifest.Invalid.class, () -> Manifest.ofFolder(dir)).getMessage());
        Files.writeString(dir.resolve("module.toml"), HEAD + "[[actions]]\nid = \"a\"\n");
        assertTrue(assertThrows(Manifest.Invalid.class, () -> Manifest.ofFolder(dir)).getMessage()
                .startsWith("actions[0].run: is required"));
    }

    /** Every module.toml of the repository (examples, template, docs) reads as it did. */
    @Test
    void everyExampleManifestPassesTheSchema() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.walk(ROOT.resolve("modules-sdk"))) {
            files = s.filter(p -> p.getFileName().toString().equals("module.toml"))
                    .filter(p -> !p.toString().contains("/target/")).sorted().toList();
        }
        assertTrue(files.size() >= 5, files.toString());
        JsonSchema schema = JsonSchema.compile(Manifest.schema());
        TomlMapper toml = new TomlMapper();
        for (Path f : files) {
            assertEquals("valid", schema.validate(toml.readTree(f.toFile()), "").map(Object::toString).orElse("valid"),
                    f.toString());
            boolean bundle = f.toString().contains("META-INF/artuditu/");
            Manifest m = bundle ? Manifest.parse(Files.readAllBytes(f), null) : Manifest.ofFolder(f.getParent());
            assertTrue(!m.id().isEmpty(), f.toString());
        }
        String doc = Files.readString(ROOT.resolve("docs/modules/manifest.md"));
        int at = doc.indexOf("```toml\n") + "```toml\n".length();
        Manifest example = Manifest.parse(doc.substring(at, doc.indexOf("```", at)).getBytes(StandardCharsets.UTF_8), null);
        assertEquals("gitbar", example.id());
    }
}

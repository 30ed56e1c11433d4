package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The agent manifest's schema file is what checks a manifest: it ships in the bundle, every
 * refusal is worded as the schema validator words a violation ({@code path: problem}, the
 * path naming the field from the top of the file), and every manifest that loaded before loads.
 */
class ManifestSchemaTest {
    static final String HEAD = ManifestReaderTest.HEAD;

    static String problem(String toml) {
        return assertThrows(ManifestReader.Invalid.class, () -> ManifestReaderTest.read(toml), toml).getMessage();
    }

    static String rule(String extra) {
        return ManifestReaderTest.rule("r", extra);
    }

    @Test
    void theSchemaShipsInTheBundleAndHoldsTheBoundsTheReaderUses() throws Exception {
        try (InputStream in = ManifestReader.class.getClassLoader().getResourceAsStream(ManifestReader.SCHEMA)) {
            assertNotNull(in, ManifestReader.SCHEMA + " is a resource of the bundle");
        }
        JsonNode s = ManifestReader.schema();
        assertEquals(200, ManifestReader.MAX_ROWS);
        assertEquals(64, ManifestReader.MAX_RULES);
        assertEquals(1024, ManifestReader.MAX_PATTERN);
        List<String> states = new ArrayList<>();
        for (Status st : Status.values()) {
            states.add(st.wire());
        }
        for (String at : List.of("/properties/fallback/enum", "/properties/hooks/additionalProperties/enum",
                "/properties/rules/items/properties/status/enum")) {
            assertEquals(states, strings(s.at(at)), at + " lists every state");
        }
        List<String> regions = new ArrayList<>();
        for (Region.Kind k : Region.Kind.values()) {
            regions.add(k.name().toLowerCase(Locale.ROOT));
        }
        assertEquals(regions, strings(s.at("/properties/rules/items/properties/region/enum")));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** One bad file for each kind of violation the schema catches: the message is the validator's own. */
    @Test
    void eachKindOfViolationIsTheValidatorsMessageNamingTheField() throws Exception {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put(HEAD.replace("[launch]", "[launch]\nshell = true"), "launch.shell: is not a known field");
        bad.put(HEAD.replace("name = \"demo\"\n", ""), "name: is required");
        bad.put(HEAD + rule("").replace("priority = 10\n", ""), "rules[0].priority: is required");
        bad.put(HEAD.replace("name = \"demo\"", "name = true"), "name: expected string, got boolean");
        bad.put(HEAD + "[hooks]\nStop = 1\n",
                "hooks.Stop: must be one of [\"idle\", \"working\", \"blocked\", \"done\", \"unknown\"]");
        bad.put(HEAD + rule("").replace("confidence = 0.5", "confidence = -0.1"),
                "rules[0].confidence: must be at least 0");
        bad.put(HEAD.replace("name = \"demo\"", "name = \"-demo\""), "name: must match ^[a-z0-9][a-z0-9._-]{0,63}$");
        bad.put(HEAD.replace("names = [\"demo\"]", "names = [\"" + "n".repeat(65) + "\"]"),
                "process.names[0]: must be at most 64 bytes");
        bad.put(HEAD.replace("command = [\"demo\"]", "command = []"), "launch.command: must have at least 1 items");
        StringBuilder manyHooks = new StringBuilder(HEAD + "[hooks]\n");
        for (int i = 0; i <= 64; i++) {
            manyHooks.append("E").append(i).append(" = \"done\"\n");
        }
        bad.put(manyHooks.toString(), "hooks: must have at most 64 fields");
        bad.put(HEAD + "[hooks]\n\"-x\" = \"done\"\n", "hooks.-x: name must match ^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$");
        JsonSchema schema = JsonSchema.compile(ManifestReader.schema());
        TomlMapper toml = new TomlMapper();
        for (Map.Entry<String, String> e : bad.entrySet()) {
            assertEquals(e.getValue(), problem(e.getKey()), e.getKey());
            assertEquals(e.getValue(), schema.validate(toml.readTree(e.getKey()), "").orElseThrow().toString(),
                    "the reader says what the validator says");
        }
    }

    /** What the schema cannot say is refused in the same shape: the field's path, then the reason. */
    @Test
    void whatTheReaderChecksAfterTheSchemaIsWordedTheSameWay() {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put(HEAD + rule("").replace("pattern = 'x'", "pattern = 'a\\1'"),
                "rules[0].pattern: is not valid RE2 syntax");
        bad.put(HEAD + rule("").replace("rows = 4\n", ""), "rules[0].rows: is required for region last_rows");
        bad.put(HEAD + rule("").replace("region = \"last_rows\"", "region = \"cursor_row\""),
                "rules[0].rows: does not apply to region cursor_row");
        bad.put(HEAD + rule("") + rule(""), "rules[1].id: \"r\" is declared twice");
        bad.put(HEAD.replace("names = [\"demo\"]", "scripts = []"), "process: needs names or scripts");
        bad.put(HEAD.replace("command = [\"demo\"]", "command = [\"demo\"]\nfork = [\"demo\", \"--fork\"]"),
                "launch.fork: must carry the session id as {session}");
        bad.put(HEAD.replace("command = [\"demo\"]", "command = [\"{session}\"]"),
                "launch.command[0]: must not use {session}");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            assertTrue(problem(e.getKey()).startsWith(e.getValue()), e.getValue() + " <- " + problem(e.getKey()));
        }
    }

    /** The built-ins, as the bundle ships them, pass the schema as they passed the hand-written checks. */
    @Test
    void everyBuiltInManifestPassesTheSchema() throws Exception {
        JsonSchema schema = JsonSchema.compile(ManifestReader.schema());
        TomlMapper toml = new TomlMapper();
        ClassLoader loader = ManifestReader.class.getClassLoader();
        String index;
        try (InputStream in = loader.getResourceAsStream(ManifestLayers.INDEX)) {
            index = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int n = 0;
        for (String line : index.split("\n")) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            try (InputStream in = loader.getResourceAsStream(ManifestLayers.BUILTIN_DIR + name + ".toml")) {
                byte[] bytes = in.readAllBytes();
                assertEquals("valid",
                        schema.validate(toml.readTree(bytes), "").map(Object::toString).orElse("valid"), name);
                assertEquals(name, ManifestReader.parse(bytes, "builtin", name).name());
                n++;
            }
        }
        assertEquals(6, n);
    }
}

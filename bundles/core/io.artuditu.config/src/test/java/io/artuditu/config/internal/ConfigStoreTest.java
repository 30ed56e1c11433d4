package io.artuditu.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.config.CheckedSection;
import io.artuditu.uhp.api.config.ConfigSection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigStoreTest {
    static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path home;
    Path file;
    ConfigStore store;
    Recording ui;

    /** A section that records what it is given. */
    static class Recording implements ConfigSection {
        final String name;
        final JsonNode schema;
        final ObjectNode defaults;
        final List<ObjectNode> applied = new ArrayList<>();

        Recording(String name, String schema, String defaults) throws Exception {
            this.name = name;
            this.schema = M.readTree(schema);
            this.defaults = (ObjectNode) M.readTree(defaults);
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
            return defaults;
        }

        @Override
        public void apply(ObjectNode values) {
            applied.add(values);
        }
    }

    static Recording ui() throws Exception {
        return new Recording("ui", """
                {"type":"object","additionalProperties":false,"properties":{
                  "gap":{"type":"integer","minimum":0,"maximum":8},
                  "side":{"type":"object","additionalProperties":false,"properties":{
                    "width":{"type":"integer","minimum":12,"maximum":80},"visible":{"type":"boolean"}}},
                  "keys":{"type":"object","additionalProperties":{"type":"string"}}}}""",
                """
                {"gap":1,"side":{"width":28,"visible":true},"keys":{}}""");
    }

    @BeforeEach
    void setUp() throws Exception {
        file = home.resolve("config.toml");
        store = new ConfigStore(new TomlFile(file));
        store.load();
        ui = ui();
        assertTrue(store.add(ui));
    }

    JsonNode live() {
        return store.snapshot(JsonNodeFactory.instance.objectNode());
    }

    static ObjectNode json(String s) throws Exception {
        return (ObjectNode) M.readTree(s);
    }

    @Test
    void missingFileMeansDefaultsAndAddAppliesThem() {
        assertFalse(Files.exists(file));
        assertEquals(ui.defaults, live().at("/config/ui"));
        assertEquals(List.of(ui.defaults), ui.applied);
    }

    @Test
    void patchMergesDeepKeepsSiblingsPersistsAndApplies() throws Exception {
        store.patch(json("{\"ui\":{\"side\":{\"width\":40},\"keys\":{\"split\":\"C-s\"}}}"));
        JsonNode live = live().at("/config/ui");
        assertEquals(40, live.at("/side/width").intValue());
        assertTrue(live.at("/side/visible").booleanValue(), "the sibling keeps its value");
        assertEquals("C-s", live.at("/keys/split").asText());
        assertEquals(live, ui.applied.get(ui.applied.size() - 1));
        JsonNode onDisk = new TomlMapper().readTree(Files.readString(file));
        assertEquals(json("{\"ui\":{\"side\":{\"width\":40},\"keys\":{\"split\":\"C-s\"}}}"), onDisk,
                "the file holds only what the user set");
        store.patch(json("{\"ui\":{\"side\":{\"width\":null}}}"));
        assertEquals(28, live().at("/config/ui/side/width").intValue(), "null resets to the default");
    }

    private void assertRejected(String patch, String path) throws Exception {
        store.patch(json("{\"ui\":{\"gap\":3}}"));
        String before = Files.readString(file);
        int applied = ui.applied.size();
        JsonNode liveBefore = live();
        UhpException e = assertThrows(UhpException.class, () -> store.patch(json(patch)));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals(path, e.details().get("path"), e.getMessage());
        assertEquals(before, Files.readString(file), "the file is unchanged");
        assertEquals(liveBefore, live(), "the live config is unchanged");
        assertEquals(applied, ui.applied.size(), "nothing was applied");
    }

    @Test
    void unknownSectionIsRejected() throws Exception {
        assertRejected("{\"ui\":{\"gap\":2},\"nope\":{\"a\":1}}", "patch.nope");
    }

    @Test
    void unknownFieldDeepInsideIsRejectedAndNamed() throws Exception {
        assertRejected("{\"ui\":{\"gap\":2,\"side\":{\"colour\":\"red\"}}}", "ui.side.colour");
    }

    @Test
    void wrongTypeDeepInsideIsRejectedAndNamed() throws Exception {
        assertRejected("{\"ui\":{\"gap\":2,\"side\":{\"width\":\"wide\"}}}", "ui.side.width");
    }

    @Test
    void theWholeResultIsValidatedNotOnlyThePatch() throws Exception {
        // A second section whose stored value is already bad blocks any patch until fixed.
        Files.writeString(file, "[ui]\ngap = 3\n[other]\nlevel = 99\n");
        store.reload();
        Recording other = new Recording("other",
                "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{\"level\":{\"type\":\"integer\",\"maximum\":9}}}",
                "{\"level\":1}");
        store.add(other);
        assertEquals(1, live().at("/config/other/level").intValue(), "a bad table runs on its defaults");
        UhpException e = assertThrows(UhpException.class, () -> store.patch(json("{\"ui\":{\"gap\":4}}")));
        assertEquals("other.level", e.details().get("path"));
        store.patch(json("{\"ui\":{\"gap\":4},\"other\":{\"level\":2}}"));
        assertEquals(2, live().at("/config/other/level").intValue());
    }

    @Test
    void inactiveTablesAreKeptUntouchedAndReported() throws Exception {
        Files.writeString(file, "[ghost]\nx = \"kept\"\n");
        store.reload();
        assertEquals("kept", live().at("/inactive/ghost/x").asText());
        UhpException e = assertThrows(UhpException.class, () -> store.patch(json("{\"ghost\":{\"x\":\"y\"}}")));
        assertTrue(e.getMessage().contains("inactive"), e.getMessage());
        store.patch(json("{\"ui\":{\"gap\":5}}"));
        assertEquals("kept", new TomlMapper().readTree(Files.readString(file)).at("/ghost/x").asText());
    }

    @Test
    void malformedTomlOnReloadAnswersInvalidRequestAndChangesNothing() throws Exception {
        store.patch(json("{\"ui\":{\"gap\":6}}"));
        Files.writeString(file, "[ui\ngap = = 2\n");
        JsonNode before = live();
        UhpException e = assertThrows(UhpException.class, store::reload);
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertTrue(e.getMessage().contains("not valid TOML"), e.getMessage());
        assertEquals(before, live());
    }

    @Test
    void malformedTomlAtStartUpRunsOnDefaultsAndLeavesTheFile() throws Exception {
        String broken = "[ui]\ngap = \n";
        Files.writeString(file, broken);
        ConfigStore fresh = new ConfigStore(new TomlFile(file));
        fresh.load();
        Recording r = ui();
        fresh.add(r);
        assertEquals(r.defaults, fresh.snapshot(JsonNodeFactory.instance.objectNode()).at("/config/ui"));
        assertEquals(broken, Files.readString(file));
    }

    @Test
    void aFailedWriteLeavesLiveConfigAndFileUnchanged() throws Exception {
        store.patch(json("{\"ui\":{\"gap\":2}}"));
        String before = Files.readString(file);
        JsonNode liveBefore = live();
        // A real fault that holds even for root: the rename target is a non-empty folder.
        Files.delete(file);
        Files.createDirectories(file.resolve("blocker"));
        UhpException e = assertThrows(UhpException.class, () -> store.patch(json("{\"ui\":{\"gap\":7}}")));
        assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
        assertTrue(e.getMessage().contains("could not save"), e.getMessage());
        assertEquals(liveBefore, live());
        try (var s = Files.list(home)) {
            assertEquals(List.of(file), s.toList(), "no temporary file is left behind");
        }
        Files.delete(file.resolve("blocker"));
        Files.delete(file);
        Files.writeString(file, before);
    }

    @Test
    void aReadOnlyHomeRefusesTheWrite() throws Exception {
        assumeFalse("root".equals(System.getProperty("user.name")), "root ignores folder permissions");
        store.patch(json("{\"ui\":{\"gap\":2}}"));
        JsonNode liveBefore = live();
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("r-x------"));
        try {
            UhpException e = assertThrows(UhpException.class, () -> store.patch(json("{\"ui\":{\"gap\":7}}")));
            assertTrue(e.getMessage().contains("could not save"), e.getMessage());
            assertEquals(liveBefore, live());
        } finally {
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void atomicWriteLeavesOldOrNewFileAndNoTemporaries() throws Exception {
        TomlFile t = new TomlFile(file);
        ObjectNode a = json("{\"ui\":{\"gap\":1,\"keys\":{\"a\":\"b\"}}}");
        t.write(a);
        assertEquals(a, t.read());
        ObjectNode b = json("{\"ui\":{\"gap\":2}}");
        t.write(b);
        assertEquals(b, t.read());
        assertTrue(Files.readString(file, StandardCharsets.UTF_8).startsWith("# Artuditu configuration"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (var s = Files.list(home)) {
            assertEquals(List.of(file), s.toList());
        }
    }

    @Test
    void topLevelScalarsBreakTheSchemaAndHugeFilesAreMalformed() throws Exception {
        Files.writeString(file, "gap = 1\n");
        UhpException e = assertThrows(UhpException.class, store::reload);
        assertEquals("config.toml: gap: expected object, got integer; nothing changed", e.getMessage());
        assertEquals("gap", e.details().get("path"));
        Files.write(file, new byte[TomlFile.MAX_BYTES + 1]);
        assertTrue(assertThrows(TomlFile.Malformed.class, () -> new TomlFile(file).read()).getMessage()
                .contains("larger than"));
    }

    /** A one-key table whose values must also pass a check of its own (like the theme id). */
    static final class Checked implements CheckedSection {
        final Recording inner;
        final List<String> known = new ArrayList<>(List.of("default", "nord"));
        int checks;

        Checked() throws Exception {
            inner = new Recording("theme", """
                    {"type":"object","additionalProperties":false,"properties":{"id":{"type":"string"}}}""",
                    "{\"id\":\"default\"}");
        }

        @Override
        public void check(ObjectNode values) {
            checks++;
            if (!known.contains(values.path("id").asText())) {
                throw UhpException.notFound("no theme " + values.path("id").asText());
            }
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public JsonNode schema() {
            return inner.schema();
        }

        @Override
        public ObjectNode defaults() {
            return inner.defaults();
        }

        @Override
        public void apply(ObjectNode values) {
            inner.apply(values);
        }

        @Override
        public String valueKey() {
            return "id";
        }
    }

    @Test
    void aCheckedSectionRefusesBeforeAnythingIsWrittenAndAOneKeyTableTakesItsValueAlone() throws Exception {
        Checked theme = new Checked();
        assertTrue(store.add(theme));
        assertEquals(0, theme.checks, "the start-up values are not checked");
        store.patch(json("{\"theme\":\"nord\"}"));
        assertEquals("nord", theme.inner.applied.get(theme.inner.applied.size() - 1).path("id").asText(),
                "a one-key table takes its value alone");
        assertEquals(1, theme.checks);
        String before = Files.readString(file);
        int applied = theme.inner.applied.size();
        UhpException e = assertThrows(UhpException.class, () -> store.patch(json("{\"theme\":{\"id\":\"gone\"}}")));
        assertEquals(ErrorCode.NOT_FOUND, e.code());
        assertEquals(before, Files.readString(file), "the file is unchanged");
        assertEquals(applied, theme.inner.applied.size(), "nothing was applied");
        store.patch(json("{\"ui\":{\"gap\":4}}"));
        assertEquals(2, theme.checks, "a patch that leaves the table alone does not check it");
        UhpException multi = assertThrows(UhpException.class, () -> store.patch(json("{\"ui\":\"x\"}")));
        assertEquals(ErrorCode.INVALID_REQUEST, multi.code(), "a scalar for a table of several keys is still refused");
    }

    @Test
    void aSectionShownAsOneValueIsThatValueOnTheWireAndATableInTheFile() throws Exception {
        Checked theme = new Checked();
        assertTrue(store.add(theme));
        assertEquals(M.readTree("\"default\""), live().at("/config/theme"), "the default, as the id");
        store.patch(json("{\"theme\":\"nord\"}"));
        assertEquals(M.readTree("\"nord\""), live().at("/config/theme"));
        assertEquals(json("{\"theme\":{\"id\":\"nord\"}}"), new TomlMapper().readTree(Files.readString(file)),
                "the file keeps the table form");
        assertEquals(json("{\"id\":\"nord\"}"), theme.inner.applied.get(theme.inner.applied.size() - 1),
                "the section is handed its table");
        store.patch(json("{\"theme\":{\"id\":\"default\"}}"));
        assertEquals(M.readTree("\"default\""), live().at("/config/theme"), "the table form is taken too");
        assertEquals(ErrorCode.INVALID_REQUEST, assertThrows(UhpException.class,
                () -> store.patch(json("{\"theme\":{\"id\":7}}"))).code());

        Files.writeString(file, "[theme]\nid = \"nord\"\n");
        store.reload();
        assertEquals(M.readTree("\"nord\""), live().at("/config/theme"), "a file in the table form is read");
        ConfigStore restarted = new ConfigStore(new TomlFile(file));
        restarted.load();
        restarted.add(new Checked());
        assertEquals(M.readTree("\"nord\""), restarted.snapshot(JsonNodeFactory.instance.objectNode()).at("/config/theme"));
    }

    @Test
    void aSectionShownAsOneValueMustHaveOnlyThatKey() throws Exception {
        Recording two = new Recording("pair", """
                {"type":"object","additionalProperties":false,"properties":{"id":{"type":"string"},"x":{"type":"integer"}}}""",
                "{\"id\":\"a\",\"x\":1}") {
            @Override
            public String valueKey() {
                return "id";
            }
        };
        assertFalse(store.add(two), "its other keys would vanish from config.get");
        assertFalse(live().at("/config").has("pair"));
    }

    @Test
    void atStartWhatAnInterruptedWriteLeftGoesAndNothingElseDoes() throws Exception {
        store.patch(json("{\"ui\":{\"gap\":3}}"));
        Path leftover = Files.writeString(home.resolve(".config.toml.4711.tmp"), "[ui]\ngap = ");
        List<Path> kept = List.of(Files.writeString(home.resolve("notes.txt"), "mine"),
                Files.writeString(home.resolve(".config.toml.x.tmp"), "mine"),
                Files.writeString(home.resolve(".session.json.4711.tmp"), "not the config's"));
        ConfigStore restarted = new ConfigStore(new TomlFile(file));
        restarted.load();
        assertFalse(Files.exists(leftover));
        for (Path k : kept) {
            assertTrue(Files.exists(k), k + " is left alone");
        }
        restarted.add(ui());
        assertEquals(3, restarted.snapshot(JsonNodeFactory.instance.objectNode()).at("/config/ui/gap").intValue());
    }

    @Test
    void placeholderSectionsHaveValidDefaults() {
        for (PlaceholderSection s : PlaceholderSections.load()) {
            ConfigStore fresh = new ConfigStore(new TomlFile(home.resolve("x.toml")));
            assertTrue(fresh.add(s), s.name());
            assertNotEquals(0, s.defaults().size(), s.name());
        }
    }

    /**
     * What a JSON or TOML reader makes of numbers UHP does not carry: an infinity or NaN
     * (a literal past double range, TOML's inf and nan) and integers past 64 bits.
     */
    private static final List<String> TOML_BEYOND_RANGE = List.of("inf", "-inf", "nan", "+inf",
            "99999999999999999999", "1e309", "1e300", "-9.3e18");

    @Test
    void aPatchWithANumberBeyondRangeIsInvalidRequestNamingTheKey() throws Exception {
        List<JsonNode> values = List.of(M.readTree("1e309"), M.readTree("-1e309"),
                JsonNodeFactory.instance.numberNode(Double.NaN), M.readTree("123456789012345678901234567890"));
        for (JsonNode v : values) {
            ObjectNode patch = JsonNodeFactory.instance.objectNode();
            patch.putObject("ui").set("gap", v);
            assertRejectedPatch(patch, "ui.gap");
            ObjectNode deep = JsonNodeFactory.instance.objectNode();
            deep.putObject("ui").putObject("side").set("width", v);
            assertRejectedPatch(deep, "ui.side.width");
        }
    }

    private void assertRejectedPatch(ObjectNode patch, String path) throws Exception {
        int applied = ui.applied.size();
        JsonNode liveBefore = live();
        UhpException e = assertThrows(UhpException.class, () -> store.patch(patch), patch.toString());
        assertEquals(ErrorCode.INVALID_REQUEST, e.code(), patch + ": " + e.getMessage());
        assertEquals(path, e.details().get("path"), e.getMessage());
        assertEquals(path.substring(path.lastIndexOf('.') + 1), e.details().get("field"), e.getMessage());
        assertEquals(liveBefore, live(), "the live config is unchanged");
        assertEquals(applied, ui.applied.size(), "nothing was applied");
    }

    @Test
    void aFileWithANumberBeyondRangeIsRefusedOnReloadAndRunsOnDefaultsAtStartUp() throws Exception {
        store.patch(json("{\"ui\":{\"gap\":5}}"));
        for (String n : TOML_BEYOND_RANGE) {
            Files.writeString(file, "[ui]\ngap = " + n + "\n");
            JsonNode before = live();
            UhpException e = assertThrows(UhpException.class, store::reload, n);
            assertEquals(ErrorCode.INVALID_REQUEST, e.code(), n + ": " + e.getMessage());
            assertEquals("ui.gap", e.details().get("path"), n + ": " + e.getMessage());
            assertEquals(before, live(), n + ": the live config is unchanged");

            ConfigStore fresh = new ConfigStore(new TomlFile(file));
            fresh.load();
            Recording r = ui();
            assertTrue(fresh.add(r), n + ": the section registers");
            assertEquals(r.defaults, fresh.snapshot(JsonNodeFactory.instance.objectNode()).at("/config/ui"),
                    n + ": a bad table runs on its defaults");
        }
    }
}

package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** config.get, config.patch and server.reload_config over the real socket, file and CLI. */
class ConfigTest {
    @TempDir
    Path home;

    static JsonNode ok(JsonNode reply) {
        assertTrue(reply.has("result"), reply.toString());
        return reply.get("result");
    }

    static JsonNode json(String s) throws Exception {
        return Wire.M.readTree(s);
    }

    @Test
    void patchPersistsAndSurvivesARestartThenReloadReadsHandEdits() throws Exception {
        Path file = home.resolve("config.toml");
        try (ForegroundServer s = new ForegroundServer(home)) {
            Cli.Result get = Cli.run(s.env, "config", "get");
            assertEquals(0, get.status(), get.err());
            JsonNode defaults = json(get.out());
            assertEquals(1, defaults.at("/config/layout/gap").intValue());
            assertEquals(file.toString(), defaults.at("/file").asText());

            Cli.Result patch = Cli.run(s.env, "config", "patch", "{\"sidebars\":{\"left\":{\"width\":40}},\"theme\":{\"id\":\"nord\"}}");
            assertEquals(0, patch.status(), patch.err());
            assertEquals(40, json(patch.out()).at("/config/sidebars/left/width").intValue());
            assertEquals(json("\"nord\""), json(patch.out()).at("/config/theme"), "config.theme is the id");
            assertTrue(json(patch.out()).at("/config/sidebars/left/visible").booleanValue(), "the sibling keeps its default");
            assertEquals(json("{\"sidebars\":{\"left\":{\"width\":40}},\"theme\":{\"id\":\"nord\"}}"),
                    new TomlMapper().readTree(file.toFile()), "the file holds what was set");

            Path patchFile = home.resolve("p.json");
            Files.writeString(patchFile, "{\"layout\":{\"gap\":4}}\n");
            Cli.Result fromFile = Cli.run(s.env, "config", "patch", "--file", patchFile.toString());
            assertEquals(0, fromFile.status(), fromFile.err());
        }
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode c = ok(Wire.call(s.socket, "config.get", "{}"));
            assertEquals(40, c.at("/config/sidebars/left/width").intValue());
            assertEquals(json("\"nord\""), c.at("/config/theme"), "read back from the table the file holds");
            assertEquals(4, c.at("/config/layout/gap").intValue());

            Files.writeString(file, "[layout]\ngap = 6\n\n[keymap.bindings]\nsplit = \"C-s\"\n\n[ghost]\nkept = true\n");
            Cli.Result reload = Cli.run(s.env, "config", "reload");
            assertEquals(0, reload.status(), reload.err());
            JsonNode r = ok(Wire.call(s.socket, "config.get", "{}"));
            assertEquals(6, r.at("/config/layout/gap").intValue());
            assertEquals("C-s", r.at("/config/keymap/bindings/split").asText());
            assertEquals(json("\"default\""), r.at("/config/theme"), "a key gone from the file is back to its default");
            assertTrue(r.at("/inactive/ghost/kept").booleanValue(), "a table nobody owns is reported, not dropped");
            ok(Wire.call(s.socket, "config.patch", "{\"patch\":{\"layout\":{\"gap\":2}}}"));
            assertTrue(new TomlMapper().readTree(file.toFile()).at("/ghost/kept").booleanValue(), "and kept in the file");
        }
    }

    @Test
    void theThemeIsItsIdOnTheWireAndATableInTheFile() throws Exception {
        Path file = home.resolve("config.toml");
        try (ForegroundServer s = new ForegroundServer(home)) {
            assertEquals(json("\"default\""), ok(Wire.call(s.socket, "config.get", "{}")).at("/config/theme"));
            JsonNode plain = ok(Wire.call(s.socket, "config.patch", "{\"patch\":{\"theme\":\"nord\"}}"));
            assertEquals(json("\"nord\""), plain.at("/config/theme"), "the id alone is accepted and answered");
            assertEquals(json("{\"theme\":{\"id\":\"nord\"}}"), new TomlMapper().readTree(file.toFile()),
                    "the file keeps the table, which every version reads");
            assertTrue(Files.readString(file).contains("theme.id = 'nord'"), "the table in dotted form: " + Files.readString(file));
            Files.writeString(file, "[theme]\nid = \"nord\"\n");
            ok(Wire.call(s.socket, "server.reload_config", "{}"));
            assertEquals(json("\"nord\""), ok(Wire.call(s.socket, "config.get", "{}")).at("/config/theme"),
                    "the table written by hand reads the same");
            JsonNode table = ok(Wire.call(s.socket, "config.patch", "{\"patch\":{\"theme\":{\"id\":\"dracula\"}}}"));
            assertEquals(json("\"dracula\""), table.at("/config/theme"), "the table is accepted too");
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "config.patch", "{\"patch\":{\"theme\":\"nope\"}}")));
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "config.patch", "{\"patch\":{\"theme\":7}}")));
            assertEquals(json("\"dracula\""), ok(Wire.call(s.socket, "config.get", "{}")).at("/config/theme"));
            ok(Wire.call(s.socket, "config.patch", "{\"patch\":{\"theme\":null}}"));
            assertEquals(json("\"default\""), ok(Wire.call(s.socket, "config.get", "{}")).at("/config/theme"),
                    "null resets it");
        }
    }

    @Test
    void aPatchMovesTheRevisionAndAStaleIfRevisionRunsNothing() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            long before = ok(Wire.call(s.socket, "config.get", "{}")).get("revision").longValue();
            JsonNode patched = ok(Wire.call(s.socket, "config.patch", "{\"patch\":{\"layout\":{\"gap\":3}}}"));
            long after = patched.get("revision").longValue();
            assertTrue(after > before, "a patch publishes config.changed, so the revision moves: " + before + " -> " + after);
            JsonNode event = ok(Wire.call(s.socket, "events.wait",
                    "{\"event\":\"config.changed\",\"after_sequence\":" + before + ",\"timeout_s\":5}"));
            assertTrue(event.get("matched").booleanValue(), event.toString());
            assertEquals("patch", event.at("/event/data/source").asText());

            JsonNode stale = Wire.exchange(s.socket, "{\"id\":\"r\",\"method\":\"config.patch\",\"if_revision\":" + before
                    + ",\"params\":{\"patch\":{\"layout\":{\"gap\":5}}}}\n", "config.patch");
            assertEquals("revision_conflict", Wire.code(stale), stale.toString());
            assertEquals(3, ok(Wire.call(s.socket, "config.get", "{}")).at("/config/layout/gap").intValue(),
                    "the conflicting patch did not run");
            JsonNode current = Wire.exchange(s.socket, "{\"id\":\"r\",\"method\":\"config.patch\",\"if_revision\":" + after
                    + ",\"params\":{\"patch\":{\"layout\":{\"gap\":7}}}}\n", "config.patch");
            assertEquals(7, ok(current).at("/config/layout/gap").intValue(), "a current if_revision runs");
        }
    }

    @Test
    void invalidPatchesChangeNeitherFileNorLiveConfig() throws Exception {
        Path file = home.resolve("config.toml");
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(Wire.call(s.socket, "config.patch", "{\"patch\":{\"layout\":{\"gap\":3}}}"));
            byte[] before = Files.readAllBytes(file);
            JsonNode live = ok(Wire.call(s.socket, "config.get", "{}"));
            Map<String, String> bad = Map.of(
                    "{\"layout\":{\"gap\":5},\"nonsense\":{\"a\":1}}", "patch.nonsense",
                    "{\"layout\":{\"gap\":5},\"sidebars\":{\"left\":{\"colour\":\"red\"}}}", "sidebars.left.colour",
                    "{\"layout\":{\"gap\":5},\"sidebars\":{\"right\":{\"width\":\"wide\"}}}", "sidebars.right.width",
                    "{\"layout\":{\"gap\":99}}", "layout.gap",
                    "{\"layout\":7}", "patch.layout");
            for (Map.Entry<String, String> e : bad.entrySet()) {
                JsonNode reply = Wire.call(s.socket, "config.patch", "{\"patch\":" + e.getKey() + "}");
                assertEquals("invalid_request", Wire.code(reply), e.getKey());
                assertEquals(e.getValue(), reply.at("/error/details/path").asText(), reply.toString());
                assertArrayEquals(before, Files.readAllBytes(file), "file unchanged by " + e.getKey());
                assertEquals(live, ok(Wire.call(s.socket, "config.get", "{}")), "live unchanged by " + e.getKey());
            }
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "config.patch", "{\"patch\":[1]}")));
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "config.patch", "{}")));
            Cli.Result cli = Cli.run(s.env, "config", "patch", "{\"layout\":{\"gap\":-1}}");
            assertEquals(1, cli.status());
            assertTrue(cli.err().contains("invalid_request") && cli.err().contains("layout.gap"), cli.err());
            assertArrayEquals(before, Files.readAllBytes(file));
        }
    }

    @Test
    void malformedFileAtStartUpRunsOnDefaultsLeavesTheFileAndReloadSaysWhy() throws Exception {
        Path file = home.resolve("config.toml");
        byte[] broken = "[layout\ngap = = 3\n".getBytes(StandardCharsets.UTF_8);
        Files.createDirectories(home);
        Files.write(file, broken);
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode c = ok(Wire.call(s.socket, "config.get", "{}"));
            assertEquals(1, c.at("/config/layout/gap").intValue());
            assertArrayEquals(broken, Files.readAllBytes(file), "the broken file is not overwritten");
            assertTrue(s.log().contains("not valid TOML") && s.log().contains(file.toString()), s.log());

            JsonNode reload = Wire.call(s.socket, "server.reload_config", "{}");
            assertEquals("invalid_request", Wire.code(reload));
            assertTrue(reload.at("/error/message").asText().contains("not valid TOML"), reload.toString());
            assertEquals(c, ok(Wire.call(s.socket, "config.get", "{}")));

            Files.writeString(file, "[layout]\ngap = 100\n");
            JsonNode invalid = Wire.call(s.socket, "server.reload_config", "{}");
            assertEquals("invalid_request", Wire.code(invalid));
            assertEquals("layout.gap", invalid.at("/error/details/path").asText(), invalid.toString());
            assertEquals(c, ok(Wire.call(s.socket, "config.get", "{}")));

            Files.writeString(file, "[layout]\ngap = 5\n");
            assertEquals(5, ok(Wire.call(s.socket, "server.reload_config", "{}")).at("/config/layout/gap").intValue());
        }
    }

    @Test
    void aFailedSaveLeavesTheLiveConfigAndSaysWhy() throws Exception {
        Path file = home.resolve("config.toml");
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(Wire.call(s.socket, "config.patch", "{\"patch\":{\"layout\":{\"gap\":3}}}"));
            JsonNode live = ok(Wire.call(s.socket, "config.get", "{}"));
            // A real fault even for root (who ignores chmod): a non-empty folder sits where
            // the rename must land, so the atomic rename fails.
            Files.delete(file);
            Files.createDirectories(file.resolve("in-the-way"));
            JsonNode reply = Wire.call(s.socket, "config.patch", "{\"patch\":{\"layout\":{\"gap\":7}}}");
            assertEquals("internal_error", Wire.code(reply));
            assertTrue(reply.at("/error/message").asText().contains("could not save"), reply.toString());
            assertEquals(live, ok(Wire.call(s.socket, "config.get", "{}")));
            try (var l = Files.list(home)) {
                assertTrue(l.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left");
            }
        }
    }

    @Test
    void everyRegisteredKeyIsDocumented() throws Exception {
        String docs = Files.readString(Cli.ROOT.resolve("docs/configuration.md"));
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode config = ok(Wire.call(s.socket, "config.get", "{}")).get("config");
            List<String> keys = new ArrayList<>();
            flatten(config, "", keys);
            assertTrue(keys.size() >= 8, keys.toString());
            List<String> missing = new ArrayList<>();
            for (String k : keys) {
                if (!docs.contains("`" + k + "`")) {
                    missing.add(k);
                }
            }
            assertEquals(List.of(), missing, "keys missing from docs/configuration.md");
        }
    }

    /** Dotted names of the leaves; an empty table (a map with no entries) is a leaf. */
    static void flatten(JsonNode node, String prefix, List<String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = prefix + e.getKey();
            if (e.getValue().isObject() && !e.getValue().isEmpty()) {
                flatten(e.getValue(), name + ".", out);
            } else {
                out.add(name);
            }
        }
    }
}

package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four TOML files a user writes (config.toml, module.toml, an agent manifest, a theme)
 * are checked by one validator against their schemas: the same mistake reads the same in
 * each, the path of the value from the top of its file and then what is wrong, in the
 * words a bad UHP request gets.
 */
class TomlFormatsTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static final String WRONG_TYPE = "expected string, got integer";

    @Test
    void aValueOfTheWrongTypeIsWordedAlikeInEveryTomlFile() throws Exception {
        Path agents = Files.createDirectories(home.resolve("agents/user"));
        Files.writeString(agents.resolve("bad.toml"), "name = 5\n[process]\nnames = [\"bad\"]\n[launch]\ncommand = [\"bad\"]\n");
        Path themes = Files.createDirectories(home.resolve("themes"));
        Files.writeString(themes.resolve("bad.toml"), ThemeMethodsTest.theme("bad", "#000000")
                .replace("name = \"Theme bad\"", "name = 5"));
        Path module = ScriptModules.folder(work, "bad", ScriptModules.head("bad", "[\"read\"]")
                .replace("name = \"bad\"", "name = 5"));
        try (ForegroundServer s = new ForegroundServer(home)) {
            List<String> said = new ArrayList<>();

            Files.writeString(home.resolve("config.toml"), "[keymap.bindings]\nsplit = 5\n");
            JsonNode config = Wire.call(s.socket, "server.reload_config", "{}");
            assertEquals("invalid_request", Wire.code(config), config.toString());
            assertEquals("config.toml: keymap.bindings.split: " + WRONG_TYPE + "; nothing changed",
                    config.at("/error/message").asText());
            assertEquals("keymap.bindings.split", config.at("/error/details/path").asText());
            assertEquals("split", config.at("/error/details/field").asText());
            said.add(config.at("/error/message").asText());

            JsonNode link = Wire.call(s.socket, "module.link", "{\"path\":" + Wire.M.valueToTree(module.toString()) + "}");
            assertEquals("invalid_request", Wire.code(link), link.toString());
            assertEquals("not linked: name: " + WRONG_TYPE, link.at("/error/message").asText());
            said.add(link.at("/error/message").asText());

            JsonNode manifests = ScriptModules.ok(s.socket, "server.agent_manifests", "{}");
            assertEquals(1, manifests.get("problems").size(), manifests.toString());
            assertEquals("name: " + WRONG_TYPE, manifests.at("/problems/0/message").asText());
            said.add(manifests.at("/problems/0/message").asText());

            JsonNode list = ScriptModules.ok(s.socket, "theme.list", "{}");
            assertEquals(1, list.get("problems").size(), list.toString());
            assertEquals("name: " + WRONG_TYPE, list.at("/problems/0/message").asText());
            said.add(list.at("/problems/0/message").asText());

            for (String m : said) {
                assertTrue(m.contains(": " + WRONG_TYPE), m);
            }
        }
    }
}

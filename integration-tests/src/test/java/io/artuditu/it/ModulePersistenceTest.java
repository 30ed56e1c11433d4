package io.artuditu.it;

import static io.artuditu.it.ScriptModules.head;
import static io.artuditu.it.ScriptModules.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a restart keeps: linked modules (folders and jars), which are disabled, settings, and
 * where widgets and docks were moved; live content is not kept and modules push again.
 */
class ModulePersistenceTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    @Test
    void linksStatesSettingsAndPlacementsSurviveARestart() throws Exception {
        Path on = ScriptModules.folder(work, "on", head("on", "[\"read\", \"extensions\"]") + "on_enable = \"show\"\n"
                + "[[actions]]\nid = \"show\"\nrun = \"show.sh\"\n[[bars]]\nid = \"w\"\n[[docks]]\nid = \"d\"\n"
                + "[[settings]]\nkey = \"n\"\ntype = \"integer\"\ndefault = 1\n");
        ScriptModules.script(on, "show.sh", "artu call ui.bar.push '{\"id\":\"w\",\"content\":[{\"type\":\"text\",\"text\":\"on\"}]}'");
        Path off = ScriptModules.folder(work, "off", head("off", "[\"read\"]"));
        Path jar = Reactor.jar("io.artuditu.example.counter");
        try (ForegroundServer s = new ForegroundServer(home)) {
            ScriptModules.link(s.socket, on);
            ScriptModules.link(s.socket, off);
            ok(s.socket, "module.link", "{\"path\":" + Wire.M.valueToTree(jar.toString()) + "}");
            ok(s.socket, "module.disable", "{\"id\":\"off\"}");
            ok(s.socket, "module.settings.set", "{\"id\":\"on\",\"key\":\"n\",\"value\":7}");
            ScriptModules.await(s.socket, "ui.bar.list", "{}", r -> r.toString().contains("on/w"));
            ok(s.socket, "ui.bar.move", "{\"id\":\"w\",\"region\":\"bottom-right\"}");
            ok(s.socket, "ui.dock.push", "{\"id\":\"d\",\"rows\":[{\"text\":\"r\"}]}");
            ok(s.socket, "ui.dock.move", "{\"id\":\"d\",\"side\":\"right\"}");
            ok(s.socket, "server.stop", "{}");
            s.awaitExit();
        }
        for (String f : new String[] {"state.json", "settings.json", "ui.json"}) {
            assertTrue(Files.isRegularFile(home.resolve("modules").resolve(f)), f);
        }
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode list = ok(s.socket, "module.list", "{}").get("modules");
            assertEquals("enabled", ModuleMethodsTest.find(list, "on").get("state").asText());
            assertEquals("disabled", ModuleMethodsTest.find(list, "off").get("state").asText());
            assertEquals("enabled", ModuleMethodsTest.find(list, "counter").get("state").asText(), "the jar was installed again");
            ModuleReloadCyclesTest.awaitAnswer(s.socket);
            assertEquals(7, ok(s.socket, "module.settings.get", "{\"id\":\"on\",\"key\":\"n\"}").get("value").asInt());
            JsonNode bars = ScriptModules.await(s.socket, "ui.bar.list", "{}", r -> r.toString().contains("on/w"));
            for (JsonNode w : bars.get("widgets")) {
                if (w.get("key").asText().equals("on/w")) {
                    assertEquals("bottom-right", w.get("region").asText(), "the move was kept; on_enable pushed again");
                }
            }
            assertEquals(0, ok(s.socket, "ui.dock.list", "{}").get("docks").size(), "live rows are not kept");
            ok(s.socket, "ui.dock.push", "{\"id\":\"d\",\"rows\":[{\"text\":\"r\"}]}");
            assertEquals("right", ok(s.socket, "ui.dock.list", "{}").at("/docks/0/side").asText(), "the dock's side was kept");
        }
    }
}

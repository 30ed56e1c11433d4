package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** argv → (method, params) from the command index, without a server. */
class MapperTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static void maps(String argv, String method, String params) throws Exception {
        maps(Map.of(), argv, method, params);
    }

    private static void maps(Map<String, String> env, String argv, String method, String params) throws Exception {
        List<String> a = Arrays.asList(argv.split(" "));
        Commands.Found f = Commands.find(a);
        assertNotNull(f, argv);
        assertEquals(method, f.command.method, argv);
        String got = Mapper.params(f.command, "x", a.subList(f.words, a.size()), env);
        assertEquals(JSON.readTree(params), JSON.readTree(got), argv + " → " + got);
    }

    private static void refused(String argv) {
        List<String> a = Arrays.asList(argv.split(" "));
        Commands.Found f = Commands.find(a);
        assertNotNull(f, argv);
        assertThrows(Mapper.Usage.class, () -> Mapper.params(f.command, "x", a.subList(f.words, a.size()), Map.of()), argv);
    }

    @Test
    void theIssuesExamples() throws Exception {
        maps("workspace rename 0 api", "workspace.rename", "{\"workspace\":0,\"name\":\"api\"}");
        maps("workspace pin 0", "workspace.pin", "{\"workspace\":0,\"pinned\":true}");
        maps("workspace unpin 0", "workspace.pin", "{\"workspace\":0,\"pinned\":false}");
        maps("pane split --down", "pane.split", "{\"down\":true}");
        maps("layout export", "layout.export", "{}");
        maps("tab move 2 --to 1", "tab.move", "{\"tab\":2,\"to\":1}");
        maps("session snapshot", "session.snapshot", "{}");
        maps("ping", "ping", "{}");
        maps("config patch {\"layout\":{\"gap\":2}}", "config.patch", "{\"patch\":{\"layout\":{\"gap\":2}}}");
        maps("terminal backend capture term-00aa11-1 --lines 5", "terminal.backend.capture",
                "{\"terminal_id\":\"term-00aa11-1\",\"lines\":5}");
        maps("terminal backend send_key term-00aa11-1 --key Enter", "terminal.backend.send_key",
                "{\"terminal_id\":\"term-00aa11-1\",\"key\":\"Enter\"}");
    }

    @Test
    void formerHandWrittenCommandsAreContractAliases() throws Exception {
        maps("token create --scope=read --scope admin --ttl=60", "uhp.token.create",
                "{\"scopes\":[\"read\",\"admin\"],\"ttl_s\":60}");
        maps("token list", "uhp.token.list", "{}");
        maps("token revoke tok_1", "uhp.token.revoke", "{\"id\":\"tok_1\"}");
        maps("config get", "config.get", "{}");
        maps("config reload", "server.reload_config", "{}");
        maps("uhp capabilities", "uhp.capabilities", "{}");
        maps("events --after 3 --event config.changed --event pane.closed", "events.subscribe",
                "{\"after_sequence\":3,\"events\":[\"config.changed\",\"pane.closed\"]}");
        maps("server bundle stop 12", "server.bundle.stop", "{\"bundle\":12}");
        maps("server bundle stop io.artuditu.example.echo", "server.bundle.stop", "{\"bundle\":\"io.artuditu.example.echo\"}");
        for (String bad : new String[] {"token create", "token create --ttl 60", "token create --scope read --ttl soon",
            "token create --scope", "token create read", "token revoke", "token revoke a b", "token list x",
            "events --after x", "config patch [1]", "config patch"}) {
            refused(bad);
        }
    }

    @Test
    void workspaces() throws Exception {
        maps("workspace list", "workspace.list", "{}");
        maps("workspace open /tmp/x --name=api", "workspace.open", "{\"cwd\":\"/tmp/x\",\"name\":\"api\"}");
        maps("workspace focus --workspace-id w_1", "workspace.focus", "{\"workspace_id\":\"w_1\"}");
        maps("workspace move 3 0", "workspace.move", "{\"workspace\":3,\"to\":0}");
        maps("workspace move-block 1 2 --to 0", "workspace.move_block", "{\"workspaces\":[1,2],\"to\":0}");
        maps("workspace move_block --workspace 1 --workspace 2 --to 0", "workspace.move_block",
                "{\"workspaces\":[1,2],\"to\":0}");
        maps("workspace pin 1 --pinned false", "workspace.pin", "{\"workspace\":1,\"pinned\":false}");
        maps("workspace close 4", "workspace.close", "{\"workspace\":4}");
    }

    @Test
    void reportMetadataTakesKeyValuePairsAndDefaultsToItsOwnWorkspace() throws Exception {
        Map<String, String> inPane = Map.of("ARTUDITU_WORKSPACE_ID", "workspace_00000000000000a1", "ARTUDITU_PANE_ID", "3");
        maps(inPane, "workspace report-metadata branch=feature/x=y dirty=true port=3000 old= tag=007x", "workspace.report_metadata",
                "{\"workspace_id\":\"workspace_00000000000000a1\",\"metadata\":{\"branch\":\"feature/x=y\",\"dirty\":true,"
                        + "\"port\":3000,\"old\":null,\"tag\":\"007x\"}}");
        maps(inPane, "workspace report-metadata --workspace 2 --replace --metadata {\"port\":\"3000\"}",
                "workspace.report_metadata", "{\"workspace\":2,\"replace\":true,\"metadata\":{\"port\":\"3000\"}}");
        maps("workspace report-metadata branch=main", "workspace.report_metadata", "{\"metadata\":{\"branch\":\"main\"}}");
        refused("workspace report-metadata no-equals-sign");
    }

    @Test
    void tabs() throws Exception {
        maps("tab list --workspace 1", "tab.list", "{\"workspace\":1}");
        maps("tab new --git --workspace 0", "tab.new", "{\"kind\":\"git\",\"workspace\":0}");
        maps("tab new --mission-control", "tab.new", "{\"kind\":\"mission_control\"}");
        maps("tab move 2 --right", "tab.move", "{\"tab\":2,\"direction\":\"right\"}");
        maps("tab swap 1 3", "tab.swap", "{\"tab\":1,\"with\":3}");
        maps("tab rename 2 logs", "tab.rename", "{\"tab\":2,\"name\":\"logs\"}");
        maps("tab close --tab-id t_9", "tab.close", "{\"tab_id\":\"t_9\"}");
    }

    @Test
    void panesDefaultToTheirOwnPaneFromTheEnvironment() throws Exception {
        Map<String, String> inPane = Map.of("ARTUDITU_PANE_ID", "7");
        maps(inPane, "pane split --down", "pane.split", "{\"pane\":\"7\",\"down\":true}");
        maps(inPane, "pane split 3 --left --no-focus", "pane.split",
                "{\"pane\":\"3\",\"left\":true,\"focus\":false}");
        maps(inPane, "pane focus-direction --up", "pane.focus_direction", "{\"pane\":\"7\",\"direction\":\"up\"}");
        maps(inPane, "pane resize --right --cells 5", "pane.resize", "{\"pane\":\"7\",\"direction\":\"right\",\"cells\":5}");
        maps(inPane, "pane zoom --on", "pane.zoom", "{\"pane\":\"7\",\"on\":true}");
        maps(inPane, "pane read --history --lines 20", "pane.read", "{\"pane\":\"7\",\"source\":\"history\",\"lines\":20}");
        maps(inPane, "pane send-input --text hi --key Enter --key C-c", "pane.send_input",
                "{\"pane\":\"7\",\"text\":\"hi\",\"keys\":[\"Enter\",\"C-c\"]}");
        maps(inPane, "pane run 9 make --wait --timeout-s 60", "pane.run",
                "{\"pane\":\"9\",\"command\":\"make\",\"wait\":true,\"timeout_s\":60}");
        maps(inPane, "pane swap 7 9", "pane.swap", "{\"pane\":\"7\",\"with\":\"9\"}");
        maps(inPane, "pane move --new-tab", "pane.move", "{\"pane\":\"7\",\"new_tab\":true}");
        maps(inPane, "pane current", "pane.current", "{}");
        maps(inPane, "pane list --tab 2", "pane.list", "{\"tab\":2}");
        maps(inPane, "pane close --json {\"pane\":\"4\"}", "pane.close", "{\"pane\":\"4\"}");
        maps("pane split --down", "pane.split", "{\"down\":true}");
        // one argument where the pane (or tab) has a default is the value, not the pane
        maps(inPane, "pane purpose dev-server", "pane.purpose", "{\"pane\":\"7\",\"purpose\":\"dev-server\"}");
        maps(inPane, "pane rename web", "pane.rename", "{\"pane\":\"7\",\"name\":\"web\"}");
        maps(inPane, "pane run make", "pane.run", "{\"pane\":\"7\",\"command\":\"make\"}");
        maps(inPane, "pane swap 9", "pane.swap", "{\"pane\":\"7\",\"with\":\"9\"}");
        maps("tab rename logs", "tab.rename", "{\"name\":\"logs\"}");
        maps("workspace open /tmp/x", "workspace.open", "{\"cwd\":\"/tmp/x\"}");
        maps(inPane, "attach pane --cols 80 --rows 24", "attach.pane", "{\"pane\":\"7\",\"cols\":80,\"rows\":24}");
    }

    @Test
    void layoutsAndRawJson() throws Exception {
        maps("layout export --tab 2", "layout.export", "{\"tab\":2}");
        maps("layout set-split-ratio --path a --path b --ratio 0.25", "layout.set_split_ratio",
                "{\"path\":[\"a\",\"b\"],\"ratio\":0.25}");
        maps("layout apply --root {\"split\":\"h\"}", "layout.apply", "{\"root\":{\"split\":\"h\"}}");
        maps("layout apply --json {\"root\":{},\"focus\":\"2\"} --focus 3", "layout.apply",
                "{\"root\":{},\"focus\":\"3\"}");
    }

    @Test
    void usageErrors() {
        String[] bad = {"pane split --direction", "workspace rename 0 api extra", "layout export 1",
            "workspace pin 0 --pinned maybe", "layout apply --root {", "layout apply --json [1]",
            "tab move 2 --to 1 --to 3", "pane run --json", "pane split --sideways", "tab move --to one",
            "layout set-split-ratio --ratio half", "ping extra", "pane run"};
        for (String argv : bad) {
            refused(argv);
        }
        assertEquals(null, Commands.find(List.of("session", "restore")));
        assertEquals(null, Commands.find(List.of("workspace", "frobnicate")));
    }

    @Test
    void anUnknownVerbExits2ListingTheVerbs(@TempDir Path home) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Artu artu = new Artu(Map.of("ARTUDITU_HOME", home.toString()), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(Artu.USAGE, artu.run(new String[] {"workspace", "frob"}));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("unknown workspace command: frob (list, get, open, focus, rename, pin, move, move-block, "
                + "report-metadata, close, unpin)"), e);
        err.reset();
        assertEquals(Artu.USAGE, artu.run(new String[] {"terminal", "backend"}));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("terminal backend needs a verb (inventory, snapshot"), err.toString());
        // Well-formed: it gets as far as the (absent) server.
        assertEquals(Artu.NO_SERVER, artu.run(new String[] {"workspace", "rename", "0", "api"}));
        assertEquals(Artu.USAGE, artu.run(new String[] {"pane", "split", "--sideways"}));
    }
}

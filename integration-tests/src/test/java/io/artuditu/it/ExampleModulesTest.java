package io.artuditu.it;

import static io.artuditu.it.ModuleProbe.git;
import static io.artuditu.it.ModuleProbe.p;
import static io.artuditu.it.ModuleProbe.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example modules of modules-sdk/, linked into a live server as their authors would
 * link them: gitbar and panedock as the jars the build made, shell-clock as its folder.
 * Each test links its module, watches what it shows follow real changes (a git
 * repository, panes, focus), disables it and checks that everything it held is gone, its
 * SDK threads included, enables it again and unlinks it.
 */
class ExampleModulesTest extends OneServerPerClass {
    static final Path GITBAR = Reactor.jar("io.artuditu.example.gitbar");
    static final Path PANEDOCK = Reactor.jar("io.artuditu.example.panedock");
    static final Path SHELL_CLOCK = Cli.ROOT.resolve("modules-sdk/examples/shell-clock");

    static ModuleProbe probe;

    @BeforeAll
    static void probe() {
        probe = new ModuleProbe(server);
    }

    /** Opens a workspace in {@code dir}; it becomes the focused one. Returns its id. */
    private static String openWorkspace(Path dir) throws Exception {
        JsonNode r = probe.ok("workspace.open", p("cwd", dir.toString()));
        assertEquals(r.get("workspace_id").asText(), probe.ok("workspace.get", "{}").get("workspace_id").asText(),
                "workspace.open focuses the new workspace");
        return r.get("workspace_id").asText();
    }

    private static String branchText() throws Exception {
        return probe.widget("gitbar", "branch").map(w -> text(w.get("content"))).orElse("(no widget)");
    }

    private static String branchTone() throws Exception {
        return probe.widget("gitbar", "branch").map(w -> w.get("content").get(0).get("tone").asText()).orElse("");
    }

    /** A module's state as module.info shows it after a disable: nothing live, no context. */
    private static void holdsNothing(String id) throws Exception {
        JsonNode info = probe.info(id);
        assertEquals("disabled", info.get("state").asText(), info.toString());
        assertEquals(0, info.get("live_widgets").asInt(), info.toString());
        assertFalse(info.get("context").asBoolean(), "the context was revoked: " + info);
        assertEquals(0, info.get("running_actions").asInt(), info.toString());
        for (JsonNode a : info.get("action_details")) {
            assertFalse(a.path("registered").asBoolean(false), "the Java handler is forgotten: " + a);
        }
        Terms.await(id + "'s SDK threads end", () -> probe.moduleThreads(id).isEmpty());
    }

    @Test
    void gitbarShowsTheFocusedWorkspacesBranchAndItsDirtyStateAndTakesItAllAwayWhenDisabled() throws Exception {
        Path repo = Files.createDirectories(work.resolve("gitbar-repo"));
        git(repo, "init", "-q", "-b", "feature-x");
        Files.writeString(repo.resolve("README.md"), "hello\n");
        git(repo, "add", "README.md");
        git(repo, "commit", "-q", "-m", "first");
        String repoWs = openWorkspace(repo);

        probe.link(GITBAR);
        try {
            Terms.await("the widget shows the clean branch", () -> branchText().equals("⎇ feature-x"));
            assertEquals("success", branchTone());
            JsonNode w = probe.widget("gitbar", "branch").orElseThrow();
            assertEquals("feature-x", text(w.get("compact_content")), "compact content is the branch alone");
            assertEquals(List.of("module-gitbar-e", "module-gitbar-s"), sorted(probe.moduleThreads("gitbar")),
                    "the event listener and the scheduler, both started through the SDK");

            // The poll interval is a setting; at 1 s a change shows within a second or two.
            probe.ok("module.settings.set", p("id", "gitbar", "key", "interval_s", "value", 1));
            Files.writeString(repo.resolve("README.md"), "changed\n");
            Files.writeString(repo.resolve("notes.txt"), "new\n");
            Terms.await("the widget counts the two changes", () -> branchText().equals("⎇ feature-x ●2"));
            assertEquals("warning", branchTone());
            JsonNode bad = Wire.call(sock, "module.settings.set", Terms.json(p("id", "gitbar", "key", "interval_s",
                    "value", 0)));
            assertEquals("invalid_request", Wire.code(bad), "interval_s is at least 1: " + bad);

            // The refresh action reads at once: its answer comes after the push.
            probe.ok("module.settings.set", p("id", "gitbar", "key", "interval_s", "value", 3600));
            git(repo, "add", "-A");
            git(repo, "commit", "-q", "-m", "second");
            JsonNode run = probe.ok("module.action.invoke", p("id", "gitbar", "action", "refresh"));
            assertEquals(0, run.get("exit_code").asInt(), run.toString());
            assertEquals("⎇ feature-x", branchText(), "clean again right after refresh");
            assertEquals("success", branchTone());

            // Focus moves to a folder outside any repository: the widget goes; back: it returns.
            openWorkspace(Files.createDirectories(work.resolve("gitbar-plain")));
            Terms.await("no branch outside a repository", () -> probe.widget("gitbar", "branch").isEmpty());
            probe.ok("workspace.focus", p("workspace_id", repoWs));
            Terms.await("the branch is back with the focus", () -> branchText().equals("⎇ feature-x"));

            probe.ok("module.disable", p("id", "gitbar"));
            assertTrue(probe.widget("gitbar", "branch").isEmpty(), "disabling takes the widget away");
            holdsNothing("gitbar");
            assertEquals("invalid_request", Wire.code(Wire.call(sock, "module.action.invoke",
                    Terms.json(p("id", "gitbar", "action", "refresh")))), "a disabled module runs no action");

            probe.ok("module.enable", p("id", "gitbar"));
            Terms.await("enabled again, it shows the branch", () -> branchText().equals("⎇ feature-x"));
            assertTrue(probe.info("gitbar").get("context").asBoolean());
            Terms.await("its threads are back", () -> probe.moduleThreads("gitbar").size() == 2);
        } finally {
            probe.ok("module.unlink", p("id", "gitbar"));
        }
        assertTrue(probe.widget("gitbar", "branch").isEmpty());
        Terms.await("unlinking ends the threads", () -> probe.moduleThreads("gitbar").isEmpty());
        assertFalse(probe.ok("module.list", "{}").toString().contains("\"gitbar\""), "no longer listed");
    }

    private static List<String> sorted(List<String> names) {
        List<String> s = new ArrayList<>(names);
        s.sort(null);
        return s;
    }

    /** The rows of the pane dock, as {pane id → text}. */
    private static List<String[]> paneRows() throws Exception {
        List<String[]> out = new ArrayList<>();
        Optional<JsonNode> d = probe.dock("panedock", "panes");
        if (d.isPresent()) {
            for (JsonNode r : d.get().get("rows")) {
                out.add(new String[] {r.path("value").asText(""), r.get("text").asText()});
            }
        }
        return out;
    }

    private static String markedPane() throws Exception {
        for (String[] r : paneRows()) {
            if (r[1].startsWith("▸")) {
                return r[0];
            }
        }
        return "(none)";
    }

    @Test
    void panedockListsTheWorkspacesPanesAndItsRowsFocusAndCloseThem() throws Exception {
        String ws = openWorkspace(Files.createDirectories(work.resolve("panedock-ws")));
        String first = probe.ok("pane.current", "{}").get("pane").asText();
        String second = probe.ok("pane.split", p("pane", first)).get("pane").asText();
        assertEquals(second, probe.ok("pane.current", "{}").get("pane").asText(), "the split focuses the new pane");

        probe.link(PANEDOCK);
        try {
            Terms.await("a row for each pane, the current one marked", () -> paneRows().size() == 2
                    && markedPane().equals(second));
            JsonNode dock = probe.dock("panedock", "panes").orElseThrow();
            assertEquals("left", dock.get("side").asText());
            assertTrue(dock.get("title").asText().startsWith("Panes · "), dock.toString());
            JsonNode row = dock.get("rows").get(0);
            assertEquals("focus", row.get("action").asText());
            assertEquals(first, row.get("value").asText());
            assertEquals("[{\"title\":\"Focus\",\"action\":\"focus\"},{\"title\":\"\",\"action\":\"\"},"
                    + "{\"title\":\"Close\",\"action\":\"close\",\"destructive\":true}]", row.get("menu").toString(),
                    "Focus, a divider, a destructive Close");

            // A click on the first row: module.action.invoke with the row's action and value.
            JsonNode run = probe.ok("module.action.invoke", p("id", "panedock", "action", "focus", "row_value", first));
            assertEquals(0, run.get("exit_code").asInt(), run.toString());
            assertEquals(first, probe.ok("pane.current", "{}").get("pane").asText(), "the focus moved");
            Terms.await("the mark follows the focus", () -> markedPane().equals(first));

            // The focus moved elsewhere by another client: the dock follows the event.
            probe.ok("pane.focus", p("pane", second));
            Terms.await("the mark follows a focus from elsewhere", () -> markedPane().equals(second));

            // The menu's Close on the second row.
            run = probe.ok("module.action.invoke", p("id", "panedock", "action", "close", "row_value", second));
            assertEquals(0, run.get("exit_code").asInt(), run.toString());
            Terms.await("the closed pane's row is gone", () -> paneRows().size() == 1 && paneRows().get(0)[0].equals(first));
            JsonNode bad = probe.ok("module.action.invoke", p("id", "panedock", "action", "focus"));
            assertEquals(1, bad.get("exit_code").asInt(), "focus without a row value fails: " + bad);
            assertTrue(bad.get("error").asText().contains("row value"), bad.toString());

            assertEquals(List.of("module-panedock", "module-panedock"), probe.moduleThreads("panedock"),
                    "its scheduler and its event listener");
            probe.ok("module.disable", p("id", "panedock"));
            assertTrue(probe.dock("panedock", "panes").isEmpty(), "disabling takes the dock away");
            holdsNothing("panedock");

            probe.ok("module.enable", p("id", "panedock"));
            Terms.await("enabled again, the dock is back", () -> paneRows().size() == 1);
        } finally {
            probe.ok("module.unlink", p("id", "panedock"));
        }
        assertTrue(probe.dock("panedock", "panes").isEmpty());
        Terms.await("unlinking ends the threads", () -> probe.moduleThreads("panedock").isEmpty());
        probe.ok("workspace.close", p("workspace_id", ws));
    }

    @Test
    void theShellClockScriptModuleKeepsItsWidgetAndNotifiesOnClick() throws Exception {
        probe.link(SHELL_CLOCK);
        try {
            Terms.await("the clock is on the bar", () -> probe.widget("shell-clock", "clock").isPresent());
            JsonNode w = probe.widget("shell-clock", "clock").orElseThrow();
            assertEquals("bottom-right", w.get("region").asText());
            assertTrue(text(w.get("content")).matches("\\d\\d:\\d\\d \\d+\\.\\d\\d"), "time and load: " + w);
            assertEquals("uptime", w.get("content").get(0).get("action").asText(), "a click runs uptime");
            JsonNode info = probe.info("shell-clock");
            assertEquals("script", info.get("kind").asText());
            assertEquals(1, info.get("timers").asInt(), "the every_ms timer of tick: " + info);

            JsonNode run = probe.ok("module.action.invoke", p("id", "shell-clock", "action", "uptime",
                    "bar_id", "clock", "bar_segment", 0));
            assertEquals(0, run.get("exit_code").asInt(), "uptime.sh: " + run);
            boolean notified = false;
            for (JsonNode n : probe.ok("ui.notification.list", "{}").get("notifications")) {
                notified |= n.get("text").asText().startsWith("up ") && n.path("dedupe_key").asText().equals("uptime");
            }
            assertTrue(notified, "the notification is queued: " + probe.ok("ui.notification.list", "{}"));

            probe.ok("module.disable", p("id", "shell-clock"));
            assertTrue(probe.widget("shell-clock", "clock").isEmpty(), "disabling takes the widget away");
            assertEquals(0, probe.info("shell-clock").get("timers").asInt(), "and stops the timer");
        } finally {
            probe.ok("module.unlink", p("id", "shell-clock"));
        }
    }
}

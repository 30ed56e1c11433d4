package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents family over the real socket, with scripted agents in real PTYs: the fake
 * {@code claude}, {@code codex}, {@code gemini} … under the agents bundle's test resources
 * are on the server's PATH, so its panes' shells launch them as a user's would, and the real
 * process scan, emulator and detector recognise them and read their screens.
 */
class AgentMethodsTest {
    static final Path FAKES = Cli.ROOT.resolve("bundles/families/io.artuditu.agents/src/test/resources/fake-agents/bin");
    @TempDir
    static Path home;
    @TempDir
    static Path work;
    static ForegroundServer server;
    static Path sock;
    static String firstPane;

    @BeforeAll
    static void start() throws Exception {
        server = new ForegroundServer(home, Map.of("PATH", FAKES + ":" + System.getenv("PATH"),
                "FAKE_AGENT_WORK_MS", "1500"));
        sock = server.socket;
        Path dir = work.resolve("proj");
        Files.createDirectories(dir);
        firstPane = ok("workspace.open", p("cwd", dir.toString(), "name", "agents")).get("pane").asText();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @AfterEach
    void stillServing() throws Exception {
        Terms.ping(sock);
    }

    // ------------------------------------------------------------------ helpers

    static JsonNode ok(String method, String params) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + Terms.clip(r.toString()));
        return r.get("result");
    }

    static JsonNode err(String method, String params, String code) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertEquals(code, Wire.code(r), method + " " + params + " -> " + Terms.clip(r.toString()));
        return r.get("error");
    }

    static String p(Object... kv) {
        ObjectNode o = Terms.params();
        for (int i = 0; i < kv.length; i += 2) {
            o.set((String) kv[i], Wire.M.valueToTree(kv[i + 1]));
        }
        return Terms.json(o);
    }

    static JsonNode start(String name, String kind) throws IOException {
        JsonNode r = ok("agent.start", p("name", name, "kind", kind, "anchor", firstPane, "focus", false, "timeout_s", 20));
        assertTrue(r.get("detected").asBoolean(), kind + " is recognised once it runs: " + r);
        return r;
    }

    static String status(String pane) throws IOException {
        return ok("agent.get", p("target", pane)).get("status").asText();
    }

    static void awaitStatus(String pane, String status) throws IOException {
        JsonNode w = ok("agent.wait", p("pane", pane, "status", status, "timeout_s", 20));
        assertTrue(w.get("matched").asBoolean(), "pane " + pane + " reaches " + status + ": " + w + "\n"
                + ok("agent.explain", p("target", pane)) + "\n" + ok("agent.read", p("target", pane)).get("text").asText());
    }

    static int paneCount() throws IOException {
        return ok("session.snapshot", "{}").findValues("terminal_id").size();
    }

    // ------------------------------------------------------------------ tests

    @Test
    void startRecognisesTheAgentAndEveryReadShowsIt() throws Exception {
        JsonNode s = start("alpha", "claude");
        String pane = s.get("pane").asText();
        assertEquals("alpha", s.get("name").asText());
        assertTrue(s.get("created").asBoolean());
        assertTrue(s.has("session_id"), "claude's session is pinned at launch: " + s);
        awaitStatus(pane, "idle");
        JsonNode byName = ok("agent.get", p("target", "alpha"));
        assertEquals(pane, byName.get("pane").asText());
        assertEquals("claude", byName.get("agent").asText());
        assertEquals("screen", byName.get("source").asText());
        assertTrue(ok("agent.list", "{}").get("agents").findValues("pane").stream().anyMatch(v -> v.asText().equals(pane)));
        JsonNode ex = ok("agent.explain", p("target", "alpha"));
        assertEquals("claude", ex.at("/identity/manifest").asText());
        assertEquals("builtin", ex.at("/identity/manifest_source").asText());
        assertFalse(ex.get("evidence").isNull(), "the screen verdict is shown: " + ex);
        assertEquals("screen", ex.at("/authority/active").asText());
        JsonNode snap = ok("session.snapshot", "{}");
        JsonNode row = null;
        for (JsonNode pr : snap.findValues("panes")) {
            for (JsonNode x : pr) {
                if (x.get("pane").asText().equals(pane)) {
                    row = x;
                }
            }
        }
        assertEquals("claude", row.at("/agent/name").asText(), "session.snapshot carries the agent: " + row);
        assertEquals("idle", row.at("/agent/status").asText());
        JsonNode perf = ok("pane.list", "{}").get("detection_performance");
        assertTrue(perf.get("agent_screens_evaluated").asLong() > 0, "the detector's work is counted: " + perf);
        assertTrue(perf.get("agent_rows_read").asLong() > 0);
        String session = s.get("session_id").asText();
        assertTrue(ok("agent.sessions", p("agent", "claude")).get("sessions").findValues("session_id").stream()
                .anyMatch(v -> v.asText().equals(session)));
        ok("pane.close", p("pane", pane));
    }

    @Test
    void aWaitingPromptHoldsTheReplyUntilEvidenceAndASecondOneIsBusy() throws Exception {
        String pane = start("beta", "claude").get("pane").asText();
        awaitStatus(pane, "idle");
        CompletableFuture<JsonNode> first = CompletableFuture.supplyAsync(() -> {
            try {
                return ok("agent.prompt", p("target", "beta", "text", "write the tests", "wait", true, "until", "done",
                        "timeout_s", 30));
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        awaitStatus(pane, "working");
        JsonNode busy = err("agent.prompt", p("target", "beta", "text", "and more", "wait", true), "agent_prompt_busy");
        assertTrue(busy.get("message").asText().contains(pane));
        JsonNode r = first.get(40, TimeUnit.SECONDS);
        assertTrue(r.get("submitted").asBoolean());
        assertTrue(r.get("matched").asBoolean(), r.toString());
        assertEquals("status", r.get("evidence").asText());
        assertEquals("done", status(pane), "a finished turn is done");
        assertFalse(ok("agent.read", p("target", pane)).get("text").asText().contains("and more"),
                "the busy prompt's text was never queued");
        JsonNode quick = ok("agent.prompt", p("target", pane, "text", "again", "wait", true));
        assertTrue(quick.get("matched").asBoolean(), quick.toString());
        assertTrue(quick.get("evidence").asText().equals("working") || quick.get("evidence").asText().equals("output_quiet"));
        JsonNode timeout = ok("agent.prompt", p("target", pane, "text", "slow", "wait", true, "until", "blocked",
                "timeout_s", 1));
        assertEquals(false, timeout.get("matched").asBoolean());
        assertEquals("timeout", timeout.get("evidence").asText());
        assertTrue(timeout.get("submitted").asBoolean());
        err("agent.prompt", p("target", pane, "text", "x", "until", "done"), "invalid_request");
        ok("pane.close", p("pane", pane));
    }

    @Test
    void anApprovalBlocksAndAnsweringItClearsTheBlock() throws Exception {
        String pane = start("gamma", "claude").get("pane").asText();
        awaitStatus(pane, "idle");
        ok("agent.send", p("target", pane, "text", "please approve the edit"));
        awaitStatus(pane, "blocked");
        JsonNode row = ok("agent.get", p("target", pane));
        assertTrue(row.get("attention").asBoolean(), "a blocked agent asks for attention");
        ok("agent.keys", p("target", pane, "keys", new String[] {"1"}));
        awaitStatus(pane, "working");
        awaitStatus(pane, "done");
        ok("pane.close", p("pane", pane));
    }

    @Test
    void leasesOwnAPaneUntilReleasedOrExpired() throws Exception {
        String pane = start("delta", "claude").get("pane").asText();
        awaitStatus(pane, "idle");
        JsonNode r = ok("agent.report", p("pane", pane, "source", "fx/plugin", "agent", "fx", "status", "blocked",
                "message", "approval required", "sequence", 12, "ttl_s", 300));
        assertEquals("agent_report", r.get("type").asText());
        assertEquals(12, r.get("sequence").asInt());
        JsonNode row = ok("agent.get", p("target", pane));
        assertEquals("blocked", row.get("status").asText());
        assertEquals("report", row.get("source").asText());
        assertEquals("fx", row.get("agent").asText());
        assertEquals("approval required", row.get("message").asText());
        JsonNode conflict = err("agent.report", p("pane", pane, "source", "other", "agent", "fx", "status", "working",
                "sequence", 99, "ttl_s", 10), "authority_conflict");
        assertEquals("fx/plugin", conflict.at("/details/owner").asText());
        err("agent.report", p("pane", pane, "source", "fx/plugin", "agent", "fx", "status", "working", "sequence", 12,
                "ttl_s", 10), "invalid_request");
        err("agent.report", p("pane", pane, "source", "fx/plugin", "agent", "fx", "status", "working", "sequence", 5,
                "ttl_s", 10), "invalid_request");
        err("agent.report", p("pane", pane, "source", "fx/plugin", "agent", "fx", "status", "working", "sequence", 13,
                "ttl_s", 0), "invalid_request");
        err("agent.report", p("pane", pane, "source", "fx/plugin", "agent", "fx", "status", "working", "sequence", 13,
                "ttl_s", 3601), "invalid_request");
        err("agent.report", p("pane", "4242", "source", "fx/plugin", "agent", "fx", "status", "working", "sequence", 13,
                "ttl_s", 10), "not_found");
        err("agent.release", p("pane", pane, "source", "other"), "authority_conflict");
        JsonNode rel = ok("agent.release", p("pane", pane, "source", "fx/plugin"));
        assertTrue(rel.get("released").asBoolean());
        assertEquals("screen", ok("agent.get", p("target", pane)).get("source").asText(), "the detector decides again");
        assertFalse(ok("agent.release", p("pane", pane, "source", "fx/plugin")).get("released").asBoolean());
        // a short lease ends by itself, on time, with an event
        ok("agent.report", p("pane", pane, "source", "other", "agent", "fx", "status", "working", "sequence", 1,
                "ttl_s", 1));
        assertEquals("report", ok("agent.get", p("target", pane)).get("source").asText());
        JsonNode w = ok("events.wait", p("event", "pane.agent_status_changed", "where", Map.of("pane", pane, "source",
                "screen"), "timeout_s", 10));
        assertTrue(w.get("matched").asBoolean(), "the expiry is published: " + w);
        assertEquals("screen", ok("agent.get", p("target", pane)).get("source").asText());
        ok("pane.close", p("pane", pane));
    }

    @Test
    void hookEventsOutrankTheScreenAndAKeystrokeClearsABlock() throws Exception {
        String pane = start("epsilon", "claude").get("pane").asText();
        awaitStatus(pane, "idle");
        JsonNode e = ok("pane.report_event", p("pane", pane, "agent", "claude", "event", "Notification",
                "message", "Claude needs your permission"));
        assertTrue(e.get("applied").asBoolean());
        assertEquals("blocked", e.get("status").asText());
        JsonNode row = ok("agent.get", p("target", pane));
        assertEquals("blocked", row.get("status").asText());
        assertEquals("hook", row.get("source").asText());
        assertEquals("Notification", ok("agent.explain", p("target", pane)).at("/hook/event").asText());
        ok("pane.send_input", p("pane", pane, "keys", new String[] {"esc"}));
        Terms.await("a keystroke answers the block", () -> !status(pane).equals("blocked"));
        JsonNode unknown = ok("pane.report_event", p("pane", pane, "agent", "claude", "event", "SomethingNew"));
        assertFalse(unknown.get("applied").asBoolean(), "an event the manifest does not map changes nothing");
        err("pane.report_event", p("pane", "4242", "agent", "claude", "event", "Stop"), "not_found");
        err("pane.report_event", p("pane", pane, "agent", "claude", "event", "bad event"), "invalid_request");
        ok("pane.close", p("pane", pane));
    }

    @Test
    void forkUsesTheReportedSessionAndRefusesWhatItCannotDo() throws Exception {
        String pane = start("zeta", "claude").get("pane").asText();
        awaitStatus(pane, "idle");
        ok("pane.report_session", p("pane", pane, "agent", "claude", "session_id", "sess-fork-1", "cwd", work.toString()));
        String focusedBefore = ok("pane.current", "{}").get("pane").asText();
        int before = paneCount();
        JsonNode f = ok("agent.fork", p("target", "zeta", "name", "zeta2", "focus", false));
        assertEquals(pane, f.get("from").asText());
        assertEquals("zeta2", f.get("name").asText());
        assertEquals("claude", f.get("agent").asText());
        assertEquals(false, f.get("focused").asBoolean());
        assertEquals("sess-fork-1", f.get("session_id").asText());
        assertEquals(before + 1, paneCount());
        assertEquals(focusedBefore, ok("pane.current", "{}").get("pane").asText(), "focus:false keeps the focus");
        String child = f.get("pane").asText();
        assertEquals(child, ok("pane.neighbor", p("pane", pane, "direction", "right")).get("neighbor").asText(),
                "the fork is right of its source");
        Terms.await("the fork runs claude with the parent's session", () -> ok("agent.read", p("target", child))
                .get("text").asText().contains("sess-fork-1"));
        assertTrue(ok("agent.wait", p("pane", pane, "status", "idle", "timeout_s", 5)).get("matched").asBoolean(),
                "the parent keeps running");

        // refusals, each before a pane is made
        int now = paneCount();
        JsonNode shell = err("agent.fork", p("target", firstPane), "unsupported_agent");
        assertEquals("not_agent", shell.at("/details/reason").asText(), shell.toString());
        assertEquals(firstPane, shell.at("/details/pane").asText(), shell.toString());
        String codex = start("eta", "codex").get("pane").asText();
        now = paneCount();
        err("agent.fork", p("target", "eta"), "session_unknown");
        assertEquals(now, paneCount(), "nothing spawned for an unknown session");
        String gemini = start("theta", "gemini").get("pane").asText();
        now = paneCount();
        JsonNode noFork = err("agent.fork", p("target", "theta"), "unsupported_agent");
        assertEquals("no_fork", noFork.at("/details/reason").asText(), noFork.toString());
        assertEquals("gemini", noFork.at("/details/agent").asText(), noFork.toString());
        assertEquals(gemini, noFork.at("/details/pane").asText(), noFork.toString());
        err("agent.fork", p("target", "zeta", "name", "zeta2"), "invalid_request");
        assertEquals(now, paneCount(), "nothing spawned for a refused fork");
        for (String x : new String[] {pane, child, codex, gemini}) {
            ok("pane.close", p("pane", x));
        }
    }

    @Test
    void badTargetsNamesAndInputAreRefusedAndChangeNothing() throws Exception {
        int before = paneCount();
        err("agent.start", p("name", "one", "kind", "nosuchagent"), "not_found");
        err("agent.start", p("name", "9bad", "kind", "claude"), "invalid_request");
        err("agent.start", p("name", "x", "kind", "claude", "pane", firstPane, "anchor", firstPane), "invalid_request");
        ok("pane.rename", p("pane", firstPane, "name", "taken"));
        JsonNode taken = err("agent.start", p("name", "taken", "kind", "claude"), "invalid_request");
        assertEquals("name_taken", taken.at("/details/reason").asText());
        assertEquals(before, paneCount(), "no refused start spawned a pane");
        JsonNode shell = err("agent.send", p("target", firstPane, "text", "ls"), "invalid_request");
        assertEquals("not_agent", shell.at("/details/reason").asText());
        err("agent.keys", p("target", firstPane, "keys", new String[] {"enter"}), "invalid_request");
        err("agent.prompt", p("target", firstPane, "text", "hi"), "invalid_request");
        err("agent.get", p("target", "4242"), "not_found");
        err("agent.get", p("target", "nobody"), "not_found");
        err("agent.wait", p("pane", firstPane, "status", "sleeping"), "invalid_request");
        JsonNode w = ok("agent.wait", p("pane", firstPane, "status", "done", "timeout_s", 0.3));
        assertFalse(w.get("matched").asBoolean());
        err("agent.resume", p("session_id", "never-seen"), "session_unknown");
    }

    @Test
    void twoAgentsOfOneKindNeedANameAndTheNameCanChange() throws Exception {
        String a = start("iota", "aider").get("pane").asText();
        String b = start("kappa", "aider").get("pane").asText();
        JsonNode amb = err("agent.get", p("target", "aider"), "invalid_request");
        assertEquals("ambiguous", amb.at("/details/reason").asText());
        err("agent.name", p("target", a, "name", "kappa"), "invalid_request");
        assertEquals("lambda", ok("agent.name", p("target", a, "name", "lambda")).get("name").asText());
        assertEquals(a, ok("agent.get", p("target", "lambda")).get("pane").asText());
        ok("pane.close", p("pane", b));
        Terms.await("the closed pane's agent is gone", () -> ok("agent.get", p("target", "aider")).get("pane").asText()
                .equals(a));
        ok("pane.close", p("pane", a));
    }

    @Test
    void manifestsReloadLiveAndABrokenUserManifestIsSkipped() throws Exception {
        JsonNode m = ok("server.agent_manifests", "{}");
        for (String n : new String[] {"claude", "codex", "gemini", "aider", "opencode", "goose"}) {
            assertTrue(contains(m.get("names"), n), n + ": " + m);
        }
        assertTrue(m.get("rule_count").asInt() > 0);
        Path user = home.resolve("agents/user");
        Files.createDirectories(user);
        Files.writeString(user.resolve("broken.toml"), "name = \"broken\"\n[[rules]]\nid = \"x\"\npattern = \"(unclosed\"\n");
        JsonNode r = ok("server.reload_agent_manifests", "{}");
        assertTrue(r.get("reloaded").asBoolean());
        assertTrue(r.get("problems").toString().contains("broken.toml"), "the broken file is reported: " + r);
        assertFalse(contains(r.get("names"), "broken"));
        assertTrue(contains(r.get("names"), "claude"), "the rest keep working");
        JsonNode alias = ok("manifest.reload", "{}");
        assertEquals(r.get("names"), alias.get("names"));
        Files.delete(user.resolve("broken.toml"));
        assertEquals("[]", ok("manifest.reload", "{}").get("problems").toString());
    }

    @Test
    void theCliWaitsForAnAgentStatus() throws Exception {
        String pane = start("mu", "claude").get("pane").asText();
        Map<String, String> env = Map.of("ARTUDITU_HOME", home.toString());
        Cli.Result done = Cli.run(env, "wait", "agent-status", pane, "idle", "--timeout", "20");
        assertEquals(0, done.status(), done.toString());
        assertTrue(done.out().contains("\"matched\":true"), done.out());
        Cli.Result timeout = Cli.run(env, "wait", "agent-status", pane, "blocked", "--timeout", "0.5");
        assertEquals(4, timeout.status(), timeout.toString());
        Cli.Result list = Cli.run(env, "agent", "list");
        assertEquals(0, list.status(), list.toString());
        assertTrue(list.out().contains("\"mu\""), list.out());
        ok("pane.close", p("pane", pane));
    }

    @Test
    void updatingTheAgentsAndTerminalBundlesKeepsEveryAgentAndOneLoop() throws Exception {
        String pane = start("xi", "claude").get("pane").asText();
        awaitStatus(pane, "idle");
        long pid = server.process.pid();
        for (String bsn : new String[] {"io.artuditu.agents", "io.artuditu.agents", "io.artuditu.terminal",
                "io.artuditu.agents"}) {
            Path jar = Reactor.jar(bsn);
            ok("server.bundle.update", p("bundle", bsn, "path", jar.toString()));
            Terms.await("the agent is recognised again after updating " + bsn, () -> {
                JsonNode r = Wire.call(sock, "agent.get", p("target", "xi"));
                return r.has("result") && r.at("/result/agent").asText().equals("claude")
                        && !r.at("/result/status").asText().equals("unknown");
            });
            assertEquals(1L, ModuleReloadCyclesTest.threadNames(pid).stream().filter(n -> n.equals("agents-loop")).count(),
                    "one agents loop after updating " + bsn);
        }
        // the detector still works on the updated bundles: a turn is seen from start to end
        ok("agent.prompt", p("target", "xi", "text", "after the update", "wait", true, "until", "done", "timeout_s", 30));
        assertEquals("done", status(pane));
        ok("pane.close", p("pane", pane));
    }

    static boolean contains(JsonNode array, String v) {
        for (JsonNode x : array) {
            if (x.asText().equals(v)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void resumeStartsAKnownSessionInANewPane() throws Exception {
        ok("pane.report_session", p("pane", firstPane, "agent", "claude", "session_id", "sess-resume-7"));
        JsonNode r = ok("agent.resume", p("session_id", "sess-resume-7", "name", "nu", "anchor", firstPane,
                "focus", false, "timeout_s", 20));
        assertTrue(r.get("detected").asBoolean(), r.toString());
        String pane = r.get("pane").asText();
        assertNotEquals(firstPane, pane);
        Terms.await("the resumed claude names its session", () -> ok("agent.read", p("target", pane)).get("text")
                .asText().contains("sess-resume-7"));
        ok("pane.close", p("pane", pane));
    }
}

package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code artu hook} end to end: the launcher, the CLI's reporter and the agents family of the
 * real server. A stand-in {@code claude} (and {@code codex}, {@code gemini}) on the server's PATH, started with
 * {@code agent.start} so the process scan recognises it, runs its hooks the way the real one
 * does (a child process with the hook's JSON on stdin, or codex's as the last argument),
 * one step at a time as the test hands them over, so nothing is typed into the pane (a
 * keystroke would itself change the state).
 */
class HookCommandTest {
    /**
     * Runs step N when {@code $HOOK_STEPS_ROOT/<its pane>/N.args} appears: {@code artu hook
     * <args>} with N.json on stdin, or with N.arg as the last argument; stdout, stderr and
     * the status saved beside them.
     */
    static final String AGENT = String.join("\n",
            "#!/bin/sh",
            "echo \"stand-in agent $$ ready\"",
            "s=\"$HOOK_STEPS_ROOT/$ARTUDITU_PANE_ID\"",
            "n=1",
            "while :; do",
            "    while [ ! -e \"$s/$n.args\" ]; do sleep 0.02; done",
            "    if [ -e \"$s/$n.arg\" ]; then",
            "        \"$HOOK_ARTU\" hook $(cat \"$s/$n.args\") \"$(cat \"$s/$n.arg\")\" </dev/null >\"$s/$n.out\" 2>\"$s/$n.err\"",
            "    else",
            "        \"$HOOK_ARTU\" hook $(cat \"$s/$n.args\") <\"$s/$n.json\" >\"$s/$n.out\" 2>\"$s/$n.err\"",
            "    fi",
            "    echo $? >\"$s/$n.tmp\" && mv \"$s/$n.tmp\" \"$s/$n.status\"",
            "    n=$((n + 1))",
            "done",
            "");

    @TempDir
    static Path home;
    @TempDir
    static Path work;
    static ForegroundServer server;
    static Path sock;
    static Path bin;
    static String anchor;

    @BeforeAll
    static void start() throws Exception {
        bin = Files.createDirectories(work.resolve("bin"));
        for (String name : new String[] {"claude", "codex", "gemini"}) {
            Path p = bin.resolve(name);
            Files.writeString(p, AGENT);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        // no ARTU_NO_BUILD: the launcher never builds for a hook anyway
        server = new ForegroundServer(home, Map.of("PATH", bin + ":" + System.getenv("PATH"), "HOOK_ARTU", Cli.ARTU.toString(),
                "HOOK_STEPS_ROOT", work.resolve("steps").toString()));
        sock = server.socket;
        anchor = ok("workspace.open", p("cwd", work.toString(), "name", "hooks")).get("pane").asText();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static JsonNode ok(String method, String params) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + Terms.clip(r.toString()));
        return r.get("result");
    }

    static String p(Object... kv) {
        ObjectNode o = Terms.params();
        for (int i = 0; i < kv.length; i += 2) {
            o.set((String) kv[i], Wire.M.valueToTree(kv[i + 1]));
        }
        return Terms.json(o);
    }

    /** One stand-in agent in its own pane, and the folder it takes its steps from. */
    record Agent(String pane, Path steps) {
        /** Hands the agent step {@code n}: {@code artu hook ARGS} with {@code json} on stdin (or as the last argument); its status. */
        int step(int n, String args, String json, boolean asArgument) throws Exception {
            Files.writeString(steps.resolve(n + (asArgument ? ".arg" : ".json")), json);
            Files.writeString(steps.resolve(n + ".args.tmp"), args);
            Files.move(steps.resolve(n + ".args.tmp"), steps.resolve(n + ".args"));
            Path status = steps.resolve(n + ".status");
            Terms.await("the agent ran hook step " + n, () -> Files.exists(status));
            assertEquals("", Files.readString(steps.resolve(n + ".out")), "artu hook writes nothing to stdout (step " + n + ")");
            assertEquals("", Files.readString(steps.resolve(n + ".err")), "nor to stderr without ARTUDITU_HOOK_DEBUG (step " + n + ")");
            return Integer.parseInt(Files.readString(status, StandardCharsets.US_ASCII).trim());
        }
    }

    static Agent launch(String name, String kind) throws Exception {
        JsonNode r = ok("agent.start", p("name", name, "kind", kind, "anchor", anchor, "focus", false, "timeout_s", 20));
        assertTrue(r.get("detected").asBoolean(), kind + " is recognised: " + r);
        String pane = r.get("pane").asText();
        return new Agent(pane, Files.createDirectories(work.resolve("steps").resolve(pane)));
    }

    static JsonNode row(String pane) throws IOException {
        return ok("agent.get", p("target", pane));
    }

    @Test
    void claudeCodesHooksDriveThePanesStateAndReportItsSession() throws Exception {
        Agent a = launch("hooked", "claude");
        String session = "6c1f2a9e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
        String cwd = work.toString();
        assertEquals(0, a.step(1, "claude UserPromptSubmit", "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/t.jsonl\","
                + "\"cwd\":" + Wire.M.writeValueAsString(cwd) + ",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"fix it\"}", false));
        JsonNode r = row(a.pane());
        assertEquals("working", r.get("status").asText());
        assertEquals("hook", r.get("source").asText());
        assertEquals(session, r.get("session_id").asText());
        JsonNode known = ok("agent.sessions", p("agent", "claude")).get("sessions").get(0);
        assertEquals(session, known.get("session_id").asText());
        assertEquals(a.pane(), known.get("pane").asText());

        assertEquals(0, a.step(2, "claude Notification", "{\"session_id\":\"" + session + "\",\"hook_event_name\":\"Notification\","
                + "\"message\":\"Claude needs your permission to use Bash\",\"notification_type\":\"permission_prompt\"}", false));
        r = row(a.pane());
        assertEquals("blocked", r.get("status").asText());
        assertEquals("Claude needs your permission to use Bash", r.get("message").asText());
        assertEquals("Notification:permission_prompt", ok("agent.explain", p("target", a.pane())).at("/hook/event").asText());

        assertEquals(0, a.step(3, "claude PostToolUse", "{\"session_id\":\"" + session + "\",\"hook_event_name\":\"PostToolUse\"}", false));
        assertEquals("working", row(a.pane()).get("status").asText());
        assertEquals(0, a.step(4, "claude Stop", "{\"session_id\":\"" + session + "\",\"hook_event_name\":\"Stop\"}", false));
        assertEquals("done", row(a.pane()).get("status").asText());

        // a kind of notification the manifest does not name: the bare event's meaning
        assertEquals(0, a.step(5, "claude Notification", "{\"session_id\":\"" + session + "\",\"hook_event_name\":\"Notification\","
                + "\"message\":\"MCP server asks for input\",\"notification_type\":\"elicitation_dialog\"}", false));
        JsonNode hook = ok("agent.explain", p("target", a.pane())).get("hook");
        assertEquals("Notification:elicitation_dialog", hook.get("event").asText());
        assertEquals("blocked", hook.get("status").asText());

        JsonNode known2 = ok("agent.sessions", p("agent", "claude")).get("sessions").get(0);
        assertEquals(session, known2.get("session_id").asText());
        assertEquals(cwd, known2.get("cwd").asText(), "the events after the first keep the folder the first reported");

        // malformed input: the event still counts, without a session
        assertEquals(0, a.step(6, "claude UserPromptSubmit", "{\"session_id\": oops", false));
        assertEquals("working", row(a.pane()).get("status").asText());
        ok("pane.close", p("pane", a.pane()));
    }

    @Test
    void geminiClisHooksDriveThePanesStateAndReportItsSession() throws Exception {
        Agent a = launch("gemini-hooked", "gemini");
        String session = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
        String base = "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/home/u/.gemini/tmp/x/chats/s.json\","
                + "\"cwd\":" + Wire.M.writeValueAsString(work.toString()) + ",\"timestamp\":\"2026-12-07T17:00:00.000Z\",";
        assertEquals(0, a.step(1, "gemini SessionStart", base + "\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}", false));
        assertEquals("idle", row(a.pane()).get("status").asText());
        assertEquals(0, a.step(2, "gemini BeforeAgent", base + "\"hook_event_name\":\"BeforeAgent\",\"prompt\":\"run the tests\"}", false));
        JsonNode r = row(a.pane());
        assertEquals("working", r.get("status").asText());
        assertEquals("hook", r.get("source").asText());
        assertEquals(session, r.get("session_id").asText());
        assertEquals(session, ok("agent.sessions", p("agent", "gemini")).get("sessions").get(0).get("session_id").asText());

        assertEquals(0, a.step(3, "gemini Notification", base + "\"hook_event_name\":\"Notification\","
                + "\"notification_type\":\"ToolPermission\",\"message\":\"Tool run_shell_command requires execution confirmation\","
                + "\"details\":{\"type\":\"exec\",\"title\":\"Confirm Shell Command\",\"command\":\"npm test\",\"rootCommand\":\"npm\"}}",
                false));
        r = row(a.pane());
        assertEquals("blocked", r.get("status").asText());
        assertEquals("Tool run_shell_command requires execution confirmation", r.get("message").asText());
        assertEquals("Notification:ToolPermission", ok("agent.explain", p("target", a.pane())).at("/hook/event").asText());

        assertEquals(0, a.step(4, "gemini BeforeTool", base + "\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"run_shell_command\","
                + "\"tool_input\":{\"command\":\"npm test\"}}", false));
        assertEquals("working", row(a.pane()).get("status").asText());
        assertEquals(0, a.step(5, "gemini AfterTool", base + "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"run_shell_command\","
                + "\"tool_input\":{\"command\":\"npm test\"},\"tool_response\":{\"llmContent\":\"ok\",\"returnDisplay\":\"ok\"}}", false));
        assertEquals("working", row(a.pane()).get("status").asText());
        assertEquals(0, a.step(6, "gemini AfterAgent", base + "\"hook_event_name\":\"AfterAgent\",\"prompt\":\"run the tests\","
                + "\"prompt_response\":\"All tests pass.\",\"stop_hook_active\":false}", false));
        assertEquals("done", row(a.pane()).get("status").asText());
        ok("pane.close", p("pane", a.pane()));
    }

    @Test
    void codexNotifyEndsATurnAndNamesItsThread() throws Exception {
        Agent a = launch("notified", "codex");
        assertEquals(0, a.step(1, "codex notify", "{\"type\":\"agent-turn-complete\",\"thread-id\":\"0199a1b2-c3d4-7e5f\","
                + "\"turn-id\":\"3\",\"cwd\":\"/w\",\"input-messages\":[\"add a test\"],"
                + "\"last-assistant-message\":\"Added the test.\"}", true));
        JsonNode r = row(a.pane());
        assertEquals("done", r.get("status").asText());
        assertEquals("hook", r.get("source").asText());
        assertEquals("0199a1b2-c3d4-7e5f", r.get("session_id").asText());
        assertEquals("Added the test.", r.get("message").asText());
        assertEquals("agent-turn-complete", ok("agent.explain", p("target", a.pane())).at("/hook/event").asText());
        ok("pane.close", p("pane", a.pane()));
    }

    @Test
    void whateverGoesWrongTheHookExits0AndPrintsNothing() throws Exception {
        Map<String, String> env = Map.of("ARTUDITU_SOCKET_PATH", sock.toString(), "ARTUDITU_PANE_ID", "4242");
        Cli.Result gone = Cli.run(env, "hook", "claude", "Stop", "{\"session_id\":\"s\"}");
        assertEquals(new Cli.Result(0, "", ""), gone, "a pane the server does not have: not_found, not the agent's problem");
        Cli.Result noServer = Cli.run(Map.of("ARTUDITU_SOCKET_PATH", work.resolve("none.sock").toString(), "ARTUDITU_PANE_ID", "1"),
                "hook", "claude", "Stop", "{}");
        assertEquals(new Cli.Result(0, "", ""), noServer);
        Cli.Result noPane = Cli.run(Map.of("ARTUDITU_SOCKET_PATH", sock.toString()), "hook", "claude", "Stop", "{}");
        assertEquals(new Cli.Result(0, "", ""), noPane);
        Cli.Result debug = Cli.run(Map.of("ARTUDITU_SOCKET_PATH", sock.toString(), "ARTUDITU_PANE_ID", "4242",
                "ARTUDITU_HOOK_DEBUG", "1"), "hook", "claude", "Stop", "{}");
        assertEquals(0, debug.status());
        assertEquals("", debug.out());
        assertTrue(debug.err().contains("\"code\":\"not_found\""), debug.err());
    }
}

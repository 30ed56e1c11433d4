package io.artuditu.it;

import static io.artuditu.it.Terms.create;
import static io.artuditu.it.Terms.error;
import static io.artuditu.it.Terms.id;
import static io.artuditu.it.Terms.ok;
import static io.artuditu.it.Terms.params;
import static io.artuditu.it.Terms.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * terminal.backend.* against the real server, real PTYs and the real socket: each method's
 * answer on a working terminal, read back through the other methods. Every reply is
 * checked against its result schema (Wire) and the server runs with strict results.
 */
class TerminalMethodsTest extends OneServerPerClass {
    /** An interactive sh with the prompt "tb$ ", ready for input. */
    private static String shell() throws Exception {
        ObjectNode p = params().put("cwd", work.toString());
        p.putArray("command").add("sh");
        p.putObject("env").put("PS1", "tb$ ");
        String t = ok(sock, "create", p).get("terminal_id").asText();
        waitFor(sock, t, "tb$");
        return t;
    }

    @Test
    void createReturnsAnIdentityThatInventoryAndSnapshotAgreeOn() throws Exception {
        ObjectNode p = params().put("cwd", work.toString()).put("cols", 100).put("rows", 30);
        p.putArray("command").add("/bin/sh").add("-c").add("printf 'ready\\n'; exec sleep 60");
        p.putObject("env").put("TB_GREETING", "hello");
        JsonNode created = ok(sock, "create", p);
        String t = created.get("terminal_id").asText();
        assertTrue(created.get("revision").asLong() > 0, "create carries the application revision: " + created);
        assertEquals(100, created.get("cols").asInt());
        waitFor(sock, t, "ready");

        JsonNode inv = ok(sock, "inventory", params());
        JsonNode row = null;
        for (JsonNode r : inv.get("terminals")) {
            if (r.get("terminal_id").asText().equals(t)) {
                row = r;
            }
        }
        assertTrue(row != null, "inventory lists the new terminal: " + inv);
        assertEquals(created.get("pane").asText(), row.get("pane").asText());
        assertEquals(created.get("workspace_id").asText(), row.get("workspace_id").asText());
        assertEquals(created.get("pid").asLong(), row.get("pid").asLong());
        assertEquals("sh", row.get("command").asText(), "argv[0]'s base name, never the arguments");
        assertFalse(inv.toString().contains("exec sleep"), "no argument vector anywhere in the inventory");
        assertTrue(row.get("alive").asBoolean());
        assertTrue(inv.get("sequence").asLong() >= created.get("revision").asLong(), "the fence covers pane.created");

        JsonNode snap = ok(sock, "snapshot", id(t));
        assertEquals(100, snap.get("cols").asInt());
        assertEquals(30, snap.get("rows").asInt());
        assertEquals(List.of(0, 1), List.of(snap.at("/cursor/0").asInt(), snap.at("/cursor/1").asInt()));
        assertTrue(snap.get("cursor_visible").asBoolean());
        assertFalse(snap.get("alternate_screen").asBoolean());
        assertEquals(0, snap.get("history_rows").asInt());
        assertTrue(snap.get("last_exit_status").isNull());
        assertTrue(snap.get("cwd").isNull(), "sh reports no OSC 7");
        assertTrue(snap.get("revision").asLong() >= 1);
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void validateSaysWhetherAnIdentityIsStillLiveAndUnchanged() throws Exception {
        String t = shell();
        long rev = ok(sock, "snapshot", id(t)).get("revision").asLong();
        JsonNode same = ok(sock, "validate", id(t).put("revision", rev));
        assertTrue(same.get("valid").asBoolean(), same.toString());
        assertFalse(same.has("reason"));
        ok(sock, "submit_text", id(t).put("text", "echo chan''ged"));
        waitFor(sock, t, "changed");
        JsonNode moved = ok(sock, "validate", id(t).put("revision", rev));
        assertFalse(moved.get("valid").asBoolean());
        assertTrue(moved.get("alive").asBoolean());
        assertEquals("revision_changed", moved.get("reason").asText());
        assertTrue(moved.get("revision").asLong() > rev);
        assertTrue(ok(sock, "validate", id(t)).get("valid").asBoolean(), "without revision only liveness counts");
        ok(sock, "close", id(t));
        JsonNode gone = ok(sock, "validate", id(t));
        assertEquals("exited", gone.get("reason").asText(), gone.toString());
        assertTrue(gone.get("revision").isNull());
        JsonNode never = ok(sock, "validate", id("term-000000-1"));
        assertEquals("unknown", never.get("reason").asText());
        assertFalse(never.get("valid").asBoolean());
    }

    @Test
    void typedAndSubmittedTextReachTheProgramAndCaptureReadsItBack() throws Exception {
        String t = shell();
        JsonNode typed = ok(sock, "type_literal", id(t).put("text", "echo typed-$((6*7))"));
        assertEquals(19, typed.get("bytes").asInt());
        assertFalse(Terms.screen(sock, t).contains("typed-42"), "no Enter yet");
        JsonNode enter = ok(sock, "send_key", id(t).put("key", "enter"));
        assertEquals(1, enter.get("bytes").asInt());
        JsonNode m = ok(sock, "wait_output", id(t).put("text", "typed-42").put("after_revision", typed.get("revision").asLong()));
        assertTrue(m.get("matched").asBoolean(), m.toString());
        assertEquals(1, m.get("matches").asInt(), "the command line holds $((6*7)), only the output 42");
        assertEquals(1, m.at("/match/line").asInt(), "line 0 is the prompt, line 1 the output");
        assertEquals(0, m.at("/match/col").asInt());
        assertEquals(8, m.at("/match/end_col").asInt());

        JsonNode sub = ok(sock, "submit_text", id(t).put("text", "echo a''b\necho c''d"));
        assertFalse(sub.get("bracketed_paste").asBoolean(), "sh does not ask for bracketed paste");
        waitFor(sock, t, "cd");
        JsonNode all = ok(sock, "capture", id(t).put("start", 0));
        assertTrue(all.get("text").asText().startsWith("tb$ echo typed-$((6*7))\ntyped-42\n"), all.toString());
        assertTrue(all.get("text").asText().contains("\nab\n"), "a line break in the text submitted the first command");
        JsonNode last = ok(sock, "capture", id(t).put("start", -1));
        assertEquals(1, last.get("lines").asInt());
        assertEquals(all.get("total_lines").asInt() - 1, last.get("start").asInt());
        JsonNode two = ok(sock, "capture", id(t).put("start", 1).put("lines", 1));
        assertEquals("typed-42", two.get("text").asText());
        assertFalse(two.get("truncated").asBoolean());
        ok(sock, "close", id(t));
    }

    @Test
    void submitTextUsesBracketedPasteWhenTheProgramAskedForIt() throws Exception {
        // cat -v shows the paste brackets the terminal sends: ^[[200~ ... ^[[201~
        String t = create(sock, work, "sh", "-c", "printf '\\033[?2004h'; stty -echo; exec cat -v");
        ok(sock, "wait_change", id(t).put("after_revision", 0).put("timeout_s", 10));
        Terms.await("bracketed paste is on", () -> ok(sock, "snapshot", id(t)).get("bracketed_paste").asBoolean());
        JsonNode r = ok(sock, "submit_text", id(t).put("text", "pasted"));
        assertTrue(r.get("bracketed_paste").asBoolean());
        waitFor(sock, t, "^[[200~pasted^[[201~");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void sendKeyEncodesForTheProgramsModesAndRepeats() throws Exception {
        // DECCKM on, then cat -v shows each byte it gets: up is ESC O A in application mode.
        String t = create(sock, work, "sh", "-c", "printf '\\033[?1h'; stty raw -echo; echo go; exec cat -v");
        waitFor(sock, t, "go");
        JsonNode r = ok(sock, "send_key", id(t).put("key", "ctrl+a").put("repeat", 3));
        assertEquals(3, r.get("bytes").asInt());
        assertEquals(3, r.get("repeat").asInt());
        assertEquals("ctrl+a", r.get("key").asText());
        waitFor(sock, t, "^A^A^A");
        assertEquals(3, ok(sock, "send_key", id(t).put("key", "up")).get("bytes").asInt());
        waitFor(sock, t, "^[OA");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void ctrlCInterruptsTheForegroundProgram() throws Exception {
        String t = create(sock, work, "sh", "-c", "echo go; sleep 30; echo sur''vived");
        waitFor(sock, t, "go");
        ok(sock, "send_key", id(t).put("key", "ctrl+c"));
        Terms.await("ctrl+c ended the program", () -> ok(sock, "validate", id(t)).has("exit_status"));
        JsonNode v = ok(sock, "validate", id(t));
        assertEquals(130, v.get("exit_status").asInt(), "SIGINT: " + v);
    }

    @Test
    void setTitleOverridesTheProgramsTitleUntilCleared() throws Exception {
        String t = create(sock, work, "sh", "-c", "printf '\\033]0;program\\007'; exec sleep 60");
        Terms.await("the program's title", () -> ok(sock, "snapshot", id(t)).get("title").asText().equals("program"));
        JsonNode set = ok(sock, "set_title", id(t).put("title", "from the API"));
        assertEquals("from the API", set.get("title").asText());
        assertTrue(set.get("title_override").asBoolean());
        JsonNode snap = ok(sock, "snapshot", id(t));
        assertEquals("from the API", snap.get("title").asText());
        assertTrue(snap.get("title_override").asBoolean());
        ObjectNode nul = id(t);
        nul.putNull("title");
        assertEquals("program", ok(sock, "set_title", nul).get("title").asText(), "null clears");
        ok(sock, "set_title", id(t).put("title", "again"));
        JsonNode cleared = ok(sock, "set_title", id(t).put("clear", true));
        assertEquals("program", cleared.get("title").asText());
        assertFalse(cleared.get("title_override").asBoolean());
        error(sock, "set_title", id(t).put("title", "two\nlines"), "invalid_request");
        error(sock, "set_title", id(t).put("title", "x".repeat(257)), "invalid_request");
        error(sock, "set_title", id(t).put("title", "x").put("clear", true), "invalid_request");
        error(sock, "set_title", id(t), "invalid_request");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void notifyPublishesTerminalNotificationWithSourceApi() throws Exception {
        String t = create(sock, work, "sleep", "60");
        try (EventStream events = new EventStream(sock, Terms.request("events.subscribe", params()), true)) {
            events.nextJson(10);
            JsonNode r = ok(sock, "notify", id(t).put("title", "Build").put("body", "finished\nall green"));
            JsonNode e;
            do {
                e = events.nextJson(10);
            } while (!e.get("event").asText().equals("terminal.notification"));
            assertEquals(r.get("sequence").asLong(), e.get("sequence").asLong());
            assertEquals("", Terms.eventSchema("terminal.notification").validate(e.get("data"), "data")
                    .map(Object::toString).orElse(""));
            assertEquals("api", e.at("/data/source").asText());
            assertEquals("Build", e.at("/data/title").asText());
            assertEquals(t, e.at("/data/terminal_id").asText());
        }
        error(sock, "notify", id(t).put("body", "b".repeat(1025)), "invalid_request");
        error(sock, "notify", id(t).put("body", ""), "invalid_request");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void theTerminalEventStreamCarriesTitleBellNotificationCoalescedOutputAndTheExit() throws Exception {
        try (EventStream events = new EventStream(sock, Terms.request("events.subscribe", params()), true)) {
            JsonNode ack = Wire.validated(events.next(10) + "\n", "terminal.backend.events.subscribe").get("result");
            assertEquals(List.of("terminal.output", "terminal.title", "terminal.bell", "terminal.notification",
                    "terminal.exited"), Wire.M.convertValue(ack.get("events"), List.class));
            long start = System.nanoTime();
            String t = create(sock, work, "sh", "-c", "printf '\\033]0;T1\\007\\007\\007\\007\\033]777;notify;Hi;there\\007';"
                    + " i=0; while [ $i -lt 30 ]; do echo $i; sleep 0.05; i=$((i+1)); done; exit 2");
            List<JsonNode> mine = new ArrayList<>();
            JsonNode e;
            do {
                e = events.nextJson(20);
                String name = e.get("event").asText();
                assertTrue(name.startsWith("terminal."), "only terminal.* events: " + e);
                assertEquals("", Terms.eventSchema(name).validate(e.get("data"), "data").map(Object::toString).orElse(""),
                        e.toString());
                if (e.at("/data/terminal_id").asText().equals(t)) {
                    mine.add(e);
                }
            } while (!(e.get("event").asText().equals("terminal.exited") && e.at("/data/terminal_id").asText().equals(t)));
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(ack.get("sequence").asLong() < mine.get(0).get("sequence").asLong(), "subscribe first: nothing missed");
            List<String> names = new ArrayList<>();
            mine.forEach(m -> names.add(m.get("event").asText()));
            assertEquals(1, names.stream().filter("terminal.title"::equals).count(), names.toString());
            assertEquals(1, names.stream().filter("terminal.bell"::equals).count(), "three bells in a second are one event");
            assertEquals("terminal.exited", names.get(names.size() - 1), "the exit is the last word");
            assertEquals(2, mine.get(mine.size() - 1).at("/data/exit_status").asInt());
            JsonNode note = mine.stream().filter(m -> m.get("event").asText().equals("terminal.notification")).findFirst()
                    .orElseThrow();
            assertEquals("osc777", note.at("/data/source").asText());
            assertEquals("Hi", note.at("/data/title").asText());
            long outputs = names.stream().filter("terminal.output"::equals).count();
            assertTrue(outputs >= 2 && outputs <= seconds / 0.25 + 2, outputs + " output events in " + seconds + " s");
            long last = -1;
            for (JsonNode m : mine) {
                if (m.get("event").asText().equals("terminal.output")) {
                    assertTrue(m.at("/data/revision").asLong() > last, "output revisions grow");
                    last = m.at("/data/revision").asLong();
                }
            }
        }
    }

    @Test
    void processesListsNamesOnlyNeverArguments() throws Exception {
        String t = create(sock, work, "sh", "-c", "sleep 31 & sleep 32 & echo started; wait");
        waitFor(sock, t, "started");
        Terms.await("both children run", () -> {
            JsonNode r = ok(sock, "processes", id(t));
            return r.get("processes").size() >= 3;
        });
        JsonNode r = ok(sock, "processes", id(t));
        assertEquals("ok", r.get("scan").asText());
        assertEquals(0, r.at("/processes/0/depth").asInt());
        assertEquals(r.get("pid").asLong(), r.at("/processes/0/pid").asLong());
        List<String> names = new ArrayList<>();
        r.get("processes").forEach(p -> names.add(p.get("name").asText()));
        assertEquals(List.of("sh", "sleep", "sleep"), names, "executable names, no arguments");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void closeEndsTheProcessAndLaterCallsGetItsExitAsEvidence() throws Exception {
        String t = shell();
        JsonNode closed = ok(sock, "close", id(t));
        assertEquals(129, closed.get("exit_status").asInt(), "sh dies of SIGHUP: " + closed);
        assertFalse(closed.get("exiting").asBoolean());
        assertTrue(closed.get("revision").asLong() > 0);
        JsonNode err = error(sock, "snapshot", id(t), "not_found");
        assertEquals("exited", err.at("/details/state").asText());
        assertEquals(129, err.at("/details/exit_status").asInt());
        assertTrue(err.at("/details/exited_at_ms").asLong() > 0);
        assertEquals(t, err.at("/details/terminal_id").asText());

        String stubborn = create(sock, work, "sh", "-c", "trap '' HUP; echo trapped; while :; do sleep 1; done");
        waitFor(sock, stubborn, "trapped");
        long t0 = System.nanoTime();
        JsonNode killed = ok(sock, "close", id(stubborn).put("grace_ms", 300));
        assertEquals(137, killed.get("exit_status").asInt(), "SIGKILL after the grace: " + killed);
        assertTrue(System.nanoTime() - t0 < 2_300_000_000L, "answered within grace + 2 s");
    }

    @Test
    void waitChangeParksUntilARevisionPassesAndReportsAnExit() throws Exception {
        String t = shell();
        long rev = ok(sock, "snapshot", id(t)).get("revision").asLong();
        long t0 = System.nanoTime();
        JsonNode idle = ok(sock, "wait_change", id(t).put("after_revision", rev).put("timeout_s", 1));
        assertFalse(idle.get("matched").asBoolean());
        assertEquals(rev, idle.get("revision").asLong());
        assertFalse(idle.get("exited").asBoolean());
        assertTrue(System.nanoTime() - t0 >= 900_000_000L, "it waited out the timeout");
        ok(sock, "type_literal", id(t).put("text", "x"));
        JsonNode moved = ok(sock, "wait_change", id(t).put("after_revision", rev).put("timeout_s", 10));
        assertTrue(moved.get("matched").asBoolean());
        long now = moved.get("revision").asLong();
        // A revision far ahead: only the exit (2 s after the submit, long after the wait parked) ends it.
        ok(sock, "submit_text", id(t).put("text", "\u0015sleep 2; exit 7"));
        JsonNode exit = ok(sock, "wait_change", id(t).put("after_revision", now + 1_000_000).put("timeout_s", 20));
        assertFalse(exit.get("matched").asBoolean());
        assertTrue(exit.get("exited").asBoolean(), exit.toString());
        assertEquals(7, exit.get("exit_status").asInt());
    }

    @Test
    void waitOutputTimesOutWithoutAMatchAndHonoursCase() throws Exception {
        String t = create(sock, work, "sh", "-c", "echo Ready; exec sleep 60");
        waitFor(sock, t, "Ready");
        JsonNode none = ok(sock, "wait_output", id(t).put("text", "ready").put("timeout_s", 1));
        assertFalse(none.get("matched").asBoolean());
        assertTrue(none.get("match").isNull());
        assertTrue(ok(sock, "wait_output", id(t).put("text", "ready").put("case_sensitive", false)).get("matched").asBoolean());
        long rev = ok(sock, "snapshot", id(t)).get("revision").asLong();
        JsonNode old = ok(sock, "wait_output", id(t).put("text", "Ready").put("after_revision", rev).put("timeout_s", 1));
        assertFalse(old.get("matched").asBoolean(), "only states newer than after_revision count");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void createRefusesWhatItCannotServeAndSaysWhy() throws Exception {
        assertEquals("cwd", error(sock, "create", params().put("cwd", work.resolve("missing").toString()), "invalid_request")
                .at("/details/field").asText());
        error(sock, "create", params().put("cwd", "relative/dir"), "invalid_request");
        Path file = Files.writeString(work.resolve("a-file"), "x");
        assertEquals("not_a_directory", error(sock, "create", params().put("cwd", file.toString()), "invalid_request")
                .at("/details/reason").asText());
        ObjectNode missing = params().put("cwd", work.toString());
        missing.putArray("command").add("no-such-program-artuditu");
        JsonNode spawn = error(sock, "create", missing, "spawn_failed");
        assertEquals("no-such-program-artuditu", spawn.at("/details/command").asText());
        ObjectNode reserved = params();
        reserved.putObject("env").put("ARTUDITU_PANE_ID", "9");
        error(sock, "create", reserved, "invalid_request");
        ObjectNode term = params();
        term.putObject("env").put("TERM", "dumb");
        error(sock, "create", term, "invalid_request");
        ObjectNode many = params();
        ObjectNode env = many.putObject("env");
        for (int i = 0; i < 129; i++) {
            env.put("V" + i, "x");
        }
        assertEquals(128, error(sock, "create", many, "invalid_request").at("/details/limit").asInt());
        ObjectNode argv = params();
        for (int i = 0; i < 257; i++) {
            argv.withArray("command").add("a");
        }
        error(sock, "create", argv, "invalid_request");
        error(sock, "create", params().put("workspace_id", "workspace_nope"), "not_found");
        error(sock, "create", params().put("cols", 1001), "invalid_request");
        error(sock, "create", params().put("rows", 0), "invalid_request");
    }

    @Test
    void createHonoursIfRevisionAndCloseDoesNotTakeIt() throws Exception {
        long rev = Wire.call(sock, "uhp.capabilities", "{}").at("/result/event_sequence").asLong();
        JsonNode stale = Wire.exchange(sock, "{\"id\":\"c\",\"method\":\"terminal.backend.create\",\"if_revision\":"
                + (rev + 1000) + ",\"params\":{\"command\":[\"true\"]}}\n", "terminal.backend.create");
        assertEquals("revision_conflict", Wire.code(stale));
        JsonNode onClose = Wire.exchange(sock, "{\"id\":\"c\",\"method\":\"terminal.backend.close\",\"if_revision\":1,"
                + "\"params\":{\"terminal_id\":\"term-000000-1\"}}\n", "terminal.backend.close");
        assertEquals("invalid_request", Wire.code(onClose), "close does not run under the state lock: " + onClose);
    }
}

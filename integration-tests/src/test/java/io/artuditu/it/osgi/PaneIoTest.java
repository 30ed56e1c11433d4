package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.model.PaneInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * pane.send_input, pane.read, pane.status and pane.processes on real PTYs over the socket,
 * and the rule that a refused request changes nothing.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PaneIoTest extends PaneTest {
    /** cat -v without echo, after the program's own mode switch: the screen shows the bytes keys became. */
    private PaneInfo catV(String modes) throws Exception {
        PaneInfo p = open("sh", "-c", "stty -echo; printf '" + modes + "ready\\n'; exec cat -v");
        awaitScreen(p, s -> s.contains("ready"), "ready");
        return p;
    }

    private JsonNode send(PaneInfo p, String body) {
        return ok("pane.send_input", "{\"pane\":\"" + p.id() + "\"," + body + "}");
    }

    @Test
    public void keysFollowTheApplicationCursorMode() throws Exception {
        PaneInfo app = catV("\\033[?1h");
        JsonNode r = send(app, "\"text\":\"abc\",\"keys\":[\"up\",\"left\",\"ctrl+a\",\"enter\"]");
        assertEquals(r.toString(), "pane_input", r.get("type").asText());
        assertEquals("abc + ESC O A + ESC O D + ^A + CR", 3 + 3 + 3 + 1 + 1, r.get("bytes").asInt());
        awaitScreen(app, s -> s.contains("abc^[OA^[OD^A"), "application-mode cursor keys");

        PaneInfo normal = catV("");
        send(normal, "\"keys\":[\"up\",\"ctrl+up\",\"enter\"]");
        awaitScreen(normal, s -> s.contains("^[[A^[[1;5A"), "normal-mode cursor keys");
    }

    @Test
    public void aBadKeyIsNamedAndNothingIsSent() throws Exception {
        PaneInfo p = catV("");
        JsonNode e = error("invalid_request", "pane.send_input",
                "{\"pane\":\"" + p.id() + "\",\"text\":\"zzz\",\"keys\":[\"enter\",\"f13\"]}");
        assertEquals(e.toString(), "f13", e.at("/details/key").asText());
        assertEquals(1, e.at("/details/index").asInt());
        assertTrue(e.toString(), e.get("message").asText().contains("f13"));
        error("invalid_request", "pane.send_input", "{\"pane\":\"" + p.id() + "\"}");
        send(p, "\"text\":\"ok\",\"keys\":[\"enter\"]");
        awaitScreen(p, s -> s.contains("ok"), "ok");
        assertFalse(screen(p), screen(p).contains("zzz"));
    }

    @Test
    public void readRangesOfScreenAndHistory() throws Exception {
        PaneInfo p = open("sh", "-c", "seq 1 3000; exec cat");
        awaitScreen(p, s -> s.contains("3000"), "the end of seq");
        JsonNode all = ok("pane.read", "{\"pane\":\"" + p.id() + "\",\"source\":\"history\",\"start\":0,\"lines\":5}");
        int h = all.get("history_rows").asInt();
        assertTrue(all.toString(), h > 2900);
        assertEquals("1\n2\n3\n4\n5", all.get("text").asText());
        assertEquals(0, all.get("first_line").asInt());
        assertEquals(5, all.get("line_count").asInt());
        assertFalse(all.get("truncated").asBoolean());
        assertEquals("history", all.get("source").asText());

        JsonNode newest = ok("pane.read", "{\"pane\":\"" + p.id() + "\",\"source\":\"history\",\"lines\":3}");
        assertEquals((h - 2) + "\n" + (h - 1) + "\n" + h, newest.get("text").asText());
        assertEquals(h - 3, newest.get("first_line").asInt());

        JsonNode joined = ok("pane.read", "{\"pane\":\"" + p.id() + "\",\"source\":\"all\",\"start\":" + (h - 1) + ",\"lines\":2}");
        assertEquals("the scrollback runs into the screen", h + "\n" + (h + 1), joined.get("text").asText());

        JsonNode screen = ok("pane.read", "{\"pane\":\"" + p.id() + "\"}");
        assertEquals(24, screen.get("line_count").asInt());
        assertEquals(0, screen.get("first_line").asInt());
        assertTrue(screen.get("text").asText().startsWith((h + 1) + "\n"));
        assertTrue(screen.get("text").asText().contains("\n3000\n"));

        JsonNode e = error("invalid_request", "pane.read", "{\"pane\":\"" + p.id() + "\",\"start\":25}");
        assertEquals(24, e.at("/details/available").asInt());
        error("invalid_request", "pane.read", "{\"pane\":\"" + p.id() + "\",\"lines\":10001}");
        error("invalid_request", "pane.read", "{\"pane\":\"" + p.id() + "\",\"source\":\"everything\"}");
    }

    @Test
    public void readCapsAtTenThousandLinesAndFourMebibytes() throws Exception {
        PaneInfo many = open("sh", "-c", "seq 1 12000; exec cat");
        awaitScreen(many, s -> s.contains("12000"), "the end of seq");
        JsonNode r = ok("pane.read", "{\"pane\":\"" + many.id() + "\",\"source\":\"history\"}");
        int h = r.get("history_rows").asInt();
        assertTrue(r.get("truncated").asBoolean());
        assertEquals(10_000, r.get("line_count").asInt());
        assertEquals(h - 10_000, r.get("first_line").asInt());
        assertTrue(r.get("text").asText().endsWith("\n" + h));

        // 999-character lines on a 1000-column pane: ~6 MB of scrollback, more than one reply takes.
        PaneInfo wide = open(List.of("sh", "-c", "yes \"$(printf '%0999d' 0)\" | head -n 6000; exec cat"), 1000, 24);
        Uhp.await("the wide pane's output has scrolled", () -> ok("pane.read", "{\"pane\":\"" + wide.id()
                + "\",\"source\":\"history\",\"lines\":1}").get("history_rows").asInt() >= 5970);
        JsonNode big = ok("pane.read", "{\"pane\":\"" + wide.id() + "\",\"source\":\"history\"}");
        assertTrue(big.get("truncated").asBoolean());
        int bytes = big.get("text").asText().getBytes(StandardCharsets.UTF_8).length;
        assertTrue("within 4 MiB: " + bytes, bytes <= 4 << 20);
        assertTrue("close to it: " + bytes, bytes > (4 << 20) - 1000);
        assertEquals(bytes, big.get("line_count").asInt() * 1000 - 1);
    }

    @Test
    public void styledReadCarriesRenditions() throws Exception {
        PaneInfo p = open("sh", "-c", "printf '\\033[31mred\\033[0m plain\\n'; exec cat");
        awaitScreen(p, s -> s.contains("red plain"), "the text");
        String styled = ok("pane.read", "{\"pane\":\"" + p.id() + "\",\"styled\":true,\"lines\":24}").get("text").asText();
        assertTrue(styled, styled.contains("\u001b[") && styled.contains("31"));
        assertFalse(screen(p).contains("\u001b"));
    }

    @Test
    public void statusReportsTheShellAndHistory() throws Exception {
        PaneInfo p = bash();
        Path dir = Files.createDirectories(userHome.resolve("a dir"));
        ok("pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":" + json("cd '" + dir + "' && seq 1 500") + ",\"wait\":true}");
        JsonNode s = status(p);
        assertEquals(s.toString(), "pane_status", s.get("type").asText());
        assertEquals(p.id(), s.get("pane").asText());
        assertEquals(p.terminalId(), s.get("terminal_id").asText());
        assertEquals(p.workspaceId(), s.get("workspace_id").asText());
        assertEquals(p.pid(), s.get("pid").asLong());
        assertTrue(s.get("alive").asBoolean());
        assertEquals(80, s.get("cols").asInt());
        assertEquals(24, s.get("rows").asInt());
        assertEquals("bash", s.get("command").asText());
        assertEquals("bash", s.get("shell_integration").asText());
        assertEquals("prompt", s.get("shell_state").asText());
        assertEquals("OSC 7 from the hook", dir.toString(), s.get("cwd").asText());
        assertFalse(s.get("alternate_screen").asBoolean());
        assertFalse(s.get("wants_mouse").asBoolean());
        assertEquals(0, s.get("scroll_offset").asInt());
        assertTrue(s.toString(), s.get("history_rows").asInt() > 450);
        assertEquals(10L << 20, s.get("history_budget_bytes").asLong());
        assertTrue(s.get("history_bytes").asLong() > 0 && s.get("history_bytes").asLong() <= 10L << 20);
        assertTrue(s.get("history_exact").asBoolean());
        assertTrue(s.get("cursor").get("visible").asBoolean());

        PaneInfo cat = open("cat");
        JsonNode c = status(cat);
        assertTrue(c.toString(), c.get("shell_integration").isNull() && c.get("shell_state").isNull());
        assertEquals("cat", c.get("command").asText());
        assertEquals("the start directory without OSC 7", userHome.toString(), c.get("cwd").asText());
    }

    @Test
    public void theHistoryBudgetComesFromConfigForNewPanes() throws Exception {
        PaneInfo before = open("cat");
        ok("config.patch", "{\"patch\":{\"pane\":{\"history_budget_bytes\":65536}}}");
        try {
            assertEquals(65536, ok("config.get", "{}").at("/config/pane/history_budget_bytes").asInt());
            PaneInfo after = open("sh", "-c", "seq 1 5000; exec cat");
            assertEquals(65536, status(after).get("history_budget_bytes").asLong());
            assertEquals("a screen keeps its budget", 10L << 20, status(before).get("history_budget_bytes").asLong());
            awaitScreen(after, s -> s.contains("5000"), "the end of seq");
            JsonNode s = status(after);
            assertTrue(s.toString(), s.get("history_bytes").asLong() <= 65536);
            assertTrue(s.toString(), s.get("history_rows").asInt() < 4000);
        } finally {
            ok("config.patch", "{\"patch\":{\"pane\":null}}");
        }
    }

    @Test
    public void processesShowNamesNeverArguments() throws Exception {
        PaneInfo p = bash();
        ok("pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":\"sleep 300.4242\"}");
        Uhp.await("sleep runs under the shell", () -> {
            JsonNode r = ok("pane.processes", "{\"pane\":\"" + p.id() + "\"}");
            for (JsonNode e : r.get("processes")) {
                if (e.get("name").asText().equals("sleep") && e.get("ppid").asLong() == p.pid()) {
                    return true;
                }
            }
            return false;
        });
        JsonNode r = ok("pane.processes", "{\"pane\":\"" + p.id() + "\"}");
        assertEquals("ok", r.get("scan").asText());
        assertEquals(p.pid(), r.at("/root/pid").asLong());
        assertEquals("bash", r.at("/root/name").asText());
        assertTrue(r.get("sampled_at_ms").asLong() > 0);
        assertFalse("no argument anywhere: " + r, r.toString().contains("4242") || r.toString().contains("300."));
        ok("pane.send_input", "{\"pane\":\"" + p.id() + "\",\"keys\":[\"ctrl+c\"]}");
        awaitShellState(p, "prompt");
    }

    /**
     * The pane's revision once its shell has stopped writing (no change for 300 ms, at most
     * 10 s): a prompt's last marks can land just after the prompt is seen, and they are not
     * what a refused request must leave untouched.
     */
    private long quietRevision(PaneInfo p) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        long last = status(p).get("revision").asLong();
        while (System.nanoTime() < end) {
            sleep(300);
            long now = status(p).get("revision").asLong();
            if (now == last) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("the shell never went quiet; revision " + last);
    }

    @Test
    public void refusedRequestsChangeNothing() throws Exception {
        PaneInfo p = bash();
        String id = p.id();
        long revision = quietRevision(p);
        String text = screen(p);

        JsonNode e = error("not_found", "pane.send_input", "{\"pane\":\"999999\",\"text\":\"x\"}");
        assertEquals(e.toString(), "unknown", e.at("/details/state").asText());
        assertEquals("999999", e.at("/details/pane").asText());
        error("not_found", "pane.status", "{\"pane\":\"999999\"}");
        error("invalid_request", "pane.send_input", "{\"pane\":\"" + id + "\",\"text\":" + json("x".repeat(65_537)) + "}");
        error("invalid_request", "pane.send_input", "{\"pane\":\"" + id + "\",\"text\":" + json("é".repeat(32_769)) + "}");
        error("invalid_request", "pane.send_input", "{\"pane\":\"" + id + "\",\"text\":\"x\",\"keys\":[\"hyper+x\"]}");
        error("invalid_request", "pane.send_input", "{\"pane\":\"" + id + "\",\"keys\":" + Uhp.M.valueToTree(
                java.util.Collections.nCopies(65, "a")) + "}");
        error("invalid_request", "pane.run", "{\"pane\":\"" + id + "\",\"command\":\"true\",\"timeout_s\":5}");
        error("invalid_request", "pane.run", "{\"pane\":\"" + id + "\",\"command\":" + json("echo a\u0000b") + ",\"wait\":true}");
        error("invalid_request", "pane.run", "{\"pane\":\"" + id + "\",\"command\":" + json("x".repeat(65_537)) + "}");
        error("invalid_request", "pane.run", "{\"pane\":\"" + id + "\",\"command\":\"true\",\"wait\":true,\"timeout_s\":0}");
        error("invalid_request", "pane.run", "{\"pane\":\"" + id + "\",\"command\":\"true\",\"wait\":true,\"timeout_s\":3601}");
        error("invalid_request", "pane.run", "{\"pane\":\"" + id + "\",\"command\":\"   \",\"wait\":true}");
        error("invalid_request", "pane.read", "{\"pane\":\"" + id + "\",\"start\":1000}");
        error("invalid_request", "pane.status", "{\"pane\":\"07\"}");

        sleep(100);
        assertEquals("no byte reached the pane", revision, status(p).get("revision").asLong());
        assertEquals(text, screen(p));
        assertEquals("pong", ok("ping", "{}").get("type").asText());
        assertEquals("", ok("pane.run", "{\"pane\":\"" + id + "\",\"command\":\"true\",\"wait\":true}").get("output").asText());
    }

    @Test
    public void anExitedPaneLeavesEvidence() throws Exception {
        PaneInfo p = open("sh", "-c", "exit 7");
        Uhp.await("the pane leaves the model", () -> workspaces.pane(p.id()).isEmpty());
        JsonNode e = error("not_found", "pane.status", "{\"pane\":\"" + p.id() + "\"}");
        assertEquals(e.toString(), "exited", e.at("/details/state").asText());
        assertEquals(7, e.at("/details/exit_status").asInt());
        assertEquals(p.terminalId(), e.at("/details/terminal_id").asText());
        assertTrue(e.at("/details/exited_at_ms").asLong() > 0);
    }

    @Test
    public void withoutAPaneTheFocusedOneIsMeant() throws Exception {
        open("cat");
        String focused = workspaces.focusedPane().orElseThrow().id();
        assertEquals(focused, ok("pane.status", "{}").get("pane").asText());
    }
}

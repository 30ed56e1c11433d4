package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.model.PaneInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * pane.run with wait:true against the real bash and zsh, through the shell-integration marks:
 * exit statuses, output, timeouts, the pane that cannot report, and the one-waiting-run rule.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PaneRunWaitTest extends PaneTest {
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @After
    public void stopThreads() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
    }

    private JsonNode runWait(PaneInfo p, String command, String extra) {
        return ok("pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":" + json(command) + ",\"wait\":true" + extra + "}");
    }

    @Test
    public void exitStatusesAndOutput() throws Exception {
        PaneInfo p = bash();
        JsonNode r = runWait(p, "true", "");
        assertEquals(r.toString(), "pane_run", r.get("type").asText());
        assertTrue(r.toString(), r.get("submitted").asBoolean() && r.get("matched").asBoolean());
        assertEquals("finished", r.get("evidence").asText());
        assertEquals(0, r.get("exit_status").asInt());
        assertEquals("", r.get("output").asText());
        assertEquals(p.terminalId(), r.get("terminal_id").asText());

        r = runWait(p, "sh -c 'echo out; exit 3'", "");
        assertEquals(r.toString(), 3, r.get("exit_status").asInt());
        assertEquals("out", r.get("output").asText());
        assertFalse(r.get("output_truncated").asBoolean());

        r = runWait(p, "sh -c 'exit 3'", "");
        assertEquals(3, r.get("exit_status").asInt());
        assertEquals("", r.get("output").asText());

        r = runWait(p, "printf 'a\\nb\\n'", "");
        assertEquals(r.toString(), "a\nb", r.get("output").asText());
        assertEquals(0, r.get("exit_status").asInt());

        r = runWait(p, "printf abc", "");
        assertEquals("output without a final newline", "abc", r.get("output").asText());
        assertEquals("shell_state after a run", "prompt", status(p).get("shell_state").asText());
    }

    @Test
    public void longOutputKeepsItsEnd() throws Exception {
        PaneInfo p = bash();
        JsonNode r = runWait(p, "seq 1 2000", ",\"max_output_bytes\":100");
        assertTrue(r.toString(), r.get("output_truncated").asBoolean());
        String out = r.get("output").asText();
        assertTrue(out, out.endsWith("1999\n2000"));
        assertTrue(out, out.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 100);

        r = runWait(p, "seq 1 2000", "");
        assertFalse(r.toString(), r.get("output_truncated").asBoolean());
        assertTrue(r.get("output").asText().startsWith("1\n2\n3\n"));
        assertEquals(2000, r.get("output").asText().split("\n").length);
    }

    @Test
    public void aMultiLineCommandRunsAsOnePaste() throws Exception {
        PaneInfo p = bash();
        JsonNode r = runWait(p, "echo one\necho two; false", "");
        assertEquals(r.toString(), "one\ntwo", r.get("output").asText());
        assertEquals(1, r.get("exit_status").asInt());
    }

    @Test
    public void aTimeoutIsEvidenceAndTheCommandIsNotSentAgain() throws Exception {
        PaneInfo p = bash();
        long t0 = System.nanoTime();
        JsonNode r = runWait(p, "sleep 5", ",\"timeout_s\":1");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertFalse(r.toString(), r.get("matched").asBoolean());
        assertEquals("timeout", r.get("evidence").asText());
        assertTrue(r.get("submitted").asBoolean());
        assertFalse("no status on a timeout", r.has("exit_status"));
        assertTrue("waited about a second: " + ms, ms >= 900 && ms < 4000);
        assertEquals("running", status(p).get("shell_state").asText());

        JsonNode e = error("invalid_request", "pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":\"true\",\"wait\":true}");
        assertEquals(e.toString(), "shell_busy", e.at("/details/reason").asText());

        ok("pane.send_input", "{\"pane\":\"" + p.id() + "\",\"keys\":[\"ctrl+c\"]}");
        awaitShellState(p, "prompt");
        assertEquals(1, screen(p).split("sleep 5", -1).length - 1);
        JsonNode after = runWait(p, "echo back", "");
        assertEquals("back", after.get("output").asText());
    }

    @Test
    public void aPaneWithoutMarksSaysUnsupported() throws Exception {
        PaneInfo cat = open("cat");
        assertEquals(null, cat.shell());
        JsonNode e = error("invalid_request", "pane.run", "{\"pane\":\"" + cat.id() + "\",\"command\":\"true\",\"wait\":true}");
        assertEquals(e.toString(), "unsupported", e.at("/details/reason").asText());
        assertTrue(e.toString(), e.at("/details/why").asText().startsWith("no shell integration in this pane"));

        // A bash whose startup files take the hooks away: no mark within the startup window.
        java.nio.file.Files.writeString(userHome.resolve(".bashrc"), "PS1='$ '\nexec sh\n");
        PaneInfo bare = open("bash");
        assertEquals("bash", bare.shell());
        long t0 = System.nanoTime();
        e = error("invalid_request", "pane.run", "{\"pane\":\"" + bare.id() + "\",\"command\":\"true\",\"wait\":true}");
        assertEquals(e.toString(), "unsupported", e.at("/details/reason").asText());
        assertTrue("answered once the startup window closed", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 8000);
        // Without wait the command is still typed.
        ok("pane.run", "{\"pane\":\"" + cat.id() + "\",\"command\":\"hello\"}");
        awaitScreen(cat, s -> s.contains("hello\nhello"), "cat's echo");
    }

    @Test
    public void oneWaitingRunPerPane() throws Exception {
        PaneInfo p = bash();
        Future<JsonNode> first = threads.submit(() -> runWait(p, "sleep 1; echo slept", ""));
        awaitShellState(p, "running");
        JsonNode e = error("invalid_request", "pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":\"true\",\"wait\":true}");
        assertEquals(e.toString(), "busy", e.at("/details/reason").asText());
        e = error("invalid_request", "pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":\"true\"}");
        assertEquals("a run without wait is refused too", "busy", e.at("/details/reason").asText());
        JsonNode r = first.get(20, TimeUnit.SECONDS);
        assertEquals(r.toString(), "slept", r.get("output").asText());
        assertEquals("the pane is free again", "", runWait(p, "true", "").get("output").asText());
    }

    @Test
    public void runWithoutWait() throws Exception {
        PaneInfo p = bash();
        JsonNode r = ok("pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":\"echo typed-$((6*7))\"}");
        assertEquals(r.toString(), List.of("type", "pane", "terminal_id", "submitted"), fields(r));
        awaitScreen(p, s -> s.contains("typed-42"), "the command's output");
        for (String f : List.of("\"timeout_s\":5", "\"max_output_bytes\":10")) {
            JsonNode e = error("invalid_request", "pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":\"true\"," + f + "}");
            assertEquals(e.toString(), "requires_wait", e.at("/details/reason").asText());
        }
    }

    @Test
    public void zshToo() throws Exception {
        PaneInfo p = open("zsh");
        assertEquals("zsh", p.shell());
        awaitShellState(p, "prompt");
        JsonNode r = runWait(p, "sh -c 'echo out; exit 3'", "");
        assertEquals(r.toString(), 3, r.get("exit_status").asInt());
        assertEquals("out", r.get("output").asText());
        assertEquals("a\nb", runWait(p, "printf 'a\\nb\\n'", "").get("output").asText());
    }

    /** Not a limit: prints the round trip of pane.run wait:true for `true`, for the record. */
    @Test
    public void roundTripOfTrue() throws Exception {
        PaneInfo p = bash();
        runWait(p, "true", ""); // warm up
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long t0 = System.nanoTime();
            JsonNode r = runWait(p, "true", "");
            micros.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t0));
            assertEquals(0, r.get("exit_status").asInt());
        }
        Collections.sort(micros);
        System.out.printf("PaneRunWaitTest: pane.run wait:true of `true`, 50 runs: p50 %.1f ms, p90 %.1f ms, max %.1f ms%n",
                micros.get(25) / 1000.0, micros.get(45) / 1000.0, micros.get(49) / 1000.0);
    }

    private static List<String> fields(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}

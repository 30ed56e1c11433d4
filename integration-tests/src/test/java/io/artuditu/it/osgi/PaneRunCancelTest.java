package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.model.PaneInfo;
import java.util.Arrays;
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
import org.osgi.framework.Bundle;

/**
 * A run waiting while the terminal bundle stops answers evidence "cancelled" (its command was
 * typed) rather than hanging for its whole timeout; the shell survives the stop and takes
 * the next run once the bundle is back.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PaneRunCancelTest extends PaneTest {
    private final ExecutorService threads = Executors.newSingleThreadExecutor();

    @After
    public void stopThreads() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    public void aWaitingRunIsCancelledWhenTheFamilyStops() throws Exception {
        PaneInfo p = bash();
        Future<JsonNode> waiting = threads.submit(() -> call("pane.run",
                "{\"pane\":\"" + p.id() + "\",\"command\":\"sleep 60\",\"wait\":true,\"timeout_s\":120}"));
        awaitShellState(p, "running");
        Bundle terminal = Arrays.stream(context.getBundles())
                .filter(b -> b.getSymbolicName().equals("io.artuditu.terminal")).findFirst().orElseThrow();
        long t0 = System.nanoTime();
        terminal.stop();
        JsonNode r = waiting.get(30, TimeUnit.SECONDS);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(r.toString(), r.has("result"));
        assertEquals(r.toString(), "cancelled", r.at("/result/evidence").asText());
        assertFalse(r.at("/result/matched").asBoolean());
        assertTrue("well before the run's own timeout: " + ms, ms < 20_000);

        terminal.start();
        Uhp.await("pane.status is back", () -> call("pane.status", "{\"pane\":\"" + p.id() + "\"}").has("result"));
        assertEquals("the shell survived", p.pid(), status(p).get("pid").asLong());
        ok("pane.send_input", "{\"pane\":\"" + p.id() + "\",\"keys\":[\"ctrl+c\"]}");
        awaitShellState(p, "prompt");
        JsonNode after = ok("pane.run", "{\"pane\":\"" + p.id() + "\",\"command\":\"echo again\",\"wait\":true}");
        assertEquals("again", after.get("output").asText());
    }
}

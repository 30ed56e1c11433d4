package io.artuditu.workspace.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.pty.internal.Host;
import io.artuditu.workspace.PaneInfo;
import io.artuditu.workspace.PaneRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pane lifecycle the terminal families rely on, with real PTYs: a pane is listed and
 * focused while its process runs, leaves the model with pane.closed and its exit status
 * when the process exits, and a new model over the same host adopts the running panes
 * under their old ids (what happens when the workspace bundle is updated).
 */
class ModelTest {
    @TempDir
    static Path home;
    static Host host;

    @BeforeAll
    static void start() throws Exception {
        host = new Host(home.resolve("native"));
    }

    @AfterAll
    static void stop() {
        host.close();
    }

    record Event(String name, ObjectNode data) {
    }

    @Test
    void aPaneLivesAsLongAsItsProcessAndIsAdoptedByTheNextModel() throws Exception {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        Model model = new Model(host, home, home, () -> null, (e, d) -> events.add(new Event(e, d)));
        PaneInfo quits = model.open(new PaneRequest(null, List.of("sh", "-c", "read x; exit 7"), null, Map.of(), 40, 10, true));
        PaneInfo stays = model.open(new PaneRequest(null, List.of("cat"), null, Map.of(), 40, 10, false));
        assertEquals("1", quits.id());
        assertEquals("2", stays.id());
        assertEquals("1", model.focusedPane().orElseThrow().id(), "focus stays where it was unless asked");
        assertEquals(quits, model.paneOfTerminal(quits.terminalId()).orElseThrow());
        assertEquals("workspace.created", events.take().name());
        Event created = events.take();
        assertEquals("pane.created", created.name());
        assertEquals(quits.terminalId(), created.data().get("terminal_id").asText());
        assertEquals("pane.created", events.take().name());

        host.find(quits.terminalId()).orElseThrow().write("go\n".getBytes());
        Event closed = events.poll(10, TimeUnit.SECONDS);
        assertEquals("pane.closed", closed.name());
        assertEquals("1", closed.data().get("pane").asText());
        assertEquals(7, closed.data().get("exit_status").asInt());
        assertTrue(model.pane("1").isEmpty(), "an exited pane leaves the model");
        assertEquals("2", model.focusedPane().orElseThrow().id(), "the focus moves to a pane that is left");
        model.close();

        Model next = new Model(host, home, home, () -> null, (e, d) -> { });
        next.adopt();
        assertEquals(List.of("2"), next.panes().stream().map(PaneInfo::id).toList());
        assertEquals(stays.terminalId(), next.pane("2").orElseThrow().terminalId());
        PaneInfo third = next.open(new PaneRequest(null, List.of("cat"), null, Map.of(), 40, 10, false));
        assertEquals("3", third.id(), "ids are never reused, also across models");
        assertTrue(next.close("3", 100));
        assertFalse(next.close("99", 100));
        next.close();
    }
}

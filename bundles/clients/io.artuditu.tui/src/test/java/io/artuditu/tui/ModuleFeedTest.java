package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.client.UhpClient;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed asks again for a list its event names, one request queued at a time per list,
 * against a server on a real Unix socket that answers the bar and notification lists and
 * knows no dock list (a server without the modules family).
 */
class ModuleFeedTest {
    @TempDir
    Path dir;
    private ServerSocketChannel listener;
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final List<Runnable> worker = new ArrayList<>();
    private final List<Runnable> ui = new ArrayList<>();
    private final List<Object> got = new ArrayList<>();
    private ModuleFeed feed;

    @BeforeEach
    void serve() throws IOException {
        Path sock = dir.resolve("s.sock");
        listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(sock));
        Thread t = new Thread(() -> {
            while (listener.isOpen()) {
                try (SocketChannel ch = listener.accept()) {
                    answer(ch);
                } catch (IOException e) {
                    return;
                }
            }
        }, "fake-uhp");
        t.setDaemon(true);
        t.start();
        feed = new ModuleFeed(new JsonUhp(UhpClient.of(sock)), worker::add, ui::add, new ModuleFeed.Sink() {
            @Override
            public void bars(List<ModuleUi.Widget> w) {
                got.add(w);
            }

            @Override
            public void docks(List<ModuleUi.Dock> d) {
                got.add(d);
            }

            @Override
            public void notices(List<ModuleUi.Notice> n) {
                got.add(n);
            }
        });
    }

    private void answer(SocketChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4096);
        StringBuilder line = new StringBuilder();
        while (line.indexOf("\n") < 0 && ch.read(b) > 0) {
            b.flip();
            line.append(StandardCharsets.UTF_8.decode(b));
            b.clear();
        }
        JsonNode req = JsonUhp.JSON.readTree(line.toString());
        String method = req.path("method").asText();
        asked.add(method);
        String reply = switch (method) {
            case "ui.bar.list" -> "{\"result\":{\"type\":\"bar_list\",\"widgets\":[{\"key\":\"m/a\",\"owner\":\"m\",\"id\":\"a\","
                    + "\"region\":\"top-right\",\"priority\":0,\"content\":[{\"type\":\"text\",\"text\":\"A\"}]}]}}";
            case "ui.notification.list" -> "{\"result\":{\"type\":\"notifications\",\"notifications\":[]}}";
            default -> "{\"error\":{\"code\":\"unknown_method\",\"message\":\"no such method\"}}";
        };
        ch.write(ByteBuffer.wrap((reply.replace("{\"result\"", "{\"id\":\"" + req.path("id").asText() + "\",\"result\"")
                .replace("{\"error\"", "{\"id\":\"" + req.path("id").asText() + "\",\"error\"") + "\n")
                .getBytes(StandardCharsets.UTF_8)));
    }

    @AfterEach
    void stop() throws IOException {
        listener.close();
    }

    private static void runAll(List<Runnable> q) {
        while (!q.isEmpty()) {
            q.remove(0).run();
        }
    }

    @Test
    void eventsWhileARequestIsQueuedShareItAndALaterOneQueuesAgain() {
        assertTrue(feed.onEvent("ui.bar.changed"));
        assertTrue(feed.onEvent("ui.bar.changed"));
        assertTrue(feed.onEvent("ui.bar.changed"));
        assertEquals(1, worker.size(), "one request for three events");
        worker.remove(0).run();
        assertEquals(List.of("ui.bar.list"), asked);
        runAll(ui);
        assertEquals(1, got.size());
        assertEquals("A", ((List<?>) got.get(0)).stream().map(w -> ((ModuleUi.Widget) w).content().get(0).text())
                .findFirst().orElse(""));

        assertTrue(feed.onEvent("ui.bar.changed"));
        assertEquals(1, worker.size(), "after the first ran, the next event asks again");
        runAll(worker);
        assertEquals(2, asked.size());
    }

    @Test
    void aModuleChangeAsksForAllThreeAndAServerWithoutTheFamilyShowsNothing() {
        assertTrue(feed.onEvent("module.changed"));
        assertEquals(3, worker.size());
        assertTrue(feed.onEvent("ui.notification.changed"));
        assertTrue(feed.onEvent("ui.dock.changed"));
        assertEquals(3, worker.size(), "each list already has its request queued");
        runAll(worker);
        assertEquals(List.of("ui.bar.list", "ui.dock.list", "ui.notification.list"), asked);
        runAll(ui);
        assertEquals(3, got.size());
        assertEquals(List.of(), got.get(1), "unknown_method: no docks");

        assertTrue(feed.onEvent("module.action.finished"), "the modules' own event, which changes nothing shown");
        assertFalse(feed.onEvent("pane.created"));
        assertEquals(0, worker.size());
    }
}

package io.artuditu.agents.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.Subscription;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Hears {@code pane.focused} and {@code pane.closed} on the event bus and hands each to the
 * agents loop: a focus acknowledges an agent that asks for attention, a close ends the
 * pane's record (its waits, prompt and lease) at once rather than at its next screen change.
 * One daemon thread, {@code agents-events}, blocked in the subscription's {@code take};
 * a subscription cut for falling behind is taken again (the loop's state does not depend on
 * any one of these events: a missed focus leaves a flag, a missed close is found at the
 * pane's exit).
 */
final class TopologyWatch implements AutoCloseable {
    private static final ObjectMapper M = new ObjectMapper();
    private static final Set<String> EVENTS = Set.of("pane.focused", "pane.closed");

    private final EventBus bus;
    private final BiConsumer<String, String> onEvent;
    private final Thread thread;
    private volatile Subscription current;
    private volatile boolean closed;

    /** {@code onEvent} gets (event name, pane id) on this class's thread; it must only hand off. */
    TopologyWatch(EventBus bus, BiConsumer<String, String> onEvent) {
        this.bus = bus;
        this.onEvent = onEvent;
        this.thread = new Thread(this::run, "agents-events");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (!closed) {
            Subscription s = bus.subscribe(OptionalLong.empty(), EVENTS);
            current = s;
            if (closed) {
                s.close();
                return;
            }
            try {
                for (byte[] line = s.take(); line != null; line = s.take()) {
                    JsonNode e = M.readTree(line);
                    String pane = e.path("data").path("pane").asText(null);
                    if (pane != null && EVENTS.contains(e.path("event").asText())) {
                        onEvent.accept(e.path("event").asText(), pane);
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                System.getLogger(TopologyWatch.class.getName()).log(System.Logger.Level.WARNING,
                        "agents: an event could not be read", e);
            } finally {
                s.close();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        Subscription s = current;
        if (s != null) {
            s.close();
        }
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

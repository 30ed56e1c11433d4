package io.artuditu.events.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventFrame;
import io.artuditu.uhp.api.events.EventWaiter;
import io.artuditu.uhp.api.events.Subscription;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/** The events family: {@code events.subscribe} (a stream) and {@code events.wait} (one event). */
@Component(service = UhpFamily.class)
public final class EventsFamily implements UhpFamily {
    static final String LOSS_BEHAVIOR = "resync_required_then_close";
    static final int DEFAULT_TIMEOUT_S = 30;

    private final EventBus bus;
    private final FamilyContract contract;
    /** Closes cut subscribers that do not read; one task per cut, each lives Subscription.RESYNC_GRACE_MS. */
    private final ScheduledThreadPoolExecutor closer = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "events-cut");
        t.setDaemon(true);
        return t;
    });

    @Activate
    public EventsFamily(@Reference EventBus bus) {
        this.bus = bus;
        this.closer.setRemoveOnCancelPolicy(true);
        this.contract = FamilyContract.load(EventsFamily.class, "protocol/uhp/v1/events.json")
                .route("events.subscribe", this::subscribe)
                .route("events.wait", this::await)
                .bind();
    }

    @Deactivate
    void deactivate() {
        closer.shutdownNow();
    }

    @Override
    public String family() {
        return "events";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    private static OptionalLong after(Call call) {
        JsonNode a = call.params().get("after_sequence");
        return a == null ? OptionalLong.empty() : OptionalLong.of(a.longValue());
    }

    ObjectNode subscribe(Call call) {
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode n : call.params().path("events")) {
            names.add(n.textValue());
        }
        Subscription sub = bus.subscribe(after(call), names);
        call.connection().onClose(sub::close);
        call.streamAfterReply(sink -> sub.pump(sink, closer));
        return call.newObject().put("type", "events_subscribed").put("loss_behavior", LOSS_BEHAVIOR)
                .put("sequence", sub.sequence()).put("queue_capacity", sub.capacity());
    }

    ObjectNode await(Call call) {
        String event = call.params().get("event").textValue();
        if (!EventBus.validName(event)) {
            throw new UhpException(io.artuditu.uhp.api.ErrorCode.INVALID_REQUEST,
                    "event must be 2 to 4 dot-separated snake_case segments", java.util.Map.of("field", "event"));
        }
        JsonNode where = call.params().get("where");
        long timeoutMs = call.params().path("timeout_s").asLong(DEFAULT_TIMEOUT_S) * 1000L;
        try (EventWaiter w = bus.await(event, where == null ? null : (ObjectNode) where, after(call))) {
            call.connection().onClose(w::close);
            Optional<EventFrame> got;
            try {
                got = w.await(timeoutMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                got = Optional.empty();
            }
            ObjectNode r = call.newObject().put("type", "event_wait").put("matched", got.isPresent())
                    .put("sequence", w.fence());
            got.ifPresent(f -> r.putObject("event").put("event", f.event()).put("sequence", f.sequence())
                    .set("data", f.data()));
            return r;
        }
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.Subscription;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledExecutorService;

/**
 * terminal.backend.events.subscribe: events.subscribe's framing and loss behaviour on the
 * same bus, filtered to the terminal.* events ({@link TerminalEvents#NAMES}).
 */
final class EventsSubscribe {
    static final String LOSS_BEHAVIOR = "resync_required_then_close";

    private final Terminals terminals;
    private final ScheduledExecutorService closer;

    EventsSubscribe(Terminals terminals, ScheduledExecutorService closer) {
        this.terminals = terminals;
        this.closer = closer;
    }

    ObjectNode subscribe(Call call) {
        EventBus bus = terminals.bus();
        if (bus == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the event bus is not running; retry when it is back");
        }
        JsonNode after = call.params().get("after_sequence");
        Subscription sub = bus.subscribe(after == null ? OptionalLong.empty() : OptionalLong.of(after.longValue()),
                TerminalEvents.NAMES);
        call.connection().onClose(sub::close);
        call.streamAfterReply(sink -> sub.pump(sink, closer));
        ObjectNode r = call.newObject().put("type", "terminal_events_subscribed").put("loss_behavior", LOSS_BEHAVIOR)
                .put("sequence", sub.sequence()).put("queue_capacity", sub.capacity());
        TerminalEvents.NAMES.forEach(r.putArray("events")::add);
        return r;
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The methods that act on one terminal without a stream: type_literal, submit_text,
 * send_key (through {@link InputWriter}), set_title and notify. None of them waits.
 */
final class InputMethods {
    static final int MAX_TITLE_BYTES = 256;
    static final int MAX_BODY_BYTES = 1024;

    private final Terminals terminals;
    private final InputWriter writer;

    InputMethods(Terminals terminals, InputWriter writer) {
        this.terminals = terminals;
        this.writer = writer;
    }

    ObjectNode typeLiteral(Call call) {
        Screen s = terminals.live(call);
        return written(call, "terminal_typed", s, writer.typeLiteral(s, call.params().get("text").textValue()));
    }

    ObjectNode submitText(Call call) {
        Screen s = terminals.live(call);
        InputWriter.Written w = writer.submit(s, call.params().get("text").textValue());
        return written(call, "terminal_submitted", s, w).put("bracketed_paste", w.bracketed());
    }

    ObjectNode sendKey(Call call) {
        Screen s = terminals.live(call);
        String key = call.params().get("key").textValue();
        int repeat = call.params().path("repeat").asInt(1);
        InputWriter.Written w = writer.sendKey(s, key, repeat);
        return written(call, "terminal_keys_sent", s, w).put("key", key).put("repeat", repeat);
    }

    private static ObjectNode written(Call call, String type, Screen s, InputWriter.Written w) {
        return call.newObject().put("type", type).put("terminal_id", s.terminalId()).put("bytes", w.bytes())
                .put("pending_bytes", w.pendingBytes()).put("revision", w.revision());
    }

    ObjectNode setTitle(Call call) {
        Screen s = terminals.live(call);
        JsonNode title = call.params().get("title");
        boolean clear = call.params().path("clear").asBoolean(false);
        if (clear == (title != null)) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "give exactly one of title (a string, or null to clear) and clear:true",
                    Map.of("field", "title"));
        }
        String override = clear || title.isNull() ? null : oneLine(title.textValue(), "title", MAX_TITLE_BYTES);
        s.titleOverride(override);
        ObjectNode r = call.newObject().put("type", "terminal_title").put("terminal_id", s.terminalId());
        s.read(t -> r.put("title", s.title()).put("title_override", s.titleOverride() != null)
                .put("revision", s.revision()));
        return r;
    }

    ObjectNode notification(Call call) {
        Screen s = terminals.live(call);
        JsonNode titleParam = call.params().get("title");
        String title = titleParam == null ? "" : oneLine(titleParam.textValue(), "title", MAX_TITLE_BYTES);
        String body = call.params().get("body").textValue();
        int bodyBytes = body.getBytes(StandardCharsets.UTF_8).length;
        if (body.isEmpty() || bodyBytes > MAX_BODY_BYTES) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "body must be 1.." + MAX_BODY_BYTES + " bytes of UTF-8",
                    Map.of("field", "body", "bytes", bodyBytes, "limit", MAX_BODY_BYTES));
        }
        EventBus bus = terminals.bus();
        if (bus == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the event bus is not running; nothing was published");
        }
        long seq = bus.publishObservation(TerminalEvents.NOTIFICATION,
                TerminalEvents.notification(s.terminalId(), terminals.paneOf(s.pty()), title, body, "api"));
        return call.newObject().put("type", "terminal_notified").put("terminal_id", s.terminalId()).put("sequence", seq);
    }

    /** The value when it is one line (no control characters) of at most {@code limit} UTF-8 bytes. */
    static String oneLine(String v, String field, int limit) {
        int bytes = v.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limit) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, field + " is " + bytes + " bytes of UTF-8; at most " + limit,
                    Map.of("field", field, "bytes", bytes, "limit", limit));
        }
        if (v.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, field + " must be one line without control characters",
                    Map.of("field", field));
        }
        return v;
    }
}

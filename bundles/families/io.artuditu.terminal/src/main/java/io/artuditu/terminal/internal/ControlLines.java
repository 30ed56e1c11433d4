package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The client's side of a terminal.backend.control stream: each line is one action, checked
 * against the contract's {@code client_line} schema and run like the method of the same
 * name; each is answered, in order, by a {@code control_ack} or a {@code control_error}.
 * A bad line is only answered: the stream goes on. Runs on the transport's line thread.
 */
final class ControlLines implements Consumer<byte[]> {
    /** Longest client line (the request limit); a longer one ends the connection (transport rule). */
    static final int MAX_LINE_BYTES = Limits.MAX_REQUEST_BYTES;
    static final List<String> ACTIONS = List.of("type_literal", "submit_text", "send_key", "resize");
    private static final Map<String, JsonSchema> SHAPES = shapes();

    private final Screen screen;
    private final Terminals terminals;
    private final InputWriter writer;
    private final TerminalStream stream;

    ControlLines(Screen screen, Terminals terminals, InputWriter writer, TerminalStream stream) {
        this.screen = screen;
        this.terminals = terminals;
        this.writer = writer;
        this.stream = stream;
    }

    /** One schema per action: the branches of the contract's client_line oneOf, in ACTIONS order. */
    private static Map<String, JsonSchema> shapes() {
        JsonNode branches = TerminalFamily.CONTRACT.document()
                .at("/methods/terminal.backend.control/stream/client_line/oneOf");
        Map<String, JsonSchema> m = new LinkedHashMap<>();
        for (JsonNode b : branches) {
            String action = ACTIONS.stream().filter(a -> b.path("properties").has(a)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("client_line branch without an action: " + b));
            m.put(action, JsonSchema.compile(b));
        }
        if (!m.keySet().containsAll(ACTIONS)) {
            throw new IllegalStateException("the contract's client_line lacks an action: " + m.keySet());
        }
        return m;
    }

    @Override
    public void accept(byte[] raw) {
        String id = null;
        ObjectNode reply;
        try {
            JsonNode line = parse(raw);
            JsonNode given = line.get("id");
            id = given != null && given.isTextual() && given.textValue().length() <= 64 ? given.textValue() : null;
            String action = action(line);
            long revision = run(action, line);
            reply = start("control_ack", id).put("action", action).put("revision", revision);
        } catch (UhpException e) {
            reply = start("control_error", id);
            ObjectNode err = reply.putObject("error").put("code", e.code().wire()).put("message", e.getMessage());
            if (!e.details().isEmpty()) {
                err.set("details", Lines.MAPPER.valueToTree(e.details()));
            }
        }
        try {
            stream.reply(reply);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ObjectNode start(String type, String id) {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("type", type);
        return id == null ? o : o.put("id", id);
    }

    private static JsonNode parse(byte[] raw) {
        String foreign = Lines.notUtf8(raw);
        if (foreign != null) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "a control line must be UTF-8 JSON: " + foreign,
                    Map.of("reason", "not_utf8"));
        }
        JsonNode line;
        try {
            line = Lines.MAPPER.readTree(raw);
        } catch (IOException e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "a control line must be one JSON object");
        }
        if (line == null || !line.isObject()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "a control line must be one JSON object");
        }
        return line;
    }

    /** The line's one action, after the line passed that action's schema. */
    private static String action(JsonNode line) {
        List<String> present = ACTIONS.stream().filter(line::has).toList();
        if (present.size() != 1) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "a control line holds exactly one of " + ACTIONS,
                    Map.of("field", "line"));
        }
        String action = present.get(0);
        SHAPES.get(action).validate(line, "line").ifPresent(v -> {
            throw new UhpException(ErrorCode.INVALID_REQUEST, v.toString(), Map.of("field", v.field(), "path", v.path()));
        });
        return action;
    }

    /** Runs the action; returns the screen's revision right before it took effect. */
    private long run(String action, JsonNode line) {
        return switch (action) {
            case "type_literal" -> writer.typeLiteral(screen, line.get(action).textValue()).revision();
            case "submit_text" -> writer.submit(screen, line.get(action).textValue()).revision();
            case "send_key" -> writer.sendKey(screen, line.get(action).textValue(), line.path("repeat").asInt(1)).revision();
            default -> resize(line.get(action));
        };
    }

    private long resize(JsonNode size) {
        int cols = bounded(size.get("cols"), "resize.cols", LifecycleMethods.MAX_COLS);
        int rows = bounded(size.get("rows"), "resize.rows", LifecycleMethods.MAX_ROWS);
        if (screen.pty().exitStatus().isPresent()) {
            throw terminals.exitedDuringCall(screen);
        }
        long revision = screen.revision();
        screen.resize(cols, rows);
        return revision;
    }

    private static int bounded(JsonNode v, String field, int max) {
        if (!v.canConvertToInt() || v.intValue() < 1 || v.intValue() > max) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, field + " must be 1.." + max + "; got " + v.asText(),
                    Map.of("field", field, "min", 1, "max", max));
        }
        return v.intValue();
    }
}

package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.platform.Reply;
import io.artuditu.uhp.platform.UhpDispatcher;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * In-process UHP calls: one request line through the dispatcher, exactly as a client's
 * would go (validation, scope checks with {@code auth}, routing), without a socket.
 */
final class Local {
    static final ObjectMapper JSON = new ObjectMapper();

    private final UhpDispatcher dispatcher;

    Local(UhpDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /** The method's result; its error as a {@link UhpException}. */
    JsonNode call(String method, ObjectNode params, String auth) {
        ObjectNode req = JSON.createObjectNode().put("id", "local").put("method", method);
        req.set("params", params == null ? JSON.createObjectNode() : params);
        if (auth != null) {
            req.put("auth", auth);
        }
        try {
            byte[] line = JSON.writeValueAsBytes(req);
            Reply reply = dispatcher.dispatch(line, 0, line.length, Caller.inProcess());
            reply.afterReply().forEach(Runnable::run);
            JsonNode answer = JSON.readTree(reply.line());
            JsonNode error = answer.get("error");
            if (error != null) {
                throw new UhpException(code(error.path("code").asText()), error.path("message").asText());
            }
            return answer.get("result");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a method is registered now. */
    boolean has(String method) {
        return dispatcher.methods().stream().anyMatch(m -> m.name().equals(method));
    }

    static ErrorCode code(String wire) {
        for (ErrorCode c : ErrorCode.values()) {
            if (c.wire().equals(wire)) {
                return c;
            }
        }
        return ErrorCode.INTERNAL_ERROR;
    }
}

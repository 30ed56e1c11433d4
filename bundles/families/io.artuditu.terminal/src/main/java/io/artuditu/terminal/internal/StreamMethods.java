package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * terminal.backend.observe and control: a slot of the server-wide cap
 * ({@link TerminalStreams}), a watcher on the screen, then the connection streams
 * ({@link TerminalStream}); control also reads client lines ({@link ControlLines}). The slot
 * is given back exactly once, whether the stream ran or the connection ended first.
 */
final class StreamMethods {
    private final Terminals terminals;
    private final TerminalStreams streams;
    private final InputWriter writer;

    StreamMethods(Terminals terminals, TerminalStreams streams, InputWriter writer) {
        this.terminals = terminals;
        this.streams = streams;
        this.writer = writer;
    }

    ObjectNode observe(Call call) {
        return open(call, false);
    }

    ObjectNode control(Call call) {
        return open(call, true);
    }

    private ObjectNode open(Call call, boolean control) {
        long sequence = terminals.sequence();
        Screen s = terminals.live(call);
        if (!streams.tryAcquire()) {
            throw new UhpException(ErrorCode.TOO_MANY_CONNECTIONS, "all " + TerminalStreams.LIMIT
                    + " terminal streams are in use; retry after one closes",
                    Map.of("limit", TerminalStreams.LIMIT, "kind", "terminal_stream"));
        }
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                streams.release();
            }
        };
        TerminalStream stream = new TerminalStream(s, terminals.screens(), call.params().path("styled").asBoolean(false),
                release);
        try {
            if (!s.watch(stream)) {
                throw new UhpException(ErrorCode.TOO_MANY_CONNECTIONS, "terminal " + s.terminalId() + " already has "
                        + Screen.MAX_WATCHERS + " waiters and streams",
                        Map.of("limit", Screen.MAX_WATCHERS, "kind", "screen_watchers"));
            }
            if (control) {
                try {
                    call.connection().onLines(ControlLines.MAX_LINE_BYTES, new ControlLines(s, terminals, writer, stream));
                } catch (UnsupportedOperationException e) {
                    throw new UhpException(ErrorCode.INVALID_REQUEST, "control needs a connection that carries client lines");
                }
            }
            call.connection().onClose(stream::end);
            call.streamAfterReply(stream::stream);
        } catch (RuntimeException e) {
            stream.end();
            throw e;
        }
        ObjectNode r = call.newObject().put("type", control ? "terminal_control" : "terminal_observe")
                .put("terminal_id", s.terminalId()).put("revision", s.revision()).put("sequence", sequence)
                .put("queue_capacity", TerminalStream.QUEUE_FRAMES);
        s.read(t -> r.put("cols", t.cols()).put("rows", t.rows()));
        if (control) {
            r.put("client_line_max_bytes", ControlLines.MAX_LINE_BYTES);
        }
        return r;
    }
}

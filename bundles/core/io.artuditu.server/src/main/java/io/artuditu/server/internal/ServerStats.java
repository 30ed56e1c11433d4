package io.artuditu.server.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Limits;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** Connection-level counters; lock-free, updated by the acceptor and connection threads. */
final class ServerStats {
    final AtomicInteger active = new AtomicInteger();
    /** Connections that continue as a stream (they count in {@link #active} too). */
    final AtomicInteger streaming = new AtomicInteger();
    final LongAdder accepted = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder initialFrameTimeouts = new LongAdder();
    final LongAdder peerRejected = new LongAdder();
    final LongAdder clientDisconnects = new LongAdder();
    final LongAdder bytesIn = new LongAdder();
    final LongAdder bytesOut = new LongAdder();

    void writeTo(ObjectNode stats) {
        ObjectNode c = stats.putObject("connections");
        c.put("active", active.get());
        c.put("capacity", Limits.MAX_CONNECTIONS);
        c.put("accepted", accepted.sum());
        c.put("rejected", rejected.sum());
        c.put("initial_frame_timeouts", initialFrameTimeouts.sum());
        c.put("peer_rejected", peerRejected.sum());
        c.put("client_disconnects", clientDisconnects.sum());
        c.put("streaming", streaming.get());
        ObjectNode b = stats.putObject("bytes");
        b.put("in", bytesIn.sum());
        b.put("out", bytesOut.sum());
    }
}

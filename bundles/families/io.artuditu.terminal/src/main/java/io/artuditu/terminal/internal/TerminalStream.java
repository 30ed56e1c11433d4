package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.StreamSink;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One observe or control stream. Two frames at most exist per stream: the one being written
 * to the socket and the next, which is not queued but rebuilt from the screen's latest state
 * when the writer is free ({@link FrameRenderer}). The screen's watcher only marks the stream
 * dirty (on the notifier thread); the connection's thread renders and writes. Control
 * replies queue here too (at most {@value #MAX_REPLIES}; past that the client's line reader
 * waits, which is back-pressure on a client that does not read).
 */
final class TerminalStream implements Runnable {
    static final int QUEUE_FRAMES = 2;
    static final int MAX_REPLIES = 64;

    private final Screen screen;
    private final Screens screens;
    private final FrameRenderer frames;
    private final Runnable releaseSlot;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ArrayDeque<ObjectNode> replies = new ArrayDeque<>();
    private boolean dirty = true;
    private boolean over;

    TerminalStream(Screen screen, Screens screens, boolean styled, Runnable releaseSlot) {
        this.screen = screen;
        this.screens = screens;
        this.frames = new FrameRenderer(screen, styled);
        this.releaseSlot = releaseSlot;
    }

    /** The screen's watcher: hand off only. */
    @Override
    public synchronized void run() {
        if (dirty) {
            screen.counters().add(RenderCounters.Count.FRAMES_COALESCED);
        }
        dirty = true;
        notifyAll();
    }

    /** The connection is over: stop streaming and give the slot back. Idempotent, any thread. */
    void end() {
        synchronized (this) {
            over = true;
            notifyAll();
        }
        close();
    }

    private void close() {
        if (closed.compareAndSet(false, true)) {
            screen.unwatch(this);
            releaseSlot.run();
        }
    }

    /** Queues a control reply; waits while {@value #MAX_REPLIES} are unwritten. False once the stream is over. */
    boolean reply(ObjectNode line) throws InterruptedException {
        synchronized (this) {
            while (replies.size() >= MAX_REPLIES && !over) {
                wait();
            }
            if (over) {
                return false;
            }
            replies.add(line);
            notifyAll();
            return true;
        }
    }

    /** Runs on the connection's thread after the acknowledgment, until the terminal exits or the client leaves. */
    void stream(StreamSink sink) throws IOException {
        try {
            while (true) {
                List<ObjectNode> out;
                boolean render;
                synchronized (this) {
                    while (!dirty && replies.isEmpty() && !over) {
                        wait();
                    }
                    if (over) {
                        return;
                    }
                    out = new ArrayList<>(replies);
                    replies.clear();
                    render = dirty;
                    dirty = false;
                    notifyAll();
                }
                for (ObjectNode r : out) {
                    sink.write(Lines.of(r));
                }
                if (render) {
                    boolean exited = screen.pty().exitStatus().isPresent(); // before rendering: the frame then holds the last output
                    ObjectNode f = frames.next();
                    screen.counters().projected(RenderCounters.Count.PROJECTIONS_STREAM, f != null);
                    if (f != null) {
                        sink.write(Lines.of(f));
                    }
                    if (frames.more()) {
                        synchronized (this) {
                            dirty = true; // the rest of this update, not a new change: not counted as coalesced
                        }
                    }
                    if (exited) {
                        sink.write(Lines.of(exitedLine()));
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (this) {
                over = true;
                notifyAll();
            }
            close();
        }
    }

    private ObjectNode exitedLine() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("type", "terminal_exited").put("terminal_id", screen.terminalId());
        Optional<Screens.Exited> gone = screens.exited(screen.terminalId());
        o.put("exit_status", screen.pty().exitStatus().getAsInt());
        o.put("exited_at_ms", gone.map(Screens.Exited::exitedMillis).orElse(System.currentTimeMillis()));
        return o;
    }
}

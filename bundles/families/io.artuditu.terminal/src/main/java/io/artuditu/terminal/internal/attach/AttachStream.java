package io.artuditu.terminal.internal.attach;

import io.artuditu.pty.PtyInputException;
import io.artuditu.terminal.internal.RenderCounters;
import io.artuditu.terminal.internal.Screen;
import io.artuditu.terminal.internal.attach.ClientLine.Message;
import io.artuditu.terminal.internal.attach.FrameEncoder.Frame;
import io.artuditu.terminal.internal.attach.ServerLines.Reason;
import io.artuditu.uhp.api.StreamHandler;
import io.artuditu.uhp.api.StreamSink;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.vt.Input;
import io.artuditu.vt.Keys;
import io.artuditu.vt.Mode;
import io.artuditu.vt.MouseEvent;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * One {@code attach.pane} connection after its reply: frames of one pane out, the client's
 * lines in.
 *
 * <p><b>Threads.</b> The connection's thread runs {@link #stream} and is the only writer
 * to the socket. The screen's watcher (the {@code terminal-notify} thread) only marks the
 * stream dirty. The transport's line thread runs {@link #accept}: it acts on the pane
 * directly (input, resize, scroll, watch) and hands anything to send back (an {@code ok},
 * an {@code error}, the {@code detached} line) to the writer. A bell the program rings
 * becomes one {@code "bell"} line, at most one per {@value #BELL_GAP_MS} ms.
 *
 * <p><b>No backlog.</b> Frames are never queued: the writer has at most one frame in
 * flight and one "dirty" mark pending (the two-frame queue), and when it is ready it
 * computes one diff from what the client last got to the screen as it is now. Replies
 * queue up to {@value #MAX_PENDING_REPLIES}; past that the line thread waits for the
 * writer, so a client that does not read also stops being read.
 */
final class AttachStream implements StreamHandler {
    private static final System.Logger LOG = System.getLogger(AttachStream.class.getName());

    /**
     * Longest client line in bytes: room for a {@code put_file} of {@value Scratch#MAX_BYTES} bytes
     * in base64 and its envelope, so a file over that limit gets a readable error rather than a cut
     * connection; a longer line ends the connection.
     */
    static final int MAX_LINE_BYTES = 12 << 20;
    /** Undecodable lines in a row that end the connection (client protocol, "Versioning"). */
    static final int MAX_UNDECODABLE = 16;
    /** Replies waiting for the writer before the line thread waits too. */
    static final int MAX_PENDING_REPLIES = 32;
    /** Lines one wheel notch scrolls the pane's scrollback. */
    static final int WHEEL_LINES = 3;

    /** Bells closer together than this ring once (xterm's bellSuppressTime). */
    static final long BELL_GAP_MS = 200;

    /** The pane being streamed. */
    record Target(String pane, String terminalId, Screen screen) {
    }

    /** Finds a pane for {@code watch}. */
    interface Resolver {
        /** @throws UhpException with the message the client gets when there is no such pane */
        Target resolve(String pane);
    }

    /** Stores a {@code put_file} for the pane it was pasted into; returns the file's absolute path. */
    interface PastedFiles {
        Path put(Target pane, String name, byte[] data) throws IOException;
    }

    private final Resolver resolver;
    private final PastedFiles files;
    private final Predicate<Target> open;
    private final Runnable onEnd;
    private final Runnable signal = this::changed;
    private final FrameEncoder encoder = new FrameEncoder();
    private final AtomicBoolean ended = new AtomicBoolean();

    private final Object lock = new Object();
    // Guarded by lock:
    private Target target;
    private int cols;
    private int rows;
    private boolean dirty = true;
    private boolean full = true;
    private final ArrayDeque<byte[]> replies = new ArrayDeque<>();
    /** Set once: send this {@code detached} line after the pending replies, then end. */
    private Reason detach;
    /** Set once: end after the pending replies, without a {@code detached} line. */
    private boolean hangUp;
    private boolean over;
    private StreamSink sink;

    /** Writer thread only: the pane's bell count the client has heard, and when it last heard one. */
    private long seenBells;
    private long lastBellNanos = System.nanoTime() - BELL_GAP_MS * 1_000_000L;

    /** Line thread only. */
    private int undecodable;
    /** Line thread only: a selection's press cell, while the left button is down. */
    private boolean selecting;
    private int anchorX;
    private int anchorY;

    /**
     * @param open whether a target's pane still runs (false: the stream ends with "pane closed")
     * @param onEnd runs once when the stream is over, however it ends
     */
    AttachStream(Target target, int cols, int rows, Resolver resolver, PastedFiles files, Predicate<Target> open,
            Runnable onEnd) {
        this.target = target;
        this.cols = cols;
        this.rows = rows;
        this.resolver = resolver;
        this.files = files;
        this.open = open;
        this.onEnd = onEnd;
    }

    /**
     * Starts watching the pane and sizes it to the client.
     *
     * @return false when the screen carries its maximum of watchers
     */
    boolean start() {
        if (!target.screen().watch(signal)) {
            return false;
        }
        target.screen().resize(cols, rows);
        return true;
    }

    // ---- the writer (the connection's thread) ----

    @Override
    public void stream(StreamSink out) throws IOException {
        synchronized (lock) {
            if (over) {
                return;
            }
            sink = out;
        }
        try {
            write(out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            end();
        }
    }

    private void write(StreamSink out) throws IOException, InterruptedException {
        List<byte[]> lines = new ArrayList<>();
        while (true) {
            Target t;
            boolean frame;
            boolean reset;
            Reason why;
            boolean stop;
            synchronized (lock) {
                while (!over && !dirty && replies.isEmpty() && detach == null && !hangUp) {
                    lock.wait();
                }
                if (over) {
                    return;
                }
                lines.addAll(replies);
                replies.clear();
                lock.notifyAll(); // a line thread waiting for room may go on
                why = detach;
                stop = hangUp;
                t = target;
                frame = dirty;
                reset = full;
                dirty = false;
                full = false;
            }
            for (byte[] l : lines) {
                out.write(l);
            }
            lines.clear();
            if (why != null) {
                out.write(ServerLines.detached(why));
                return;
            }
            if (stop) {
                return;
            }
            if (frame) {
                if (!open.test(t)) {
                    out.write(ServerLines.detached(Reason.PANE_CLOSED));
                    return;
                }
                if (reset) {
                    encoder.reset();
                }
                boolean running = t.screen().pty().isAlive();
                long[] bells = new long[1];
                Frame f = t.screen().read(term -> {
                    bells[0] = term.bells();
                    return encoder.next(term, t.screen().scrollOffset(), running);
                });
                t.screen().counters().projected(RenderCounters.Count.PROJECTIONS_ATTACH, f != null);
                if (f != null) {
                    out.write(ServerLines.frame(f));
                }
                if (reset) {
                    seenBells = bells[0]; // a new picture: bells rung before it are not news
                } else if (bells[0] > seenBells) {
                    seenBells = bells[0];
                    long now = System.nanoTime();
                    if (now - lastBellNanos >= BELL_GAP_MS * 1_000_000L) {
                        lastBellNanos = now;
                        out.write(ServerLines.BELL);
                    }
                }
            }
        }
    }

    /** The screen changed (watcher thread): mark dirty, never block. */
    private void changed() {
        synchronized (lock) {
            if (dirty) {
                target.screen().counters().add(RenderCounters.Count.FRAMES_COALESCED);
            }
            dirty = true;
            lock.notifyAll();
        }
    }

    /** Ends the stream: the writer returns, the watcher goes, {@code onEnd} runs. Idempotent, any thread. */
    void end() {
        Target t;
        synchronized (lock) {
            over = true;
            t = target;
            lock.notifyAll();
        }
        if (ended.compareAndSet(false, true)) {
            t.screen().unwatch(signal);
            onEnd.run();
        }
    }

    /** The server is stopping: the client gets {@code detached} "server shutting down" and the stream ends. */
    void shutdown() {
        finish(Reason.SERVER_SHUTTING_DOWN);
    }

    /** Closes the connection now (a writer stuck on a client that does not read). */
    void abort() {
        StreamSink s;
        synchronized (lock) {
            s = sink;
        }
        if (s != null) {
            s.abort();
        }
        end();
    }

    boolean ended() {
        return ended.get();
    }

    private void finish(Reason why) {
        synchronized (lock) {
            if (detach == null && !hangUp) {
                detach = why;
                lock.notifyAll();
            }
        }
    }

    /** Queues a line for the writer; waits while {@value #MAX_PENDING_REPLIES} are already waiting. */
    private void reply(byte[] line) {
        synchronized (lock) {
            try {
                while (!over && replies.size() >= MAX_PENDING_REPLIES) {
                    lock.wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (!over) {
                replies.add(line);
                lock.notifyAll();
            }
        }
    }

    private void frameWanted(boolean fullFrame) {
        synchronized (lock) {
            dirty = true;
            full |= fullFrame;
            lock.notifyAll();
        }
    }

    // ---- client lines (the transport's line thread) ----

    /** One client line, without its newline. */
    void accept(byte[] line) {
        Message m = ClientLine.decode(line);
        if (m instanceof ClientLine.Undecodable u) {
            undecodable++;
            LOG.log(Level.DEBUG, "undecodable attach line: " + u.reason());
            if (undecodable >= MAX_UNDECODABLE) {
                reply(ServerLines.error(MAX_UNDECODABLE + " undecodable lines in a row; closing the connection"));
                synchronized (lock) {
                    hangUp = true;
                    lock.notifyAll();
                }
            }
            // Otherwise skipped without a reply (client protocol: "A frame that will not decode is
            // logged and skipped"): a newer client's line must not read as a failure.
            return;
        }
        undecodable = 0;
        Target t;
        synchronized (lock) {
            if (over || detach != null || hangUp) {
                return;
            }
            t = target;
        }
        try {
            act(m, t);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "an attach line failed", e);
            reply(ServerLines.error("the server failed to carry out that line"));
        }
    }

    private void act(Message m, Target t) {
        Screen screen = t.screen();
        if (m instanceof ClientLine.KeyPress k) {
            byte[] bytes = k.key() == null ? k.text() : screen.read(term -> Keys.encode(k.key(), term));
            type(screen, bytes);
        } else if (m instanceof ClientLine.Paste p) {
            type(screen, screen.read(term -> Input.paste(p.text(), term)));
        } else if (m instanceof ClientLine.Wheel w) {
            MouseEvent e = new MouseEvent(w.up() ? MouseEvent.Action.WHEEL_UP : MouseEvent.Action.WHEEL_DOWN,
                    MouseEvent.Button.NONE, w.x(), w.y());
            // Where a notch goes is decided here: the program, when it asked for the mouse;
            // else the pane's own scrollback (the alternate screen has none to move).
            byte[] report = screen.read(term -> term.wantsMouse() ? Input.mouse(e, term)
                    : term.mode(Mode.ALTERNATE_SCREEN) ? new byte[0] : null);
            if (report == null) {
                screen.scroll(w.up() ? WHEEL_LINES : -WHEEL_LINES);
            } else if (report.length > 0) {
                send(screen, report);
            }
        } else if (m instanceof ClientLine.Mouse mo) {
            MouseEvent e = new MouseEvent(mo.action(), MouseEvent.Button.LEFT, mo.x(), mo.y());
            // A program that reads the mouse owns presses and drags; otherwise they select text.
            byte[] report = screen.read(term -> term.wantsMouse() ? Input.mouse(e, term) : null);
            if (report == null) {
                select(screen, mo);
            } else {
                selecting = false;
                if (report.length > 0) {
                    send(screen, report);
                }
            }
        } else if (m instanceof ClientLine.Resize r) {
            synchronized (lock) {
                cols = r.cols();
                rows = r.rows();
            }
            screen.resize(r.cols(), r.rows());
            frameWanted(true);
        } else if (m instanceof ClientLine.ScrollPage s) {
            int page = Math.max(1, screen.read(term -> term.rows()) - 1);
            screen.scroll((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, -(long) s.pages() * page)));
            reply(ServerLines.OK);
            frameWanted(false);
        } else if (m instanceof ClientLine.Watch w) {
            watch(w.pane());
        } else if (m instanceof ClientLine.Detach) {
            finish(Reason.DETACHED);
        } else if (m instanceof ClientLine.Refused r) {
            reply(ServerLines.error(r.message()));
        } else if (m instanceof ClientLine.Notice n) {
            // Known only to the client; it comes back where the client shows errors.
            reply(ServerLines.error(n.text()));
        } else if (m instanceof ClientLine.PasteImage) {
            // The clipboard is the client machine's: ask for it, the answer is a put_file.
            reply(ServerLines.READ_CLIPBOARD_IMAGE);
        } else if (m instanceof ClientLine.PutFile f) {
            putFile(t, f);
        }
        // ClientLine.Ignored: a kind this server does not know; the stream goes on.
    }

    /** Stores the file and pastes its absolute path into the pane, the form agent CLIs take an image in. */
    private void putFile(Target t, ClientLine.PutFile f) {
        Path path;
        try {
            path = files.put(t, f.name(), f.data());
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "put_file could not store a file", e);
            reply(ServerLines.error("put_file: the file could not be stored: " + e.getMessage()));
            return;
        }
        Screen screen = t.screen();
        type(screen, screen.read(term -> Input.paste(path.toString(), term)));
        reply(ServerLines.filePut(path.toString()));
    }

    /**
     * A press anchors a selection, the release ends it: if it moved, the client gets the text
     * between the two cells as {@code set_clipboard} (the server owns the grid, so a client with
     * no VT parser still has selection). A click that did not move selects nothing.
     */
    private void select(Screen screen, ClientLine.Mouse mo) {
        switch (mo.action()) {
            case PRESS -> {
                selecting = true;
                anchorX = mo.x();
                anchorY = mo.y();
            }
            case RELEASE -> {
                if (selecting && (mo.x() != anchorX || mo.y() != anchorY)) {
                    int x0 = anchorX;
                    int y0 = anchorY;
                    String text = screen.read(term -> Selection.text(term, screen.scrollOffset(), x0, y0, mo.x(), mo.y()));
                    if (!text.isEmpty()) {
                        reply(ServerLines.setClipboard(text));
                    }
                }
                selecting = false;
            }
            default -> {
                // a drag only moves the end, which the release reports
            }
        }
    }

    /** Typed input snaps a scrolled-back view to live output first, as a terminal does. */
    private void type(Screen screen, byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        int offset = screen.scrollOffset();
        if (offset > 0) {
            screen.scroll(-offset);
        }
        send(screen, bytes);
    }

    private void send(Screen screen, byte[] bytes) {
        try {
            screen.input(bytes);
        } catch (PtyInputException e) {
            if (e.reason() == PtyInputException.Reason.BACKLOG) {
                reply(ServerLines.error("input refused: the program is not reading and " + e.pending()
                        + " bytes are already queued (limit " + io.artuditu.pty.Pty.MAX_PENDING_INPUT + ")"));
            }
            // EXITED: the pane is closing; the stream ends with "pane closed" on its own.
        }
    }

    private void watch(String pane) {
        Target next;
        try {
            next = resolver.resolve(pane);
        } catch (UhpException e) {
            reply(ServerLines.error(e.getMessage()));
            return;
        }
        Target old;
        int c;
        int r;
        synchronized (lock) {
            old = target;
            c = cols;
            r = rows;
        }
        if (old.screen() != next.screen()) {
            if (!next.screen().watch(signal)) {
                reply(ServerLines.error("pane " + pane + " has too many watchers (" + Screen.MAX_WATCHERS + ")"));
                return;
            }
            boolean stale;
            synchronized (lock) {
                stale = over;
                if (!stale) {
                    target = next;
                }
            }
            if (stale) {
                next.screen().unwatch(signal);
                return;
            }
            old.screen().unwatch(signal);
        }
        next.screen().resize(c, r);
        frameWanted(true);
    }
}

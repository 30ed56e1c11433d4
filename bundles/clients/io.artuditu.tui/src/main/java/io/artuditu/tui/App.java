package io.artuditu.tui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The workbench's one UI thread, and how its parts meet.
 *
 * <p><b>One UI thread.</b> The caller of {@link #run} is the UI thread. It owns the state of
 * this class and of its parts (the model, the layout, the modes, the picture), and it alone
 * draws. The other threads {@link #post} work to it through a bounded queue instead of
 * touching that state: the input reader ({@link #readInput}, here), the event stream
 * ({@link ServerFeed}), one reader per pane stream ({@link PaneView}, through {@link Panes}),
 * and the request worker ({@link Requests}, which also runs {@link ModuleFeed}'s fetches).
 * The few fields another thread does touch are volatile or atomic and say so; a method
 * another thread may call says so; every other method runs on the UI thread.
 *
 * <p><b>The parts</b>, each one concern:
 * <ul>
 * <li>{@link ServerFeed}: what the server said: the snapshot, its events, config and theme;</li>
 * <li>{@link Panes}: the stage's layout and the {@code attach.pane} stream of each visible pane;</li>
 * <li>{@link Surfaces}: what modules show (bars, docks, notifications);</li>
 * <li>{@link Requests}: one-shot requests on the worker, and the focus holds that keep input
 *     behind a request that moves the focus;</li>
 * <li>{@link KeyActions}: the person's input, decoded, and what each key does;</li>
 * <li>{@link MouseActions}: what a click, a drag and the wheel do;</li>
 * <li>{@link Prompts}: the bottom-line prompt, the yes/no question, copy mode, the command
 *     line and a dock row's menu;</li>
 * <li>{@link Painter}: the picture, drawn whole or as the pane rows that changed;</li>
 * <li>{@link Toasts}: the short messages;</li>
 * <li>{@link FilesDock} and {@link GitDashboard}: the workbench's own review views (the FILES
 *     dock, and the stage of a {@code git} tab).</li>
 * </ul>
 * State comes from the server alone: a {@code session.snapshot}, refreshed whenever an event
 * says the topology or config changed, and one {@code attach.pane} per visible pane.
 */
final class App {
    /** Work posted to the UI thread; a full queue drops input rather than growing. */
    static final int QUEUE = 4096;

    /** What the keys go to: the pane, or what the workbench shows over it. */
    enum Mode { NORMAL, PREFIX, PROMPT, CONFIRM, COPY, HELP, MENU, FILES }

    /** A short message above the bottom-right corner; {@code level} is info, success, warning or error. */
    record Toast(String text, String level) {
    }

    final Outer outer;
    final String session;
    final Keymap keymap = new Keymap();
    final Toasts toasts = new Toasts();
    final Requests requests;
    final Surfaces surfaces;
    final ServerFeed server;
    final Panes panes;
    final Painter painter;
    final Prompts prompts;
    final KeyActions keys;
    final MouseActions mouse;
    final FilesDock files;
    final GitDashboard git;

    /** What the keys go to now. */
    Mode mode = Mode.NORMAL;
    /** When a pending prefix gives up waiting for its key. */
    long prefixDeadline;
    /** Something besides pane cells changed: paint the whole workbench. */
    boolean chrome = true;

    private final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(QUEUE);
    /** Set by the pane streams' threads: some pane's cells changed (only those rows are redrawn). */
    private final AtomicBoolean dirty = new AtomicBoolean(true);
    /** Read by every thread: false once the workbench is leaving. */
    private volatile boolean running = true;
    private String exitMessage;

    App(JsonUhp uhp, Outer outer, String session) {
        this.outer = outer;
        this.session = session;
        this.requests = new Requests(this, uhp);
        this.surfaces = new Surfaces(this, uhp);
        this.server = new ServerFeed(this, uhp);
        this.panes = new Panes(this, uhp);
        this.painter = new Painter(this, outer.colorDepth());
        this.prompts = new Prompts(this, uhp);
        this.keys = new KeyActions(this);
        this.mouse = new MouseActions(this);
        this.files = new FilesDock(this);
        this.git = new GitDashboard(this);
    }

    static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Posts work to the UI thread; false when the queue is full. Any thread. */
    boolean post(Runnable r) {
        return queue.offer(r);
    }

    /** Some pane's cells changed: draw them soon. Any thread. */
    void redraw() {
        if (dirty.compareAndSet(false, true)) {
            post(() -> { });
        }
    }

    /** Whether the workbench is still running. Any thread. */
    boolean running() {
        return running;
    }

    /** Runs until detach or quit; returns the line to print after the terminal is restored. */
    String run() throws IOException {
        panes.resize(outer.cols(), outer.rows());
        outer.onResize(() -> post(panes::resized));
        Thread input = daemon(this::readInput, "tui-input");
        input.start();
        server.start();
        outer.write("\033[?2026$p"); // does the terminal do synchronized output?
        while (running) {
            Runnable r;
            try {
                long wait = nextDeadline() - System.currentTimeMillis();
                r = queue.poll(Math.max(1, wait), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                break;
            }
            if (r != null) {
                r.run();
                for (Runnable more; (more = queue.poll()) != null; ) {
                    more.run();
                }
            }
            timers();
            boolean cells = dirty.getAndSet(false);
            if (running && (chrome || cells)) {
                painter.draw();
            }
        }
        panes.closeAll();
        server.close();
        requests.shutdown();
        outer.stopReading();
        try {
            input.join(500); // the terminal goes back to the shell only once nothing reads it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return exitMessage;
    }

    private long nextDeadline() {
        long d = System.currentTimeMillis() + 1000;
        if (mode == Mode.PREFIX) {
            d = Math.min(d, prefixDeadline);
        }
        d = keys.deadline(d);
        d = panes.deadline(d);
        d = requests.deadline(d);
        d = toasts.deadline(d);
        return surfaces.deadline(d);
    }

    private void timers() {
        long now = System.currentTimeMillis();
        panes.retryIfDue(now);
        keys.escapeIfDue(now);
        if (mode == Mode.PREFIX && now >= prefixDeadline) {
            mode = Mode.NORMAL;
            chrome = true;
        }
        requests.releaseIfDue(now);
        if (toasts.expire(now)) {
            chrome = true;
        }
        if (surfaces.expire(now)) {
            chrome = true;
        }
    }

    void toast(String text, boolean error) {
        toast(text, error ? "error" : "info");
    }

    void toast(String text, String level) {
        toasts.add(text, level);
        chrome = true;
    }

    /** OSC 52: the outer terminal puts the text on the clipboard of the person's machine. */
    void copyToClipboard(String text) {
        outer.write("\033]52;c;" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "\007");
        toast("copied " + text.codePointCount(0, text.length()) + " characters", false);
    }

    /** What puts the outer terminal back as the workbench found it, as far as drawing changed it (the cursor colour). */
    String restoreSequence() {
        return painter.restoreSequence();
    }

    void quit(String message) {
        exitMessage = message;
        running = false;
    }

    /**
     * The input thread only reads: bytes go to the UI thread, which decodes them, so the
     * decoder and its Escape deadline have one owner. A full queue blocks this thread (the
     * terminal then holds the person's keys) rather than dropping input.
     */
    private void readInput() {
        byte[] buf = new byte[16384];
        try {
            while (running) {
                int n = outer.read(buf);
                if (n == Outer.STOPPED) {
                    return;
                }
                if (n < 0) {
                    post(() -> quit("[the terminal went away]"));
                    return;
                }
                byte[] chunk = Arrays.copyOf(buf, n);
                queue.put(() -> keys.decode(chunk));
            }
        } catch (IOException e) {
            post(() -> quit("[input failed: " + e.getMessage() + "]"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The outer terminal: what App needs of it (JLine in {@link Tui}, a fake nowhere). */
    interface Outer {
        int cols();

        int rows();

        int colorDepth();

        void onResize(Runnable r);

        /** Returned by {@link #read} once {@link #stopReading()} was called. */
        int STOPPED = -2;

        /** Reads what the person typed into {@code buf}, blocking; -1 at end of input. */
        int read(byte[] buf) throws IOException;

        /** Makes a blocked {@link #read} return {@link #STOPPED} soon, having read nothing more. */
        void stopReading();

        void write(String s);
    }
}

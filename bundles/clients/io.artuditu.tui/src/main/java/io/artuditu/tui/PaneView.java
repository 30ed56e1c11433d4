package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.vt.Style;
import io.artuditu.vt.Width;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * One pane as {@code attach.pane} streams it: the cells the server sent, the cursor, and the
 * connection keys and resizes go back on. A reader thread applies each frame and tells the
 * workbench to draw; nothing polls.
 */
final class PaneView {
    /** What the stream tells the workbench besides "draw again". */
    interface Listener {
        void changed(PaneView view);

        void line(PaneView view, JsonNode line);

        void ended(PaneView view, String reason);
    }

    final String pane;
    private final JsonUhp uhp;
    private final Listener listener;
    private volatile JsonUhp.Stream line;
    private Thread reader;

    private int cols;
    private int rows;
    private String[] ch;
    private long[] st;
    /** Underline colours by cell; null while every cell has the default (most panes, always). */
    private int[] ul;
    /** Rows a frame changed since they were last painted. */
    private boolean[] damage;
    private int cursorX = -1;
    private int cursorY = -1;
    private int cursorShape = 2;
    private boolean wantsMouse;
    private volatile boolean ended;

    PaneView(JsonUhp uhp, String pane, int cols, int rows, Listener listener) {
        this.uhp = uhp;
        this.pane = pane;
        this.listener = listener;
        reset(cols, rows);
    }

    private void reset(int c, int r) {
        cols = Math.max(1, c);
        rows = Math.max(1, r);
        ch = new String[cols * rows];
        st = new long[cols * rows];
        ul = null;
        damage = new boolean[rows];
        Arrays.fill(ch, Canvas.BLANK);
        Arrays.fill(damage, true);
    }

    /** Attaches; the reader thread runs until the stream ends. */
    void start() throws IOException {
        ObjectNode p = JsonUhp.params().put("pane", pane).put("cols", cols).put("rows", rows);
        JsonUhp.Stream l = uhp.open("attach.pane", p);
        l.reply();
        line = l;
        reader = new Thread(this::read, "tui-pane-" + pane);
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        String reason = "connection closed";
        try {
            String s;
            while ((s = line.readLine()) != null) {
                FrameReader.Frame f = FrameReader.read(s);
                if (f != null) {
                    apply(f);
                    listener.changed(this);
                    continue;
                }
                JsonNode n = JsonUhp.JSON.readTree(s);
                if (n.has("detached")) {
                    reason = n.get("detached").path("reason").asText("detached");
                    break;
                } else {
                    listener.line(this, n);
                }
            }
        } catch (IOException e) {
            reason = "connection lost: " + e.getMessage();
        } finally {
            ended = true;
            line.close();
            listener.ended(this, reason);
        }
    }

    boolean ended() {
        return ended;
    }

    synchronized void apply(FrameReader.Frame f) {
        if (f.full()) {
            Arrays.fill(ch, Canvas.BLANK);
            Arrays.fill(st, Style.DEFAULT);
            if (ul != null) {
                Arrays.fill(ul, 0);
            }
            Arrays.fill(damage, true);
        }
        for (FrameReader.Run run : f.runs()) {
            int x = run.x();
            int y = run.y();
            if (y < 0 || y >= rows) {
                continue;
            }
            damage[y] = true;
            int[] colors = run.ul();
            if (colors != null && ul == null) {
                ul = new int[cols * rows];
            }
            for (int k = 0; k < run.ch().length && x < cols; k++) {
                String g = run.ch()[k];
                int w = g == Canvas.BLANK ? 1 : Math.max(1, Width.of(g));
                int i = y * cols + x;
                ch[i] = g;
                st[i] = run.st()[k];
                if (ul != null) {
                    ul[i] = colors == null ? 0 : colors[k];
                }
                if (w == 2 && x + 1 < cols) {
                    ch[i + 1] = Canvas.CONTINUATION;
                    st[i + 1] = run.st()[k];
                    if (ul != null) {
                        ul[i + 1] = ul[i];
                    }
                }
                x += w;
            }
        }
        cursorX = f.cursorX();
        cursorY = f.cursorY();
        cursorShape = f.cursorShape();
        wantsMouse = f.wantsMouse();
    }

    /** Copies the cells into {@code canvas} at (x, y), clipped to w × h; {@code dim} greys them. */
    synchronized void paint(Canvas canvas, int x, int y, int w, int h, boolean dim) {
        Arrays.fill(damage, false);
        for (int r = 0; r < Math.min(h, rows); r++) {
            row(canvas, x, y, w, r, dim);
        }
    }

    /** Like {@link #paint}, for the rows frames changed since the last paint; marks them in {@code touched}. */
    synchronized void paintDamage(Canvas canvas, int x, int y, int w, int h, boolean dim, boolean[] touched) {
        for (int r = 0; r < Math.min(h, rows); r++) {
            if (damage[r]) {
                damage[r] = false;
                row(canvas, x, y, w, r, dim);
                if (y + r < touched.length) {
                    touched[y + r] = true;
                }
            }
        }
    }

    private void row(Canvas canvas, int x, int y, int w, int r, boolean dim) {
        for (int c = 0; c < Math.min(w, cols); c++) {
            int i = r * cols + c;
            String g = ch[i];
            if (g == Canvas.CONTINUATION) {
                continue;
            }
            long s = dim ? (st[i] | Style.DIM) : st[i];
            int u = ul == null ? 0 : ul[i];
            boolean wide = c + 1 < cols && ch[i + 1] == Canvas.CONTINUATION;
            if (wide && c + 1 >= w) {
                canvas.put(x + c, y + r, Canvas.BLANK, 1, s, u);
            } else {
                canvas.put(x + c, y + r, g, wide ? 2 : 1, s, u);
            }
        }
    }

    synchronized int cursorX() {
        return cursorX;
    }

    synchronized int cursorY() {
        return cursorY;
    }

    synchronized int cursorShape() {
        return cursorShape;
    }

    synchronized boolean wantsMouse() {
        return wantsMouse;
    }

    synchronized int cols() {
        return cols;
    }

    synchronized int rows() {
        return rows;
    }

    /** Sends one client line; a stream that has ended drops it. */
    void send(JsonNode json) {
        try {
            sendLine(JsonUhp.JSON.writeValueAsString(json));
        } catch (IOException e) {
            close();
        }
    }

    /** Sends one client line already in JSON. */
    void sendLine(String json) {
        JsonUhp.Stream l = line;
        if (l == null || ended) {
            return;
        }
        try {
            l.send(json);
        } catch (IOException e) {
            l.close();
        }
    }

    /** Resizes the stream (and so the pane); the server answers with a full frame. */
    void resize(int c, int r) {
        c = Math.max(1, Math.min(1000, c));
        r = Math.max(1, Math.min(500, r));
        synchronized (this) {
            if (c == cols && r == rows) {
                return;
            }
            reset(c, r);
        }
        ObjectNode m = JsonUhp.JSON.createObjectNode();
        m.putObject("resize").put("cols", c).put("rows", r);
        send(m);
    }

    void detach() {
        send(JsonUhp.JSON.getNodeFactory().textNode("detach"));
    }

    void close() {
        JsonUhp.Stream l = line;
        if (l != null) {
            l.close();
        }
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.vt.Mode;
import java.util.BitSet;

/**
 * One stream's view of a screen: what the client was last sent, and the next
 * {@code terminal_update} that brings it up to date. State-based: whatever happened between
 * two calls becomes one update holding each changed row once, so a slow client gets fewer,
 * larger updates and never a backlog. Confined to the stream's thread.
 */
final class FrameRenderer {
    /** Most row text (UTF-8) one update carries; rows past it follow in the next update. */
    static final int MAX_FRAME_TEXT_BYTES = 4 << 20;

    private final Screen screen;
    private final boolean styled;
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final BitSet pending = new BitSet();
    private boolean first = true;
    private long termRevision;
    private int cols;
    private int rows;
    private int cursorCol;
    private int cursorRow;
    private boolean cursorVisible;
    private String title;
    private boolean alternate;

    FrameRenderer(Screen screen, boolean styled) {
        this.screen = screen;
        this.styled = styled;
    }

    /** Rows that did not fit the last update; the stream renders again at once while true. */
    boolean more() {
        return !pending.isEmpty();
    }

    /** The update since the last call, or null when nothing the client sees changed. */
    ObjectNode next() {
        return screen.read(t -> {
            boolean resized = first || t.cols() != cols || t.rows() != rows;
            BitSet changed;
            if (resized) {
                changed = new BitSet(t.rows());
                changed.set(0, t.rows());
                pending.clear();
            } else {
                changed = t.rowsChangedSince(termRevision);
                changed.or(pending);
                pending.clear();
                changed.clear(t.rows(), Math.max(t.rows(), changed.length()));
            }
            String nowTitle = screen.title();
            boolean alt = t.mode(Mode.ALTERNATE_SCREEN);
            boolean same = !resized && changed.isEmpty() && t.cursorCol() == cursorCol && t.cursorRow() == cursorRow
                    && t.cursorVisible() == cursorVisible && nowTitle.equals(title) && alt == alternate;
            termRevision = t.revision();
            if (same) {
                return null;
            }
            ObjectNode u = nodes.objectNode().put("type", "terminal_update").put("terminal_id", screen.terminalId())
                    .put("revision", screen.revision()).put("full", resized);
            u.put("cols", t.cols()).put("rows", t.rows());
            ArrayNode lines = u.putArray("lines");
            long bytes = 0;
            for (int r = changed.nextSetBit(0); r >= 0; r = changed.nextSetBit(r + 1)) {
                String text = t.rowText(r, styled);
                if (resized && text.isEmpty()) {
                    continue; // a full update lists only rows that are not blank
                }
                long size = Utf8.length(text);
                if (bytes + size > MAX_FRAME_TEXT_BYTES && lines.size() > 0) {
                    pending.set(r);
                    continue;
                }
                bytes += size;
                lines.addObject().put("row", r).put("text", text);
            }
            u.put("more", !pending.isEmpty());
            cols = t.cols();
            rows = t.rows();
            cursorCol = t.cursorCol();
            cursorRow = t.cursorRow();
            cursorVisible = t.cursorVisible();
            title = nowTitle;
            alternate = alt;
            first = false;
            u.putArray("cursor").add(cursorCol).add(cursorRow);
            u.put("cursor_visible", cursorVisible).put("title", title).put("alternate_screen", alternate);
            return u;
        });
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.vt.Terminal;

/**
 * terminal.backend.capture: scrollback and screen as one numbered range of lines. Line 0 is
 * the oldest retained scrollback line, {@code historySize() + r} is screen row r (the
 * numbering of {@link io.artuditu.vt.Match}); numbers hold for the revision returned
 * (scrollback that fills its budget drops its oldest lines and renumbers the rest).
 */
final class CaptureMethod {
    static final int MAX_LINES = 10_000;
    static final int MAX_BYTES = 4 << 20;

    private final Terminals terminals;

    CaptureMethod(Terminals terminals) {
        this.terminals = terminals;
    }

    /** One capture, read under the screen's lock. */
    record Range(long revision, int start, int lines, int total, int history, int cols, int rows, boolean truncated,
            String text) {
    }

    ObjectNode capture(Call call) {
        Screen s = terminals.live(call);
        JsonNode startParam = call.params().get("start");
        JsonNode linesParam = call.params().get("lines");
        boolean styled = call.params().path("styled").asBoolean(false);
        Range c = s.read(t -> read(t, s.revision(), startParam == null ? null : startParam.longValue(),
                linesParam == null ? null : linesParam.intValue(), styled));
        return call.newObject().put("type", "terminal_capture").put("terminal_id", s.terminalId())
                .put("revision", c.revision()).put("start", c.start()).put("lines", c.lines())
                .put("total_lines", c.total()).put("history_rows", c.history()).put("cols", c.cols())
                .put("rows", c.rows()).put("styled", styled).put("truncated", c.truncated()).put("text", c.text());
    }

    /**
     * Resolves the range and reads it. {@code start}: null for the first screen row, negative
     * from the end, clamped to 0; past the end gives no lines. {@code lines}: null for through
     * the end. At most {@link #MAX_LINES} lines and {@link #MAX_BYTES} of UTF-8 text.
     */
    static Range read(Terminal t, long revision, Long start, Integer lines, boolean styled) {
        int history = t.historySize();
        int total = history + t.rows();
        long from = start == null ? history : start < 0 ? Math.max(0, total + start) : Math.min(start, total);
        long wanted = lines == null ? total - from : Math.min(lines, total - from);
        int n = (int) Math.min(wanted, MAX_LINES);
        boolean truncated = n < wanted;
        StringBuilder text = new StringBuilder();
        long bytes = 0;
        int got = 0;
        for (int i = (int) from; got < n; i++, got++) {
            String line = i < history ? t.historyText(i, styled) : t.rowText(i - history, styled);
            long size = Utf8.length(line) + (got > 0 ? 1 : 0);
            if (bytes + size > MAX_BYTES) {
                truncated = true;
                break;
            }
            if (got > 0) {
                text.append('\n');
            }
            text.append(line);
            bytes += size;
        }
        return new Range(revision, (int) from, got, total, history, t.cols(), t.rows(), truncated, text.toString());
    }
}

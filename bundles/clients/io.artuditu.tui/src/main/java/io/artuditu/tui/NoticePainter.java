package io.artuditu.tui;

import io.artuditu.tui.ModuleUi.Notice;
import io.artuditu.tui.ModuleUi.Spot;
import java.util.List;

/**
 * Paints the live notifications above the bottom-right corner: the newest lowest, at most
 * {@link #SHOWN}, each a line in its level's colour with the level's mark; one with an
 * action ends in {@code ›} and is a spot a click runs.
 */
final class NoticePainter {
    static final int SHOWN = 4;

    private NoticePainter() {
    }

    static String mark(String level) {
        return switch (level == null ? "info" : level) {
            case "success" -> "✓";
            case "warning" -> "!";
            case "error" -> "✗";
            default -> "i";
        };
    }

    /** Paints from row {@code bottom} upwards; returns the rows taken. */
    static int paint(Canvas c, Theme theme, List<Notice> notices, int bottom, List<Spot> spots) {
        int n = Math.min(SHOWN, notices.size());
        int y = bottom;
        for (int i = notices.size() - 1; i >= notices.size() - n && y > 0; i--, y--) {
            Notice m = notices.get(i);
            boolean click = m.owner() != null && m.action() != null && !m.action().isEmpty();
            String t = " " + mark(m.level()) + " " + Canvas.clip(m.text(), Math.max(4, c.cols / 2)) + (click ? " › " : " ");
            int w = Canvas.width(t);
            int x = Math.max(0, c.cols - w - 1);
            c.text(x, y, t, theme.toast(m.level()), w);
            if (click) {
                spots.add(new Spot(x, x + w, y, ModuleUi.Invoke.row(m.owner(), m.action(), m.value()), m.owner(),
                        List.of(), null));
            }
        }
        return bottom - y;
    }
}

package io.artuditu.tui;

import io.artuditu.tui.ModuleUi.Segment;
import io.artuditu.tui.ModuleUi.Spot;
import io.artuditu.tui.ModuleUi.Widget;
import io.artuditu.vt.Style;
import java.util.ArrayList;
import java.util.List;

/**
 * Lays out and paints a bar region's widgets (the top-right end of the tab bar, the
 * bottom-right of the bottom line): which widgets show and in which form, then their
 * segments in their tones. A region holds at most {@link #REGION_MAX} columns and a widget
 * at most {@link #WIDGET_MAX}; widths are the VT library's, as everywhere in the workbench.
 *
 * <p>Segments are drawn side by side exactly as wide as the server measures them (its
 * {@code width}): a badge has a column of padding each side, a state a space between its dot
 * and its label; any other room is the module's (text with spaces, spacers). Widgets are
 * {@link #GAP} columns apart.
 */
final class BarPainter {
    static final int REGION_MAX = 100;
    static final int WIDGET_MAX = 100;
    static final int GAP = 2;
    static final int PROGRESS_WIDTH = 8;
    private static final String EIGHTHS = "▏▎▍▌▋▊▉";

    /** A widget as it shows: the segments drawn ({@code content} or {@code compact}) and their width. */
    record Placed(Widget widget, List<Segment> segments, boolean compact, int width) {
    }

    private BarPainter() {
    }

    /**
     * The columns a region may take on a line {@code cols} wide whose other content (gaps
     * included) wants {@code protectedWidth}: what that leaves, but a quarter of the line
     * even when it leaves less, and never more than {@link #REGION_MAX}.
     */
    static int room(int cols, int protectedWidth) {
        return Math.max(0, Math.min(REGION_MAX, Math.max(cols / 4, cols - protectedWidth)));
    }

    /**
     * The widgets of {@code region} that fit in {@code room} columns, in the server's order
     * (priority, highest first): each in its full content while everything fits; else
     * widgets switch to their compact content from the lowest priority up; when even that
     * does not fit, the lowest-priority widgets are left out.
     */
    static List<Placed> fit(List<Widget> widgets, String region, int room) {
        List<Widget> in = new ArrayList<>();
        for (Widget w : widgets) {
            if (w.region().equals(region) && measure(w.content()) > 0) {
                in.add(w);
            }
        }
        room = Math.min(room, REGION_MAX);
        for (int n = in.size(); n > 0; n--) {
            List<Placed> p = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Widget w = in.get(i);
                p.add(new Placed(w, w.content(), false, Math.min(WIDGET_MAX, measure(w.content()))));
            }
            for (int i = n - 1; i >= 0 && width(p) > room; i--) {
                Widget w = p.get(i).widget();
                if (w.compact() != null) {
                    int cw = Math.min(WIDGET_MAX, measure(w.compact()));
                    if (cw > 0 && cw < p.get(i).width()) {
                        p.set(i, new Placed(w, w.compact(), true, cw));
                    }
                }
            }
            if (width(p) <= room) {
                return p;
            }
        }
        return List.of();
    }

    /** The columns placed widgets take, gaps included. */
    static int width(List<Placed> placed) {
        int w = 0;
        for (Placed p : placed) {
            w += p.width();
        }
        return w + Math.max(0, placed.size() - 1) * GAP;
    }

    /** The columns segments take. */
    static int measure(List<Segment> segs) {
        int w = 0;
        for (Segment s : segs) {
            w += segmentWidth(s);
        }
        return w;
    }

    static int segmentWidth(Segment s) {
        return switch (s.type()) {
            case "state" -> 1 + (s.text() == null || s.text().isEmpty() ? 0 : 1 + Canvas.width(s.text()));
            case "badge" -> Canvas.width(nz(s.text())) + 2;
            case "progress" -> s.width() > 0 ? Math.min(64, s.width()) : PROGRESS_WIDTH;
            case "spacer" -> s.width() > 0 ? Math.min(64, s.width()) : 1;
            case "separator" -> 1;
            default -> Canvas.width(nz(s.text()));
        };
    }

    /**
     * Paints {@code placed} in {@code theme}'s colours from column {@code x} of row {@code y}
     * on {@code base} (the bar's rendition, whose background the segments keep), and adds a spot for every segment with
     * an action: a click there runs it with the widget's id, the segment's index in the
     * content shown and its value.
     */
    static void paint(Canvas c, Theme theme, int x, int y, List<Placed> placed, long base, List<Spot> spots) {
        for (int k = 0; k < placed.size(); k++) {
            Placed p = placed.get(k);
            int end = x + p.width();
            int cx = x;
            List<Segment> segs = p.segments();
            for (int i = 0; i < segs.size() && cx < end; i++) {
                Segment s = segs.get(i);
                int x0 = cx;
                cx += segment(c, theme, cx, y, s, base, end - cx);
                if (s.action() != null && !s.action().isEmpty() && cx > x0) {
                    spots.add(new Spot(x0, Math.min(cx, end), y, new ModuleUi.Invoke(p.widget().owner(), s.action(),
                            null, p.widget().id(), i, s.actionValue()), p.widget().owner(), List.of(), null));
                }
            }
            if (measure(segs) > p.width()) {
                c.put(end - 1, y, "…", 1, theme.tone(base, "muted"));
            }
            x = end + (k < placed.size() - 1 ? GAP : 0);
        }
    }

    /** Paints one segment in at most {@code max} columns; returns the columns it took. */
    private static int segment(Canvas c, Theme theme, int x, int y, Segment s, long base, int max) {
        if (max <= 0) {
            return 0;
        }
        switch (s.type()) {
            case "state" -> {
                int used = c.text(x, y, "●", Style.withBg(theme.agent(s.state() == null ? "unknown" : s.state()),
                        Style.bg(base)), max);
                if (s.text() != null && !s.text().isEmpty() && max > 2) {
                    used += 1 + c.text(x + 2, y, s.text(), theme.tone(base, s.tone()), max - 2);
                }
                return used;
            }
            case "badge" -> {
                return c.text(x, y, " " + nz(s.text()) + " ", theme.badge(s.tone()), max);
            }
            case "progress" -> {
                int w = Math.min(max, segmentWidth(s));
                double f = s.total() <= 0 ? 0 : Math.max(0, Math.min(1, (double) s.value() / s.total()));
                int eighths = (int) Math.round(f * segmentWidth(s) * 8);
                long st = Style.withBg(theme.tone(base, s.tone() == null ? "accent" : s.tone()) & ~Style.BOLD, theme.track);
                for (int i = 0; i < w; i++) {
                    int left = eighths - i * 8;
                    String g = left >= 8 ? "█" : left > 0 ? String.valueOf(EIGHTHS.charAt(left - 1)) : " ";
                    c.put(x + i, y, g, 1, st);
                }
                return w;
            }
            case "spacer" -> {
                int w = Math.min(max, segmentWidth(s));
                c.fill(x, y, w, 1, Canvas.BLANK, base);
                return w;
            }
            case "separator" -> {
                return c.text(x, y, "│", theme.tone(base, s.tone() == null ? "muted" : s.tone()), max);
            }
            default -> {
                return c.text(x, y, nz(s.text()), theme.tone(base, s.tone()), max);
            }
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}

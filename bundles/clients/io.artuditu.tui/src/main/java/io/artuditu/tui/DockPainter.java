package io.artuditu.tui;

import io.artuditu.tui.ModuleUi.Dock;
import io.artuditu.tui.ModuleUi.Row;
import io.artuditu.tui.ModuleUi.Spot;
import io.artuditu.vt.Style;
import java.util.List;

/**
 * Paints docks into a sidebar: sections stacked one under the other (the left sidebar's
 * first section is its workspace list), one blank row apart, each a bold title row and then
 * its rows: a dot in its agent state's colour and the text, cut to the width. The height is
 * shared so that a short section gets all it asks for and the long ones split the rest; a
 * section cut short ends in "…N more".
 */
final class DockPainter {
    /** A section shows at least its title and one row, or not at all. */
    static final int MIN_SECTION = 2;

    private DockPainter() {
    }

    /** The rows a section asks for: its title and its rows (at least one, for "(empty)"). */
    static int demand(Dock d) {
        return 1 + Math.max(1, d.rows().size());
    }

    /**
     * Shares {@code total} rows among sections asking for {@code demand}: whoever asks for
     * less than an even share gets it, the rest split what remains evenly (earlier sections
     * get the odd rows). A section left with fewer than {@link #MIN_SECTION} rows gets none.
     */
    static int[] share(int[] demand, int total) {
        int n = demand.length;
        int[] give = new int[n];
        boolean[] done = new boolean[n];
        int left = Math.max(0, total);
        int open = n;
        while (open > 0) {
            int fair = left / open;
            boolean any = false;
            for (int i = 0; i < n; i++) {
                if (!done[i] && demand[i] <= fair) {
                    give[i] = demand[i];
                    left -= demand[i];
                    done[i] = true;
                    open--;
                    any = true;
                }
            }
            if (!any) {
                int each = left / open;
                int extra = left % open;
                for (int i = 0; i < n; i++) {
                    if (!done[i]) {
                        give[i] = each + (extra-- > 0 ? 1 : 0);
                    }
                }
                break;
            }
        }
        for (int i = 0; i < n; i++) {
            if (give[i] < MIN_SECTION) {
                give[i] = 0;
            }
        }
        return give;
    }

    /**
     * The heights of a sidebar's sections in {@code height} rows, blank rows between them
     * taken first: {@code first} (the workspace list, or -1 for none) and then each dock.
     * Index 0 is the first section's (0 when {@code first} is -1).
     */
    static int[] layout(int first, List<Dock> docks, int height) {
        int n = docks.size() + 1;
        int[] demand = new int[n];
        demand[0] = Math.max(0, first);
        for (int i = 0; i < docks.size(); i++) {
            demand[i + 1] = demand(docks.get(i));
        }
        int sections = (first >= 0 ? 1 : 0) + docks.size();
        int[] h = share(demand, height - Math.max(0, sections - 1));
        if (first >= 0 && h[0] == 0) {
            h[0] = Math.min(height, Math.max(1, first)); // the workspace list keeps its title at least
        }
        return h;
    }

    /**
     * Paints {@code docks} from row {@code top} down in a column {@code width} wide at
     * {@code x}, section {@code i} in {@code heights[i + 1]} rows, each after a blank row
     * when {@code gapFirst} or when a section came before it.
     */
    static void paint(Canvas c, Theme theme, List<Dock> docks, int x, int top, int width, int[] heights, boolean gapFirst,
            List<Spot> spots) {
        int y = top;
        boolean gap = gapFirst;
        for (int i = 0; i < docks.size(); i++) {
            int h = heights[i + 1];
            if (h <= 0) {
                continue;
            }
            if (gap) {
                y++;
            }
            dock(c, theme, docks.get(i), x, y, width, h, spots);
            y += h;
            gap = true;
        }
    }

    /** One dock in {@code height} rows: its title, then its rows, the last replaced by "…N more" when they do not fit. */
    static void dock(Canvas c, Theme theme, Dock d, int x, int y, int width, int height, List<Spot> spots) {
        if (height <= 0 || width < 4) {
            return;
        }
        c.text(x + 1, y, Canvas.clip(d.heading(), width - 2), theme.sidebar | Style.BOLD, width - 2);
        List<Row> rows = d.rows();
        int room = height - 1;
        if (rows.isEmpty()) {
            c.text(x + 3, y + 1, "(empty)", theme.sidebarDim, width - 4);
            return;
        }
        int shown = rows.size() <= room ? rows.size() : room - 1;
        for (int i = 0; i < shown; i++) {
            Row r = rows.get(i);
            int ry = y + 1 + i;
            if (r.dot() != null) {
                c.text(x + 1, ry, "●", Style.withBg(theme.agent(r.dot()), Style.bg(theme.sidebar)), 1);
            }
            c.text(x + 3, ry, Canvas.clip(r.text(), width - 4), theme.sidebar, width - 4);
            boolean click = r.action() != null && !r.action().isEmpty();
            if (d.owner() != null && (click || !r.menu().isEmpty())) {
                spots.add(new Spot(x, x + width, ry, click ? ModuleUi.Invoke.row(d.owner(), r.action(), r.value()) : null,
                        d.owner(), r.menu(), r.value()));
            }
        }
        if (shown < rows.size()) {
            c.text(x + 3, y + 1 + shown, "…" + (rows.size() - shown) + " more", theme.sidebarDim, width - 4);
        }
    }
}

package io.artuditu.tui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts the stage into pane rectangles from the server's split tree. Every pane has a header
 * row (its title) above its content; side-by-side panes are kept apart by a one-column
 * border, stacked panes by the lower one's header. A zoomed tab gives the focused pane the
 * whole stage.
 */
final class Layout {
    record Rect(int x, int y, int w, int h) {
        boolean contains(int px, int py) {
            return px >= x && py >= y && px < x + w && py < y + h;
        }
    }

    /** A pane's place: its whole rectangle, and the content under its header. */
    record Place(String pane, Rect all, Rect content) {
    }

    /**
     * A border the mouse can drag: the split at {@code path} of the tree; {@code at} is the
     * border's column (side by side) or row (stacked); {@code parent} the split's rectangle.
     */
    record Divider(List<String> path, boolean horizontal, Rect line, Rect parent) {
    }

    final Map<String, Place> places = new LinkedHashMap<>();
    final List<Divider> dividers = new ArrayList<>();

    static Layout of(Model.Tab tab, Rect stage) {
        Layout l = new Layout();
        if (tab == null || tab.root() == null) {
            return l;
        }
        if (tab.zoomed() && tab.focused() != null) {
            l.leaf(tab.focused(), stage);
            return l;
        }
        l.cut(tab.root(), stage, new ArrayList<>());
        return l;
    }

    private void cut(Model.Node n, Rect r, List<String> path) {
        if (n == null) {
            return;
        }
        if (n.pane() != null) {
            leaf(n.pane(), r);
            return;
        }
        if (n.horizontal()) {
            int avail = r.w() - 1;
            int wa = clamp((int) Math.round(avail * n.ratio()), 1, Math.max(1, avail - 1));
            int wb = Math.max(0, avail - wa);
            dividers.add(new Divider(List.copyOf(path), true, new Rect(r.x() + wa, r.y(), 1, r.h()), r));
            cut(n.a(), new Rect(r.x(), r.y(), wa, r.h()), with(path, "a"));
            cut(n.b(), new Rect(r.x() + wa + 1, r.y(), wb, r.h()), with(path, "b"));
        } else {
            int ha = clamp((int) Math.round(r.h() * n.ratio()), 1, Math.max(1, r.h() - 1));
            int hb = Math.max(0, r.h() - ha);
            dividers.add(new Divider(List.copyOf(path), false, new Rect(r.x(), r.y() + ha, r.w(), 1), r));
            cut(n.a(), new Rect(r.x(), r.y(), r.w(), ha), with(path, "a"));
            cut(n.b(), new Rect(r.x(), r.y() + ha, r.w(), hb), with(path, "b"));
        }
    }

    private void leaf(String pane, Rect r) {
        places.put(pane, new Place(pane, r, new Rect(r.x(), r.y() + 1, r.w(), Math.max(0, r.h() - 1))));
    }

    private static List<String> with(List<String> path, String step) {
        List<String> p = new ArrayList<>(path);
        p.add(step);
        return p;
    }

    private static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    Place at(int x, int y) {
        for (Place p : places.values()) {
            if (p.all().contains(x, y)) {
                return p;
            }
        }
        return null;
    }

    /** The divider under (x, y): a side-by-side border column, or a stacked pane's header row. */
    Divider dividerAt(int x, int y) {
        for (Divider d : dividers) {
            if (d.line().contains(x, y)) {
                return d;
            }
        }
        return null;
    }
}

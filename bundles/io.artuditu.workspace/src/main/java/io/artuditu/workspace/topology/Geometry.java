package io.artuditu.workspace.topology;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pane rectangles in the normalized {@value Topology#AREA} × {@value Topology#AREA} area and
 * the one directional-neighbor rule. Integer math only: a split of extent {@code e} gives its
 * first child {@code round(e × ratio)} (half up), clamped so both children keep the minimum
 * extent when {@code e} allows it, and its second child the rest, so the rectangles of a tab
 * tile the area exactly with no gap or overlap.
 */
public final class Geometry {
    /** Units per reference column: the area is 200 columns wide. */
    public static final int CELL_WIDTH = 50;
    /** Units per reference row: the area is 50 rows high. */
    public static final int CELL_HEIGHT = 200;
    /** Narrowest pane: 2 reference columns. */
    public static final int MIN_WIDTH = 2 * CELL_WIDTH;
    /** Lowest pane: 1 reference row. */
    public static final int MIN_HEIGHT = CELL_HEIGHT;

    private Geometry() {
    }

    public static int min(Axis axis) {
        return axis == Axis.HORIZONTAL ? MIN_WIDTH : MIN_HEIGHT;
    }

    public static int cell(Axis axis) {
        return axis == Axis.HORIZONTAL ? CELL_WIDTH : CELL_HEIGHT;
    }

    /** The first child's extent of a split of extent {@code extent}. */
    public static int firstExtent(Axis axis, double ratio, int extent) {
        long a = Math.round(extent * ratio);
        int min = min(axis);
        if (extent >= 2 * min) {
            a = Math.max(min, Math.min(extent - min, a));
        } else {
            a = Math.max(0, Math.min(extent, a));
        }
        return (int) a;
    }

    /** The ratio nearest to {@code ratio} that keeps both children at least the minimum extent. */
    public static double clampRatio(Axis axis, double ratio, int extent) {
        int min = min(axis);
        if (extent < 2 * min) {
            return 0.5;
        }
        double lo = (double) min / extent;
        double hi = 1.0 - lo;
        return Math.max(lo, Math.min(hi, ratio));
    }

    /** Every pane's rectangle in a tab's tree, in leaf order. */
    public static Map<String, Rect> rects(Node root) {
        Map<String, Rect> out = new LinkedHashMap<>();
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {root, new Rect(0, 0, Topology.AREA, Topology.AREA)});
        while (!stack.isEmpty()) {
            Object[] top = stack.pop();
            Node n = (Node) top[0];
            Rect r = (Rect) top[1];
            if (n instanceof Node.Leaf l) {
                out.put(l.pane(), r);
            } else if (n instanceof Node.Split s) {
                Rect[] parts = divide(s, r);
                stack.push(new Object[] {s.b(), parts[1]});
                stack.push(new Object[] {s.a(), parts[0]});
            }
        }
        return out;
    }

    /** The rectangles of a split's two children. */
    public static Rect[] divide(Node.Split s, Rect r) {
        if (s.axis() == Axis.HORIZONTAL) {
            int a = firstExtent(Axis.HORIZONTAL, s.ratio(), r.width());
            return new Rect[] {new Rect(r.x(), r.y(), a, r.height()),
                    new Rect(r.x() + a, r.y(), r.width() - a, r.height())};
        }
        int a = firstExtent(Axis.VERTICAL, s.ratio(), r.height());
        return new Rect[] {new Rect(r.x(), r.y(), r.width(), a), new Rect(r.x(), r.y() + a, r.width(), r.height() - a)};
    }

    /** The outer edges of the area a rectangle touches. */
    public static Set<Direction> edges(Rect r) {
        Set<Direction> e = EnumSet.noneOf(Direction.class);
        if (r.x() == 0) {
            e.add(Direction.LEFT);
        }
        if (r.right() == Topology.AREA) {
            e.add(Direction.RIGHT);
        }
        if (r.y() == 0) {
            e.add(Direction.UP);
        }
        if (r.bottom() == Topology.AREA) {
            e.add(Direction.DOWN);
        }
        return e;
    }

    /**
     * The neighbor rule. Candidates are the other panes whose rectangle starts exactly where
     * the pane's ends in that direction (they share a border) and overlaps it along the
     * perpendicular axis by at least one unit. Of those the one with the largest overlap
     * wins; on a tie the one nearer the top (for left/right) or the left (for up/down), which
     * is the same as the first in leaf order. Empty when the pane touches that outer edge.
     */
    public static Optional<String> neighbor(Node root, String pane, Direction d) {
        Map<String, Rect> rects = rects(root);
        Rect me = rects.get(pane);
        if (me == null) {
            return Optional.empty();
        }
        String best = null;
        int bestOverlap = 0;
        int bestStart = Integer.MAX_VALUE;
        for (Map.Entry<String, Rect> e : rects.entrySet()) {
            if (e.getKey().equals(pane)) {
                continue;
            }
            Rect o = e.getValue();
            boolean adjacent = switch (d) {
                case RIGHT -> o.x() == me.right();
                case LEFT -> o.right() == me.x();
                case DOWN -> o.y() == me.bottom();
                case UP -> o.bottom() == me.y();
            };
            if (!adjacent) {
                continue;
            }
            int overlap;
            int start;
            if (d.axis() == Axis.HORIZONTAL) {
                overlap = Math.min(me.bottom(), o.bottom()) - Math.max(me.y(), o.y());
                start = o.y();
            } else {
                overlap = Math.min(me.right(), o.right()) - Math.max(me.x(), o.x());
                start = o.x();
            }
            if (overlap <= 0) {
                continue;
            }
            if (overlap > bestOverlap || (overlap == bestOverlap && start < bestStart)) {
                best = e.getKey();
                bestOverlap = overlap;
                bestStart = start;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Splits on the longest root-to-leaf path of a stored tree. */
    public static int depth(Node root) {
        int max = 0;
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {root, 0});
        while (!stack.isEmpty()) {
            Object[] top = stack.pop();
            int d = (Integer) top[1];
            if (top[0] instanceof Node.Split s) {
                stack.push(new Object[] {s.a(), d + 1});
                stack.push(new Object[] {s.b(), d + 1});
            } else {
                max = Math.max(max, d);
            }
        }
        return max;
    }
}

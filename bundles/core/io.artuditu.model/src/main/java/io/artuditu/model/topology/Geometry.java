package io.artuditu.model.topology;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pane rectangles in the normalized {@value Topology#AREA} × {@value Topology#AREA} area and
 * the one directional-neighbor rule. Integer math only, so the rectangles of a tab tile the
 * area exactly with no gap or overlap: a split of extent {@code e} gives its first child
 * {@link #firstExtent} units and its second child the rest.
 *
 * <p>Room is measured by {@link #need}: the least extent along an axis that a subtree needs
 * so that every pane in it keeps the minimum size. When {@code e} holds both children's needs,
 * the first child gets {@code round(e × ratio)} (half up) clamped to
 * {@code [need(a), e − need(b)]}, so a nested subtree is never squeezed below its panes'
 * minimum whatever the stored ratios say. When it does not (a tree denser than the area
 * allows: one stored before the clamping looked at nested subtrees, or a very deep
 * {@code layout.apply}), {@code e} is shared in proportion to the two needs, the ratio is
 * ignored, and each child gets at least one unit while {@code e ≥ 2}; a pane then gets no
 * zero extent as long as no more than {@code e} panes lie side by side along that axis.
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

    /**
     * The least extent along {@code axis} that {@code n} needs to keep every pane in it at the
     * minimum size: a leaf needs {@link #min}; a split along {@code axis} needs the sum of its
     * children's needs (they lie side by side along it); a split across it needs the larger of
     * the two (both get the whole extent). The one definition of "room" that split, pane.move,
     * resize, set_split_ratio, layout.apply and the rectangles use.
     */
    public static int need(Node n, Axis axis) {
        return needs(n).get(n)[axis.ordinal()];
    }

    /**
     * {@link #need} of every node of a tree, both axes, in one bottom-up pass without
     * recursion (indexed by {@link Axis#ordinal}). Keyed by identity: a node object shared by
     * two places of a tree has the same subtree, so the same needs.
     */
    private static Map<Node, int[]> needs(Node root) {
        Map<Node, int[]> out = new IdentityHashMap<>();
        Deque<Node> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            Node n = work.peek();
            if (out.containsKey(n)) {
                work.pop();
            } else if (n instanceof Node.Leaf) {
                work.pop();
                out.put(n, new int[] {MIN_WIDTH, MIN_HEIGHT});
            } else {
                Node.Split s = (Node.Split) n;
                int[] a = out.get(s.a());
                int[] b = out.get(s.b());
                if (a == null || b == null) {
                    // Children first; the split is looked at again once they are done.
                    if (b == null) {
                        work.push(s.b());
                    }
                    if (a == null) {
                        work.push(s.a());
                    }
                    continue;
                }
                work.pop();
                int[] need = new int[2];
                for (Axis axis : Axis.values()) {
                    int i = axis.ordinal();
                    need[i] = axis == s.axis() ? a[i] + b[i] : Math.max(a[i], b[i]);
                }
                out.put(n, need);
            }
        }
        return out;
    }

    /**
     * The first child's extent of a split of extent {@code extent} whose children need
     * {@code needA} and {@code needB} along its axis: {@code round(extent × ratio)} clamped to
     * {@code [needA, extent − needB]} when the extent holds both needs, otherwise the extent
     * shared in proportion to the needs (at least one unit each while {@code extent ≥ 2}).
     * Always within {@code 0..extent}.
     */
    public static int firstExtent(double ratio, int extent, int needA, int needB) {
        long a;
        if ((long) needA + needB <= extent) {
            a = Math.max(needA, Math.min(extent - needB, Math.round(extent * ratio)));
        } else {
            a = Math.round((double) extent * needA / ((long) needA + needB));
            if (extent >= 2) {
                a = Math.max(1, Math.min(extent - 1, a));
            }
        }
        return (int) Math.max(0, Math.min(extent, a));
    }

    /** The first child's extent of {@code s} when it has {@code extent} units along its axis. */
    public static int firstExtent(Node.Split s, int extent) {
        return firstExtent(s.ratio(), extent, need(s.a(), s.axis()), need(s.b(), s.axis()));
    }

    /**
     * The ratio to store for {@code s} when it has {@code extent} units along its axis: the
     * value nearest to {@code ratio} that gives each child at least its {@link #need}, so no
     * pane of either subtree drops below the minimum. When the extent cannot hold both needs
     * the ratio is the share {@link #firstExtent} gives then: {@code need(a) / (need(a) +
     * need(b))}, whatever was asked.
     */
    public static double clampRatio(Node.Split s, double ratio, int extent) {
        int needA = need(s.a(), s.axis());
        int needB = need(s.b(), s.axis());
        if ((long) needA + needB > extent) {
            return (double) needA / ((long) needA + needB);
        }
        double lo = (double) needA / extent;
        double hi = 1.0 - (double) needB / extent;
        return Math.max(lo, Math.min(hi, ratio));
    }

    /** Every pane's rectangle in a tab's tree, in leaf order. */
    public static Map<String, Rect> rects(Node root) {
        Map<Node, int[]> needs = needs(root);
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
                int i = s.axis().ordinal();
                Rect[] parts = divide(s, r, needs.get(s.a())[i], needs.get(s.b())[i]);
                stack.push(new Object[] {s.b(), parts[1]});
                stack.push(new Object[] {s.a(), parts[0]});
            }
        }
        return out;
    }

    /** The rectangles of a split's two children. */
    public static Rect[] divide(Node.Split s, Rect r) {
        return divide(s, r, need(s.a(), s.axis()), need(s.b(), s.axis()));
    }

    private static Rect[] divide(Node.Split s, Rect r, int needA, int needB) {
        if (s.axis() == Axis.HORIZONTAL) {
            int a = firstExtent(s.ratio(), r.width(), needA, needB);
            return new Rect[] {new Rect(r.x(), r.y(), a, r.height()),
                    new Rect(r.x() + a, r.y(), r.width() - a, r.height())};
        }
        int a = firstExtent(s.ratio(), r.height(), needA, needB);
        return new Rect[] {new Rect(r.x(), r.y(), r.width(), a), new Rect(r.x(), r.y() + a, r.width(), r.height() - a)};
    }

    /** A rectangle's extent along an axis: its width for horizontal, its height for vertical. */
    public static int extent(Rect r, Axis axis) {
        return axis == Axis.HORIZONTAL ? r.width() : r.height();
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

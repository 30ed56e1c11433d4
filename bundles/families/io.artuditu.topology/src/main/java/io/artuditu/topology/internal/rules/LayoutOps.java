package io.artuditu.topology.internal.rules;

import static io.artuditu.topology.internal.rules.TopologyOps.paneTab;
import static io.artuditu.topology.internal.rules.TopologyOps.withRatio;
import static io.artuditu.uhp.api.UhpException.invalid;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Geometry;
import io.artuditu.model.topology.Layouts;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Rect;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Topology;
import io.artuditu.uhp.api.UhpException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The layout family's rules: export a pane tab's tree, apply a whole tree, set one split's
 * ratio; pure functions of a {@link Topology}.
 */
public final class LayoutOps {
    LayoutOps() {
    }

    /** A tab's tree and focused pane. */
    public record LayoutView(String tabId, Node root, String focused, boolean zoomed) {
    }

    private static Topology.Location layoutTab(Topology s, String tabId) {
        Topology.Location at = s.requireTab(tabId);
        paneTab(at.tab(), "tab");
        return at;
    }

    /** The whole tree of a pane tab. */
    public static LayoutView view(Topology s, String tabId) {
        Topology.Location at = layoutTab(s, tabId);
        return new LayoutView(at.tab().id(), at.tab().root(), at.tab().focused(), at.tab().zoomed());
    }

    /**
     * Replaces a pane tab's tree with one holding exactly its current panes (checked by
     * {@link Layouts#validate} before anything else), optionally focusing one of them.
     * Ratios are clamped top-down by {@link Geometry#clampRatio} so every subtree keeps the
     * room its panes need (a tree too dense for the area is shared in proportion to the
     * needs). Never adds or removes a pane. Zoom ends.
     */
    public Change<LayoutView> apply(Topology s, String tabId, Node root, String focus) {
        Topology.Location at = layoutTab(s, tabId);
        Set<String> current = new HashSet<>(Topology.leaves(at.tab().root()));
        Layouts.validate(root, current);
        if (focus != null && !current.contains(focus)) {
            throw invalid("focus", "foreign_pane", "focus must be a pane of this tab");
        }
        Node clamped = clampAll(root, new Rect(0, 0, Topology.AREA, Topology.AREA));
        Tab t = at.tab().withTree(clamped, focus != null ? focus : at.tab().focused(), false);
        return new Change<>(s.withTab(at, t), Lifecycle.layoutChanged(at), new LayoutView(t.id(), t.root(), t.focused(), false));
    }

    private static Node clampAll(Node n, Rect r) {
        if (n instanceof Node.Split s) {
            Node.Split c = s.withRatio(Geometry.clampRatio(s, s.ratio(), Geometry.extent(r, s.axis())));
            Rect[] parts = Geometry.divide(c, r);
            return new Node.Split(c.axis(), c.ratio(), clampAll(s.a(), parts[0]), clampAll(s.b(), parts[1]));
        }
        return n;
    }

    /**
     * Sets the ratio of the split at a root-relative path of {@code a}/{@code b} steps
     * (empty: the root), clamped by {@link Geometry#clampRatio} so every pane on both sides
     * keeps the minimum size. The result is the stored ratio.
     */
    public Change<Double> setSplitRatio(Topology s, String tabId, List<String> path, double ratio) {
        Topology.Location at = layoutTab(s, tabId);
        if (path == null) {
            throw invalid("path", "missing", "path is required");
        }
        if (path.size() > Topology.MAX_DEPTH) {
            throw invalid("path", "too_deep", "path has at most " + Topology.MAX_DEPTH + " steps");
        }
        Layouts.checkRatio("ratio", ratio);
        Node n = at.tab().root();
        Rect r = new Rect(0, 0, Topology.AREA, Topology.AREA);
        StringBuilder p = new StringBuilder();
        for (String step : path) {
            if (!"a".equals(step) && !"b".equals(step)) {
                throw invalid("path", "invalid_step", "path steps are \"a\" or \"b\"");
            }
            if (!(n instanceof Node.Split sp)) {
                throw UhpException.notFound("split", String.join("", path), "path", "path " + path + " leads past a pane");
            }
            Rect[] parts = Geometry.divide(sp, r);
            r = step.equals("a") ? parts[0] : parts[1];
            n = step.equals("a") ? sp.a() : sp.b();
            p.append(step);
        }
        if (!(n instanceof Node.Split sp)) {
            throw UhpException.notFound("split", String.join("", path), "path", "path " + path + " names a pane, not a split");
        }
        double clamped = Geometry.clampRatio(sp, ratio, Geometry.extent(r, sp.axis()));
        Node root = withRatio(at.tab().root(), p.toString(), clamped);
        return new Change<>(s.withTab(at, at.tab().withTree(root, at.tab().focused(), at.tab().zoomed())), Lifecycle.layoutChanged(at),
                clamped);
    }
}

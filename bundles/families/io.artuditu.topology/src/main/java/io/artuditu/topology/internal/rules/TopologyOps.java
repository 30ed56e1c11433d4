package io.artuditu.topology.internal.rules;

import static io.artuditu.uhp.api.UhpException.invalid;

import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Topology;
import java.util.function.Supplier;

/**
 * The topology families' rules, as pure functions of a {@link Topology}: each takes the
 * resolved ids of what it acts on, validates the whole request first and returns a
 * {@link io.artuditu.model.topology.Change} or throws (the input state is immutable, so a
 * refusal changes nothing). How objects enter and leave (a new workspace, a pane tab, a
 * removed pane) is the model's {@link Lifecycle}, shared with the model's own paths; each
 * family's own rules are in {@link WorkspaceOps}, {@link TabOps}, {@link PaneOps} and
 * {@link LayoutOps}, and the tree helpers they share are here.
 *
 * <p>One per change: its ids come from the change's {@link Spawner} ({@link #of}), so a
 * change the model runs twice draws the same ones.
 */
public final class TopologyOps {
    private final Lifecycle lifecycle;
    private final WorkspaceOps workspaces;
    private final TabOps tabs;
    private final PaneOps panes;
    private final LayoutOps layouts;

    /** @param ids gives 16 lowercase hex digits per call (random in production) */
    public TopologyOps(Supplier<String> ids) {
        this.lifecycle = new Lifecycle(ids);
        this.workspaces = new WorkspaceOps();
        this.tabs = new TabOps(lifecycle);
        this.panes = new PaneOps(lifecycle);
        this.layouts = new LayoutOps();
    }

    /** The rules for one change, drawing ids from its spawner. */
    public static TopologyOps of(Spawner sp) {
        return new TopologyOps(sp::newId);
    }

    /** How objects enter and leave the topology (the model's rules, shared). */
    public Lifecycle lifecycle() {
        return lifecycle;
    }

    /** The workspace family's operations. */
    public WorkspaceOps workspaces() {
        return workspaces;
    }

    /** The tab family's operations. */
    public TabOps tabs() {
        return tabs;
    }

    /** The pane family's operations (place and shape). */
    public PaneOps panes() {
        return panes;
    }

    /** The layout family's operations. */
    public LayoutOps layouts() {
        return layouts;
    }

    // ---------------------------------------------------------------- events



    static Tab paneTab(Tab t, String field) {
        if (t.kind().dashboard()) {
            throw invalid(field, "dashboard", "the " + t.kind().wire() + " dashboard has no pane layout");
        }
        return t;
    }

    // ---------------------------------------------------------------- tree helpers


    static Node at(Node root, String path) {
        Node n = root;
        for (char c : path.toCharArray()) {
            Node.Split s = (Node.Split) n;
            n = c == 'a' ? s.a() : s.b();
        }
        return n;
    }

    static Node withRatio(Node n, String path, double ratio) {
        Node.Split s = (Node.Split) n;
        if (path.isEmpty()) {
            return s.withRatio(ratio);
        }
        String rest = path.substring(1);
        return path.charAt(0) == 'a' ? new Node.Split(s.axis(), s.ratio(), withRatio(s.a(), rest, ratio), s.b())
                : new Node.Split(s.axis(), s.ratio(), s.a(), withRatio(s.b(), rest, ratio));
    }
}

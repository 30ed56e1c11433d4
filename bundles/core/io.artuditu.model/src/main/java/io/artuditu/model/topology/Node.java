package io.artuditu.model.topology;

import java.util.Objects;

/**
 * A node of a tab's binary split tree: a {@link Leaf} holding one pane, or a {@link Split}
 * of two children. Trees the model stores are at most {@link Topology#MAX_DEPTH} splits
 * deep, so the records' recursive {@code equals}/{@code hashCode} are safe on them; trees
 * from outside are checked by {@link Layouts#validate} without recursion before anything
 * else looks at them.
 */
public sealed interface Node permits Node.Leaf, Node.Split {
    /** One pane. */
    record Leaf(String pane) implements Node {
        public Leaf {
            Objects.requireNonNull(pane);
        }
    }

    /**
     * Two children sharing the parent's rectangle along {@code axis}: {@code a} gets
     * {@code ratio} of it (left or top), {@code b} the rest.
     */
    record Split(Axis axis, double ratio, Node a, Node b) implements Node {
        public Split {
            Objects.requireNonNull(axis);
            Objects.requireNonNull(a);
            Objects.requireNonNull(b);
        }

        public Split withRatio(double r) {
            return new Split(axis, r, a, b);
        }
    }
}

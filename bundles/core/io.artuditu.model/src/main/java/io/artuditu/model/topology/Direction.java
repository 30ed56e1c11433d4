package io.artuditu.model.topology;

import java.util.Optional;

/** A screen direction: where a split puts the new pane, where a neighbor is looked for. */
public enum Direction {
    LEFT("left", Axis.HORIZONTAL), RIGHT("right", Axis.HORIZONTAL), UP("up", Axis.VERTICAL),
    DOWN("down", Axis.VERTICAL);

    private final String wire;
    private final Axis axis;

    Direction(String wire, Axis axis) {
        this.wire = wire;
        this.axis = axis;
    }

    public String wire() {
        return wire;
    }

    /** The axis along which this direction moves. */
    public Axis axis() {
        return axis;
    }

    /** Whether this direction points towards larger coordinates (right, down). */
    public boolean forward() {
        return this == RIGHT || this == DOWN;
    }

    public static Optional<Direction> of(String wire) {
        for (Direction d : values()) {
            if (d.wire.equals(wire)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }
}

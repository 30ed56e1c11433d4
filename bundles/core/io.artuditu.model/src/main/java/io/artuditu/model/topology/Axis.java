package io.artuditu.model.topology;

import java.util.Optional;

/**
 * How a split divides its area. The name says along which axis the two children are laid
 * out: {@link #HORIZONTAL} puts them side by side (a on the left, b on the right; the
 * divider is a vertical line), {@link #VERTICAL} stacks them (a on top, b below).
 */
public enum Axis {
    HORIZONTAL("horizontal"), VERTICAL("vertical");

    private final String wire;

    Axis(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<Axis> of(String wire) {
        for (Axis a : values()) {
            if (a.wire.equals(wire)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }
}

package io.artuditu.agents.internal.detect;

import java.util.Locale;
import java.util.Optional;

/** An agent's state as the wire spells it. */
public enum Status {
    IDLE, WORKING, BLOCKED, DONE, UNKNOWN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Status> fromWire(String s) {
        for (Status v : values()) {
            if (v.wire().equals(s)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}

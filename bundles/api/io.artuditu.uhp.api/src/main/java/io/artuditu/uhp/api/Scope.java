package io.artuditu.uhp.api;

import java.util.Locale;
import java.util.Optional;

/**
 * The authority a method needs. A caller on the owner-only socket without a token holds
 * every scope; a delegated token holds only the scopes it was created with.
 */
public enum Scope {
    READ, WORKSPACE, AGENT, TERMINAL, ORCHESTRATION, EXTENSIONS, ADMIN, ALL;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Scope> fromWire(String wire) {
        for (Scope s : values()) {
            if (s.wire().equals(wire)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}

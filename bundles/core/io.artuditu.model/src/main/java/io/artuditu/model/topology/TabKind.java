package io.artuditu.model.topology;

import java.util.Optional;

/**
 * What a tab shows. Only {@link #PANES} tabs hold a pane tree; the dashboards (Git,
 * orchestration, Mission Control) have no mutable pane layout and are never a
 * destination for panes.
 */
public enum TabKind {
    PANES("panes"), GIT("git"), ORCHESTRATION("orchestration"), MISSION_CONTROL("mission_control");

    private final String wire;

    TabKind(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public boolean dashboard() {
        return this != PANES;
    }

    public static Optional<TabKind> of(String wire) {
        for (TabKind k : values()) {
            if (k.wire.equals(wire)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}

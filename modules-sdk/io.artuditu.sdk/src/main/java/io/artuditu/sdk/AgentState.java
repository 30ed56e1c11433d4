package io.artuditu.sdk;

import java.util.Locale;

/** The agent states a bar {@code state} segment or a dock row's dot shows. */
public enum AgentState {
    BLOCKED, WORKING, DONE, IDLE, UNKNOWN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}

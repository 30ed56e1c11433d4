package io.artuditu.agents.internal.detect;

import io.artuditu.vt.Terminal;

/** Evaluates a manifest's rules against a screen, reading only the regions the rules name. */
public final class ScreenRules {
    private ScreenRules() {
    }

    /** Call with the terminal locked (TerminalScreens.read). */
    public static Verdict evaluate(AgentManifest m, Terminal t, long revision) {
        throw new UnsupportedOperationException("TODO");
    }
}

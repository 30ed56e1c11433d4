package io.artuditu.terminal.internal.pane;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyTracker;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What is known about panes whose process exited, by pane id, so that a call naming one gets
 * evidence (its terminal and exit status) instead of a bare "not found" once the pane has left
 * the model. The newest {@value #KEPT} are kept. The pane id comes from the PTY's environment
 * ({@code ARTUDITU_PANE_ID}, set by the workspace model).
 */
final class ExitedPanes implements PtyTracker {
    static final int KEPT = 64;
    static final String PANE_ENV = "ARTUDITU_PANE_ID";

    record Exit(String pane, String terminalId, int status, long exitedMillis) {
    }

    private final Map<String, Exit> exits = new LinkedHashMap<>();

    @Override
    public void added(Pty pty) {
        // only exits matter
    }

    @Override
    public void exited(Pty pty, int status) {
        String pane = pty.env().get(PANE_ENV);
        if (pane == null) {
            return;
        }
        synchronized (exits) {
            exits.put(pane, new Exit(pane, pty.id(), status, System.currentTimeMillis()));
            while (exits.size() > KEPT) {
                exits.remove(exits.keySet().iterator().next());
            }
        }
    }

    Optional<Exit> get(String pane) {
        synchronized (exits) {
            return Optional.ofNullable(exits.get(pane));
        }
    }
}

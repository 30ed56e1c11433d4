package io.artuditu.vt;

import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Read-only measurements of the terminals, for {@code pane.list}: each terminal's scrollback
 * (by {@code terminal_id}) and the process-lifetime performance counters of the terminal
 * host and the process scan. Registered by the bundle that runs the terminal emulators;
 * readers treat it as optional and dynamic, so that bundle can be updated while they keep
 * serving (the fields read as null meanwhile).
 *
 * <p>Everything here is a count or a size: no pane text, command, path, prompt or client
 * identity. Safe to call from any thread; never blocks on I/O.
 */
@ProviderType
public interface TerminalMetrics {
    /**
     * One terminal's scrollback: rows scrolled back from live output, rows kept, the byte
     * budget fixed when its screen was made, the bytes kept now, and whether that byte count
     * is exact (rather than an estimate).
     */
    record History(int scrollOffset, int rows, long budgetBytes, long bytes, boolean exact) {
    }

    /** The scrollback of {@code terminalId}; empty when the terminal is unknown or has exited. */
    Optional<History> history(String terminalId);

    /**
     * The {@code render_performance} counters, by wire name, in a fixed order: what made
     * screens change, what woke the terminal loops, the frames built for clients.
     * Each is a non-negative count since the terminal bundle started.
     */
    Map<String, Long> renderPerformance();

    /**
     * The {@code detection_performance} counters, by wire name, in a fixed order: the
     * process scan's work. Each is a non-negative count since the PTY host bundle started.
     */
    Map<String, Long> detectionPerformance();
}

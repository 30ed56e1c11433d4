package io.artuditu.agents.api;

import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What runs in each pane as an agent, and its state, as the agents family knows it.
 * Registered by that family's bundle; readers such as {@code session.snapshot} treat it as
 * optional and dynamic (without it they fall back to the process scan's names, status
 * {@code unknown}). Safe to call from any thread; never blocks.
 */
@ProviderType
public interface AgentStates {
    /**
     * One pane's agent.
     *
     * @param name the agent's manifest name ({@code claude}, {@code codex}, …)
     * @param status {@code idle}, {@code working}, {@code blocked}, {@code done} or {@code unknown}
     * @param source what decided the status: {@code screen}, {@code hook}, {@code report}
     *     (a leased authority), or {@code process} (recognised, no evidence yet)
     * @param pid the agent's process id, 0 when it is not known
     */
    record AgentState(String name, String status, String source, long pid) {
    }

    /** The agent of pane {@code paneId}; empty when none is recognised there. */
    Optional<AgentState> state(String paneId);

    /**
     * The detector's work since its bundle started, by wire name in a fixed order, for
     * {@code pane.list}'s {@code detection_performance}: non-negative counts, nothing that
     * names a pane, a process or text.
     */
    java.util.Map<String, Long> counters();
}

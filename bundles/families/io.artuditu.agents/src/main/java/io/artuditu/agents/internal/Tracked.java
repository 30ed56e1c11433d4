package io.artuditu.agents.internal;

import io.artuditu.agents.internal.detect.AgentManifest;
import io.artuditu.agents.internal.detect.PaneTracker;
import io.artuditu.agents.internal.detect.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** One pane's agent record. Owned by the agents loop: only its thread reads or writes it. */
final class Tracked {
    /** Most waits (agent.wait, agent.start's detection) one pane holds. */
    static final int MAX_WAITS = 64;
    /** Sources whose last sequence a pane remembers. */
    static final int MAX_SOURCES = 16;

    /** A leased authoritative state (agent.report). */
    record Lease(String source, String agent, Status status, String message, long sequence, long ttlSeconds,
            long expiresAt) {
    }

    /** An agent.wait or a detection wait; completes with whether it matched. */
    static final class Wait {
        final Status status;
        final String kind;
        final long deadline;
        final long since;
        final CompletableFuture<Boolean> done = new CompletableFuture<>();

        Wait(Status status, String kind, long since, long deadline) {
            this.status = status;
            this.kind = kind;
            this.since = since;
            this.deadline = deadline;
        }
    }

    /** The one waiting prompt of a pane. */
    static final class Prompt {
        final long submittedAt;
        final long changesAtSubmit;
        final Status until;
        final long deadline;
        final CompletableFuture<String> evidence = new CompletableFuture<>();
        boolean sawOutput;

        Prompt(long submittedAt, long changesAtSubmit, Status until, long deadline) {
            this.submittedAt = submittedAt;
            this.changesAtSubmit = changesAtSubmit;
            this.until = until;
            this.deadline = deadline;
        }
    }

    final String pane;
    String terminalId;
    long rootPid;
    /** The recognised agent's kind, or null; {@link #manifest} when a manifest knows it. */
    String agent;
    AgentManifest manifest;
    long agentPid;
    /** When the process scan was last asked about this pane (loop clock). */
    long identifiedAt;
    /** How the agent was recognised: process, script, start, hook, report. */
    String via;
    String processName;
    final PaneTracker tracker = new PaneTracker();
    /**
     * The process scan found no agent here at some point: an agent found later was started
     * in this pane (not one already running when the detector began to look).
     */
    boolean sawNoAgent;
    long evaluatedRevision = -1;
    /** When the screen was last evaluated, and when it is due again (0: not due) under the evaluation gap. */
    long evaluatedAt;
    long evaluateAt;
    /** Screen changes seen (coalesced notifications), and when the last one came. */
    long changes;
    long lastChangeAt;
    Lease lease;
    final Map<String, Long> lastSequence = new LinkedHashMap<>();
    String message;
    String sessionId;
    /** When to look at the process scan again while the agent is not (yet) recognised; 0 for never. */
    long recheckAt;
    int rechecks;
    /** agent.start's launch: what should appear here, until when. */
    String expected;
    long expectedUntil;
    Prompt prompt;
    final List<Wait> waits = new ArrayList<>();
    /** What was last published (pane.agent_status_changed fires on a difference). */
    String publishedAgent;
    Status publishedStatus = Status.UNKNOWN;

    Tracked(String pane) {
        this.pane = pane;
    }

    /** The kind shown for this pane: a live lease's agent first, else the recognised one. */
    String shownAgent(long now) {
        if (lease != null && lease.expiresAt() > now) {
            return lease.agent();
        }
        return agent;
    }
}

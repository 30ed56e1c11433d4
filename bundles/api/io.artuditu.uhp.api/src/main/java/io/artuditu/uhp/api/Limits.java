package io.artuditu.uhp.api;

/**
 * The protocol's fixed limits. The spec fixes most of them; the others are ours and
 * documented in {@code docs/protocol/discovery.md}. {@code uhp.capabilities} reports them.
 */
public final class Limits {
    /** Active API connections the server serves at once (spec). */
    public static final int MAX_CONNECTIONS = 80;
    /** Milliseconds a client has to deliver its first complete line (spec: five seconds). */
    public static final int INITIAL_FRAME_TIMEOUT_MS = 5_000;
    /**
     * Largest request line in bytes, newline excluded (ours). Generous for every
     * method in the reference (the largest bodies are 8 KiB notes in batches) while
     * keeping 80 connections under 80 MiB of buffers in the worst case.
     */
    public static final int MAX_REQUEST_BYTES = 1 << 20;
    /** Longest {@code id} or {@code method} string in bytes (ours). */
    public static final int MAX_ID_BYTES = 256;
    /** Event replay window: frames (spec). */
    public static final int REPLAY_MAX_FRAMES = 256;
    /** Event replay window: total bytes (spec). */
    public static final int REPLAY_MAX_BYTES = 1 << 20;
    /** Live terminal observe/control streams (spec). */
    public static final int TERMINAL_STREAMS_MAX = 8;
    /**
     * Live {@code attach.pane} streams (ours; the spec caps observe/control only). A workbench
     * holds one per visible pane, so several workbenches with split tabs fit; every stream is
     * also one of the {@code MAX_CONNECTIONS}.
     */
    public static final int ATTACH_STREAMS_MAX = 48;
    /** Frames queued per terminal stream (spec). */
    public static final int TERMINAL_STREAM_QUEUE_FRAMES = 2;

    private Limits() {
    }
}

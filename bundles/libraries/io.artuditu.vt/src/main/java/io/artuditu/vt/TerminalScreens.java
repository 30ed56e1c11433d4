package io.artuditu.vt;

import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Read access to the terminals' screens for parts that watch what programs draw (the agent
 * detector), by {@code terminal_id}. Registered as a service by the bundle that runs the
 * terminal emulators; readers treat it as optional and dynamic, so that bundle can be updated
 * while they keep serving (a reader sees nothing meanwhile, and its watch ends with the
 * service). It lives here, with the emulator it hands out, rather than in the workspace API,
 * so the core bundles never depend on the emulator and it can be updated on its own.
 */
@ProviderType
public interface TerminalScreens {
    /**
     * Runs {@code reader} with the terminal's emulator locked, so it sees whole output
     * chunks; empty when the terminal is not live. The reader must be quick, must not block
     * and must not keep the terminal: the PTY's reader thread waits while it runs.
     */
    <T> Optional<T> read(String terminalId, Function<Terminal, T> reader);

    /**
     * Registers {@code changed}, called with a terminal id after its screen changed (output,
     * resize, scroll, title), coalesced to at most once per notification window per screen,
     * and once more when its output ends. Called on the terminal bundle's notifier thread:
     * it must only hand off. Closing the handle ends the calls.
     */
    AutoCloseable watch(Consumer<String> changed);

    /**
     * Registers {@code typed}, called with a terminal id when a client writes input to its
     * program (an attached client's keys or paste, {@code pane.send_input}, the terminal
     * input methods), on the writing thread, before the bytes are queued: it must only hand
     * off. Closing the handle ends the calls.
     */
    AutoCloseable watchInput(Consumer<String> typed);

    /**
     * Writes input to a terminal's program through the one path every client's input takes:
     * the input watchers hear of it first ({@link #watchInput}), the screen's next change
     * (the echo) is signalled at once, and the bytes join the PTY's bounded input queue as
     * one write. Never blocks.
     *
     * @throws java.io.IOException an {@code io.artuditu.pty.PtyInputException} when the
     *     program has exited (or the terminal is not live) or when its input queue is full;
     *     nothing was queued
     */
    void write(String terminalId, byte[] bytes) throws java.io.IOException;
}

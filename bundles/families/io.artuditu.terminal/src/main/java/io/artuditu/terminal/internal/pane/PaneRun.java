package io.artuditu.terminal.internal.pane;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.terminal.internal.Screen;
import io.artuditu.terminal.internal.pane.CommandMarks.Finished;
import io.artuditu.terminal.internal.pane.CommandMarks.ShellState;
import io.artuditu.terminal.internal.pane.PaneFamily.Target;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.vt.Input;
import io.artuditu.vt.Keys;
import io.artuditu.vt.Mode;
import io.artuditu.vt.Terminal;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code pane.run}: types a command at the pane's shell prompt and submits it; with
 * {@code wait}, answers once the shell marks it finished (OSC 133 {@code D}), with its exit
 * status and the output between its {@code C} and {@code D} marks.
 *
 * <p>Rules, in the order they are checked: the text is at most 64 KiB of UTF-8 without NUL;
 * {@code timeout_s} and {@code max_output_bytes} need {@code wait}; a pane with a waiting run
 * takes no other run ({@code busy}); a waiting run needs a pane whose shell carries our marks
 * ({@code unsupported}), a first prompt within {@value #STARTUP_WINDOW_MS} ms of the pane's
 * start, and a shell at its prompt ({@code shell_busy}: the newest mark is a command that has
 * not finished, or a full-screen program owns the screen). The watcher is registered before
 * the command is written, and the count of finished commands is read in the same locked
 * moment as the modes the command is encoded for, so no finish can slip between.
 */
final class PaneRun {
    static final int DEFAULT_TIMEOUT_S = 30;
    static final int DEFAULT_MAX_OUTPUT = 64 << 10;
    /** How long after a pane's start its shell may take to draw the first marked prompt. */
    static final long STARTUP_WINDOW_MS = 5_000;

    private final PaneFamily family;
    /** Panes that have a waiting run, each with its run's token. */
    private final Map<String, Object> waiting = new ConcurrentHashMap<>();
    /** The wake-ups of the runs waiting now, so that {@link #close} can end their waits. */
    private final Set<Signal> active = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;

    PaneRun(PaneFamily family) {
        this.family = family;
    }

    ObjectNode run(Call call) {
        ObjectNode params = call.params();
        String command = params.get("command").textValue();
        boolean wait = params.path("wait").asBoolean(false);
        PaneFamily.checkText("command", command);
        if (command.indexOf('\0') >= 0) {
            throw PaneFamily.invalid("command contains a NUL character", Map.of("field", "command", "reason", "nul"));
        }
        if (!wait) {
            for (String f : List.of("timeout_s", "max_output_bytes")) {
                if (params.has(f)) {
                    throw PaneFamily.invalid(f + " only applies with wait:true", Map.of("field", f, "reason", "requires_wait"));
                }
            }
        } else if (command.isBlank()) {
            throw PaneFamily.invalid("a blank command runs nothing to wait for", Map.of("field", "command", "reason", "blank"));
        }
        Target t = family.target(call);
        if (!wait) {
            if (waiting.containsKey(t.id())) {
                throw busy(t);
            }
            byte[] bytes = t.screen().read(term -> submission(term, command));
            family.write(t, bytes);
            return family.head(call, "pane_run", t).put("submitted", true);
        }
        if (t.pane().shell() == null) {
            String program = PaneFamily.baseName(t.pane().command().isEmpty() ? "" : t.pane().command().get(0));
            throw unsupported(t, "no shell integration in this pane (it runs " + program
                    + "; marks are added only to bash and zsh started as plain interactive shells)");
        }
        Object token = new Object();
        if (waiting.putIfAbsent(t.id(), token) != null) {
            throw busy(t);
        }
        try {
            return runAndWait(call, t, command, params.path("timeout_s").asInt(DEFAULT_TIMEOUT_S),
                    params.path("max_output_bytes").asInt(DEFAULT_MAX_OUTPUT));
        } finally {
            waiting.remove(t.id(), token);
        }
    }

    /**
     * Ends every wait at once (the family is stopping): a run that already typed its command
     * answers {@code evidence:"cancelled"}, one that had not refuses with
     * {@code method_unavailable}. Runs after this are refused the same way.
     */
    void close() {
        closing = true;
        active.forEach(Signal::run);
    }

    /** What submits {@code command}: a paste (bracketed when the shell asked for it), then Enter. */
    static byte[] submission(Terminal term, String command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(Input.paste(command, term));
        out.writeBytes(Keys.encode(Keys.parse("enter"), term));
        return out.toByteArray();
    }

    private record Submitted(long finishedBefore, byte[] bytes) {
    }

    private ObjectNode runAndWait(Call call, Target t, String command, int timeoutS, int maxOutput) {
        Screen s = t.screen();
        Signal signal = new Signal();
        if (!s.watchNow(signal)) { // no coalescing window: the finished mark is answered at once
            throw PaneFamily.invalid("pane " + t.id() + " already has " + Screen.MAX_WATCHERS + " watchers",
                    Map.of("reason", "watchers_full", "limit", Screen.MAX_WATCHERS));
        }
        active.add(signal);
        call.connection().onClose(signal);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        try {
            awaitFirstPrompt(call, t, signal, deadline);
            if (closing) {
                throw stopping();
            }
            Submitted sub = s.read(term -> {
                if (CommandMarks.state(term) == ShellState.RUNNING) {
                    throw shellBusy(t);
                }
                if ((command.indexOf('\n') >= 0 || command.indexOf('\r') >= 0) && !term.mode(Mode.BRACKETED_PASTE)) {
                    throw PaneFamily.invalid("the shell has not turned on bracketed paste, so each line of a multi-line"
                            + " command would run on its own; send one line", Map.of("field", "command", "reason", "multiline"));
                }
                return new Submitted(term.commandsFinished(), submission(term, command));
            });
            long started = System.nanoTime();
            family.write(t, sub.bytes());
            while (true) {
                Finished f = s.read(term -> term.commandsFinished() > sub.finishedBefore()
                        ? CommandMarks.finished(term, sub.finishedBefore(), maxOutput) : null);
                if (f != null) {
                    ObjectNode r = result(call, t, true, started).put("matched", true).put("evidence", "finished");
                    if (f.exitStatus() == null) {
                        r.putNull("exit_status");
                    } else {
                        r.put("exit_status", f.exitStatus());
                    }
                    return r.put("output", f.output()).put("output_truncated", f.truncated());
                }
                if (s.ended() || !s.pty().isAlive()) {
                    return result(call, t, true, started).put("matched", false).put("evidence", "exited");
                }
                if (closing || Thread.currentThread().isInterrupted()) {
                    return result(call, t, true, started).put("matched", false).put("evidence", "cancelled");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || call.connection().closed()) {
                    return result(call, t, true, started).put("matched", false).put("evidence", "timeout");
                }
                try {
                    signal.await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // the loop answers cancelled
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw stopping();
        } finally {
            active.remove(signal);
            s.unwatch(signal);
        }
    }

    /** Waits (bounded by the startup window and the deadline) until the shell has drawn a marked prompt. */
    private void awaitFirstPrompt(Call call, Target t, Signal signal, long deadline) throws InterruptedException {
        long windowEnd = t.pane().createdMillis() + STARTUP_WINDOW_MS;
        while (t.screen().read(CommandMarks::state) == ShellState.NO_MARKS) {
            if (t.screen().ended()) {
                throw family.gone(t.id(), t.pane().terminalId());
            }
            long windowLeft = windowEnd - System.currentTimeMillis();
            if (windowLeft <= 0) {
                throw unsupported(t, "no shell integration in this pane (no prompt mark from its " + t.pane().shell()
                        + " within " + STARTUP_WINDOW_MS / 1000 + " s of its start: its startup files may have"
                        + " replaced the hooks, or another program runs in it now)");
            }
            long left = Math.min(windowLeft, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            if (closing) {
                throw stopping();
            }
            if (left <= 0 || call.connection().closed()) {
                throw PaneFamily.invalid("the shell in pane " + t.id() + " has not drawn its first prompt yet",
                        Map.of("reason", "shell_starting", "pane", t.id()));
            }
            signal.await(left);
        }
    }

    private ObjectNode result(Call call, Target t, boolean submitted, long startedNanos) {
        return family.head(call, "pane_run", t).put("submitted", submitted)
                .put("duration_ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
    }

    private static UhpException unsupported(Target t, String why) {
        return PaneFamily.invalid("pane " + t.id() + " cannot report when a command ends: " + why,
                Map.of("reason", "unsupported", "why", why, "pane", t.id()));
    }

    private static UhpException stopping() {
        return new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the panes family is stopping; nothing was typed");
    }

    private static UhpException busy(Target t) {
        return PaneFamily.invalid("pane " + t.id() + " already has a pane.run waiting for its command",
                Map.of("reason", "busy", "pane", t.id()));
    }

    private static UhpException shellBusy(Target t) {
        return PaneFamily.invalid("the shell in pane " + t.id() + " is running a command; wait for its prompt"
                + " (pane.status shell_state) or interrupt it (pane.send_input keys [\"ctrl+c\"])",
                Map.of("reason", "shell_busy", "pane", t.id()));
    }
}

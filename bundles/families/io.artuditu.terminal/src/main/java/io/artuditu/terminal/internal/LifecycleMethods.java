package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.Workspaces;
import io.artuditu.pty.Pty;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.EventWaiter;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * terminal.backend.create (a pane through the workspace model) and close (SIGHUP, then
 * SIGKILL after the grace, waiting a bounded time for the exit). Everything a request can
 * get wrong is checked here, before the model is asked, so each mistake gets its own
 * error and details.
 */
final class LifecycleMethods {
    static final int MAX_COLS = 1000;
    static final int MAX_ROWS = 500;
    static final int MAX_ENV = PaneRequest.MAX_ENV;
    /** How long close waits beyond the grace for the exit to be reported. */
    static final long CLOSE_SLACK_MS = 2000;
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,255}");

    private final Terminals terminals;

    LifecycleMethods(Terminals terminals) {
        this.terminals = terminals;
    }

    ObjectNode create(Call call) {
        JsonNode p = call.params();
        Workspaces ws = terminals.workspaces();
        List<String> command = new ArrayList<>();
        p.path("command").forEach(a -> command.add(a.textValue()));
        Path cwd = p.has("cwd") ? directory(p.get("cwd").textValue()) : null;
        Map<String, String> env = env(p.get("env"));
        String workspace = p.has("workspace_id") ? p.get("workspace_id").textValue() : null;
        if (workspace != null && ws.workspaces().stream().noneMatch(w -> w.id().equals(workspace))) {
            throw UhpException.notFound("workspace", workspace, "workspace_id", "no workspace " + workspace,
                    Map.of("workspace_id", workspace, "state", "unknown"));
        }
        if (ws.panes().size() >= Workspaces.MAX_PANES) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "the server already holds " + Workspaces.MAX_PANES + " panes",
                    Map.of("reason", "too_many_panes", "limit", Workspaces.MAX_PANES));
        }
        if (!command.isEmpty()) {
            executable(command.get(0), cwd, env);
        }
        int cols = p.path("cols").asInt(80);
        int rows = p.path("rows").asInt(24);
        PaneInfo pane;
        try {
            pane = ws.open(new PaneRequest(workspace, command, cwd, env, cols, rows, p.path("focus").asBoolean(false)),
                    call.ifRevision());
        } catch (IllegalArgumentException e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, e.getMessage());
        } catch (IOException | IllegalStateException e) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, "the process could not be started: " + e.getMessage(),
                    Map.of("command", command.isEmpty() ? "" : baseName(command.get(0))));
        }
        return call.newObject().put("type", "terminal_created").put("terminal_id", pane.terminalId())
                .put("pane", pane.id()).put("workspace_id", pane.workspaceId()).put("pid", pane.pid())
                .put("cols", cols).put("rows", rows);
    }

    private static Path directory(String cwd) {
        Path d;
        try {
            d = Path.of(cwd);
        } catch (InvalidPathException e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "cwd is not a path", Map.of("field", "cwd"));
        }
        if (!d.isAbsolute()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "cwd must be an absolute path", Map.of("field", "cwd"));
        }
        if (!Files.isDirectory(d)) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "cwd " + cwd + " is not an existing directory",
                    Map.of("field", "cwd", "reason", Files.exists(d) ? "not_a_directory" : "missing"));
        }
        return d;
    }

    private static Map<String, String> env(JsonNode env) {
        Map<String, String> out = new LinkedHashMap<>();
        if (env == null) {
            return out;
        }
        if (env.size() > MAX_ENV) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "env has " + env.size() + " entries; at most " + MAX_ENV,
                    Map.of("field", "env", "limit", MAX_ENV));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = env.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (!ENV_NAME.matcher(name).matches()) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "env name must match [A-Za-z_][A-Za-z0-9_]* (at most 256)",
                        Map.of("field", "env"));
            }
            if (name.startsWith("ARTUDITU_") || name.equals("TERM") || name.equals("COLORTERM")) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "env " + name + " is set by the server and cannot be given",
                        Map.of("field", "env." + name));
            }
            out.put(name, e.getValue().textValue());
        }
        return out;
    }

    /** Fails with spawn_failed unless argv[0] names an executable, as execvp would find it. */
    private static void executable(String argv0, Path cwd, Map<String, String> env) {
        boolean found;
        if (argv0.contains("/")) {
            Path p = Path.of(argv0);
            if (!p.isAbsolute() && cwd != null) {
                p = cwd.resolve(p);
            }
            found = p.isAbsolute() && Files.isRegularFile(p) && Files.isExecutable(p);
        } else {
            String path = env.getOrDefault("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            found = false;
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                try {
                    Path c = Path.of(dir, argv0);
                    if (Files.isRegularFile(c) && Files.isExecutable(c)) {
                        found = true;
                        break;
                    }
                } catch (InvalidPathException e) {
                    // an unusable PATH entry
                }
            }
        }
        if (!found) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, "no executable " + baseName(argv0) + " (looked up as execvp would)",
                    Map.of("command", baseName(argv0), "reason", "not_found"));
        }
    }

    private static String baseName(String argv0) {
        return argv0.substring(argv0.lastIndexOf('/') + 1);
    }

    /**
     * Signals, then waits at most grace + {@value #CLOSE_SLACK_MS} ms for the exit (and, for a
     * pane, for pane.closed, so the revision in the answer includes it). A client that leaves
     * ends the wait; the process is ended either way.
     */
    ObjectNode close(Call call) {
        Screen s = terminals.live(call);
        Pty pty = s.pty();
        long grace = call.params().path("grace_ms").asLong(1000);
        String pane = terminals.paneOf(pty);
        EventBus bus = terminals.bus();
        EventWaiter closed = null;
        boolean paneInModel = pane != null && terminals.workspaces().pane(pane).isPresent();
        if (paneInModel && bus != null) {
            closed = bus.await("pane.closed", call.newObject().put("terminal_id", s.terminalId()), OptionalLong.empty());
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(grace + CLOSE_SLACK_MS);
            if (!paneInModel || !terminals.workspaces().close(pane, grace)) {
                pty.terminate(grace);
            }
            CountDownLatch done = new CountDownLatch(1);
            pty.exit().whenComplete((st, err) -> done.countDown());
            call.connection().onClose(done::countDown);
            boolean exited = await(done, deadline) && pty.exitStatus().isPresent();
            if (exited && closed != null) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left > 0) {
                    EventWaiter w = closed;
                    call.connection().onClose(w::close);
                    w.await(left);
                }
            }
            ObjectNode r = call.newObject().put("type", "terminal_closed").put("terminal_id", s.terminalId()).put("pane", pane);
            if (exited) {
                r.put("exit_status", pty.exitStatus().getAsInt()).put("exiting", false);
            } else {
                r.putNull("exit_status").put("exiting", true);
            }
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "interrupted while waiting for the exit");
        } finally {
            if (closed != null) {
                closed.close();
            }
        }
    }

    private static boolean await(CountDownLatch latch, long deadlineNanos) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        return left > 0 && latch.await(left, TimeUnit.NANOSECONDS);
    }
}

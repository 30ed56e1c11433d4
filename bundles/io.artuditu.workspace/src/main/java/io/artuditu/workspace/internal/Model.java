package io.artuditu.workspace.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.workspace.PaneInfo;
import io.artuditu.workspace.PaneRequest;
import io.artuditu.workspace.WorkspaceInfo;
import io.artuditu.workspace.Workspaces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The model without OSGi. State is one immutable {@link State} replaced by the app loop
 * on every change, so readers on any thread see a consistent instant without locking.
 */
final class Model implements Workspaces, AutoCloseable {
    static final String PANE_ENV = "ARTUDITU_PANE_ID";
    static final String WORKSPACE_ENV = "ARTUDITU_WORKSPACE_ID";
    static final String SOCKET_ENV = "ARTUDITU_SOCKET_PATH";

    record State(Map<String, WorkspaceInfo> workspaces, Map<String, PaneInfo> panes, String focusedPane,
            String focusedWorkspace) {
    }

    private final PtyHost host;
    private final Path home;
    private final Supplier<Path> socketPath;
    private final BiConsumer<String, ObjectNode> publish;
    private final Path defaultCwd;
    private final AppLoop loop = new AppLoop();
    private final SecureRandom random = new SecureRandom();
    private volatile State state = new State(Map.of(), Map.of(), null, null);
    private long nextPane = 1;

    /**
     * @param publish receives {@code (event, data)} for the event bus; called on the app loop
     */
    Model(PtyHost host, Path home, Path defaultCwd, Supplier<Path> socketPath, BiConsumer<String, ObjectNode> publish) {
        this.host = host;
        this.home = home;
        this.defaultCwd = defaultCwd;
        this.socketPath = socketPath;
        this.publish = publish;
    }

    /** Takes back the panes of PTYs that a previous instance of the model spawned. */
    void adopt() throws Exception {
        loop.call(() -> {
            for (Pty p : host.list()) {
                String paneId = p.env().get(PANE_ENV);
                String wsId = p.env().get(WORKSPACE_ENV);
                if (paneId == null || wsId == null || !paneId.matches("[1-9][0-9]{0,17}") || !p.isAlive()) {
                    continue;
                }
                if (!state.workspaces().containsKey(wsId)) {
                    putWorkspace(new WorkspaceInfo(wsId, "restored", p.cwd()));
                }
                PaneInfo info = new PaneInfo(paneId, p.id(), wsId, p.command(), p.cwd(), null,
                        p.env().get("ARTUDITU_SHELL_INTEGRATION"), p.pid(), System.currentTimeMillis());
                nextPane = Math.max(nextPane, Long.parseLong(paneId) + 1);
                putPane(info, true);
                watchExit(p, paneId);
            }
            return null;
        });
    }

    @Override
    public PaneInfo open(PaneRequest request) throws IOException {
        try {
            return loop.call(() -> openOnLoop(request));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private PaneInfo openOnLoop(PaneRequest r) throws IOException {
        State s = state;
        if (s.panes().size() >= MAX_PANES) {
            throw new IllegalArgumentException("the server already holds " + MAX_PANES + " panes");
        }
        WorkspaceInfo ws;
        if (r.workspaceId() != null) {
            ws = s.workspaces().get(r.workspaceId());
            if (ws == null) {
                throw new IllegalArgumentException("no such workspace: " + r.workspaceId());
            }
        } else {
            ws = s.focusedWorkspace() == null ? null : s.workspaces().get(s.focusedWorkspace());
        }
        Path cwd = r.cwd() != null ? r.cwd() : ws != null ? ws.cwd() : defaultCwd;
        if (!Files.isDirectory(cwd)) {
            throw new IllegalArgumentException("not a directory: " + cwd);
        }
        SpawnRequest.checkSize(r.cols(), r.rows());
        if (ws == null) {
            ws = new WorkspaceInfo("workspace_" + HexFormat.of().formatHex(bytes(8)), cwd.getFileName() == null ? "/" : cwd.getFileName().toString(), cwd);
        }
        String paneId = Long.toString(nextPane);
        Map<String, String> env = new HashMap<>(r.env());
        env.keySet().removeIf(k -> k.startsWith("ARTUDITU_"));
        env.put(PANE_ENV, paneId);
        env.put(WORKSPACE_ENV, ws.id());
        Path socket = socketPath.get();
        if (socket != null) {
            env.put(SOCKET_ENV, socket.toString());
        }
        List<String> command = r.command().isEmpty() ? List.of(defaultShell()) : r.command();
        ShellIntegration.Launch launch = ShellIntegration.prepare(command, env, home);
        Map<String, String> launchEnv = new HashMap<>(launch.env());
        if (launch.shell() != null) {
            launchEnv.put("ARTUDITU_SHELL_INTEGRATION", launch.shell());
        }
        Pty pty = host.spawn(new SpawnRequest(launch.command(), cwd, launchEnv, r.cols(), r.rows()), null);
        nextPane++;
        if (!state.workspaces().containsKey(ws.id())) {
            putWorkspace(ws);
        }
        PaneInfo info = new PaneInfo(paneId, pty.id(), ws.id(), command, cwd, null, launch.shell(), pty.pid(),
                System.currentTimeMillis());
        putPane(info, r.focus() || state.focusedPane() == null);
        watchExit(pty, paneId);
        return info;
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static String defaultShell() {
        String sh = System.getenv("SHELL");
        return sh != null && !sh.isBlank() && Files.isExecutable(Path.of(sh)) ? sh : "/bin/sh";
    }

    private void putWorkspace(WorkspaceInfo ws) {
        State s = state;
        Map<String, WorkspaceInfo> w = new LinkedHashMap<>(s.workspaces());
        w.put(ws.id(), ws);
        state = new State(Map.copyOf(w), s.panes(), s.focusedPane(), s.focusedWorkspace() == null ? ws.id()
                : s.focusedWorkspace());
        ObjectNode d = JsonNodeFactory.instance.objectNode().put("workspace_id", ws.id()).put("name", ws.name());
        publish.accept("workspace.created", d);
    }

    private void putPane(PaneInfo info, boolean focus) {
        State s = state;
        Map<String, PaneInfo> p = new LinkedHashMap<>(s.panes());
        p.put(info.id(), info);
        state = new State(s.workspaces(), java.util.Collections.unmodifiableMap(p),
                focus ? info.id() : s.focusedPane(), focus ? info.workspaceId() : s.focusedWorkspace());
        publish.accept("pane.created", JsonNodeFactory.instance.objectNode().put("pane", info.id())
                .put("terminal_id", info.terminalId()).put("workspace_id", info.workspaceId()));
    }

    private void watchExit(Pty pty, String paneId) {
        pty.exit().whenComplete((status, error) -> loop.post(() -> removePane(paneId, status == null ? -1 : status)));
    }

    private void removePane(String paneId, int status) {
        State s = state;
        PaneInfo gone = s.panes().get(paneId);
        if (gone == null) {
            return;
        }
        Map<String, PaneInfo> p = new LinkedHashMap<>(s.panes());
        p.remove(paneId);
        String focus = s.focusedPane();
        if (paneId.equals(focus)) {
            List<String> ids = new ArrayList<>(p.keySet());
            focus = ids.isEmpty() ? null : ids.get(ids.size() - 1);
        }
        state = new State(s.workspaces(), java.util.Collections.unmodifiableMap(p), focus, s.focusedWorkspace());
        ObjectNode d = JsonNodeFactory.instance.objectNode().put("pane", paneId).put("terminal_id", gone.terminalId())
                .put("workspace_id", gone.workspaceId());
        if (status >= 0) {
            d.put("exit_status", status);
        } else {
            d.putNull("exit_status");
        }
        publish.accept("pane.closed", d);
    }

    @Override
    public Optional<PaneInfo> pane(String paneId) {
        return Optional.ofNullable(state.panes().get(paneId));
    }

    @Override
    public Optional<PaneInfo> paneOfTerminal(String terminalId) {
        return state.panes().values().stream().filter(p -> p.terminalId().equals(terminalId)).findFirst();
    }

    @Override
    public Optional<PaneInfo> focusedPane() {
        State s = state;
        return s.focusedPane() == null ? Optional.empty() : Optional.ofNullable(s.panes().get(s.focusedPane()));
    }

    @Override
    public List<PaneInfo> panes() {
        return List.copyOf(state.panes().values());
    }

    @Override
    public List<WorkspaceInfo> workspaces() {
        return List.copyOf(state.workspaces().values());
    }

    @Override
    public boolean close(String paneId, long graceMillis) {
        PaneInfo p = state.panes().get(paneId);
        if (p == null) {
            return false;
        }
        host.find(p.terminalId()).ifPresent(pty -> pty.terminate(graceMillis));
        return true;
    }

    /** Stops the loop; the PTYs keep running (they belong to the host). */
    @Override
    public void close() {
        loop.close();
    }

    @Override
    public io.artuditu.workspace.topology.Topology topology() {
        throw new UnsupportedOperationException("the topology is not wired to the model yet");
    }

    @Override
    public <T> T change(Operation<T> operation) {
        throw new UnsupportedOperationException("the topology is not wired to the model yet");
    }
}

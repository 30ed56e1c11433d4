package io.artuditu.model.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The model without OSGi. Its one state is a {@link Topology}, replaced by the app loop on
 * every change; what the topology does not know about a pane's process (pid, shell,
 * creation time) sits beside it in {@link #procs}, touched only on the loop. Readers on any
 * thread read {@link #held}: the topology with the {@link PaneInfo}/{@link WorkspaceInfo}
 * views derived from it when it was installed, one consistent instant without locking.
 *
 * <p>A pane's life: a {@link Spawner} starts its PTY inside an operation, the change that
 * adds it is installed, and its exit watcher is registered. It leaves the topology either
 * when a change removes it (tab or workspace close: the model then ends the process) or
 * when its process exits ({@link Lifecycle#removePane}); {@code pane.closed} with the
 * exit status is published when the process has exited, in both cases.
 */
final class Model implements Workspaces, AutoCloseable {
    static final String PANE_ENV = "ARTUDITU_PANE_ID";
    static final String WORKSPACE_ENV = "ARTUDITU_WORKSPACE_ID";
    /** A worktree's port block (docs/worktrees.md): from the workspace metadata below. */
    static final String PORT_ENV = "ARTUDITU_PORT";
    static final String PORT_METADATA = "worktree_port";
    static final String SOCKET_ENV = "ARTUDITU_SOCKET_PATH";
    /** SIGHUP, then SIGKILL after this long, for the panes a change removed. */
    static final long CLOSE_GRACE_MILLIS = 1000;
    /** How many exited panes the model remembers, for the not_found of a pane that left with its process. */
    static final int EXITS = 64;
    private static final List<String> KEY_ORDER = List.of("pane", "terminal_id", "workspace_id", "tab_id",
            "from_tab_id", "to_tab_id", "name", "cwd", "kind", "from", "to");

    /** A pane's process facts the topology does not hold; kept from spawn until the process exits. */
    record Proc(String terminalId, String workspaceId, String shell, long pid, long createdMillis) {
    }

    /** One installed instant and the read views derived from it. */
    private record Held(Topology topology, Map<String, PaneInfo> panes, Map<String, PaneInfo> byTerminal,
            List<WorkspaceInfo> workspaces) {
    }

    /** A PTY started during one operation, not yet part of the model. */
    private record Spawned(String paneId, Pty pty, Proc proc) {
    }

    private final PtyHost host;
    private final Path home;
    private final Supplier<Path> socketPath;
    private final BiConsumer<String, ObjectNode> publish;
    private final Path defaultCwd;
    private final AppLoop loop = new AppLoop();
    private final SecureRandom random = new SecureRandom();
    private final Lifecycle lifecycle = new Lifecycle(this::hex16);
    /** The ids a first pass drew, drawn again by its second pass; loop only. */
    private ArrayDeque<String> replay;
    /** While a first pass runs: the ids it draws, for its second pass; loop only. */
    private List<String> drawn;
    /**
     * The reservation: held by the one spawning change that is between its passes (see
     * {@link #run}), whose PTYs start off the loop under the pane ids it planned. Set on the
     * loop; other spawning changes wait for it on their own (request) threads; changes that
     * spawn nothing never look at it.
     */
    private final AtomicReference<CompletableFuture<Void>> reservation = new AtomicReference<>();
    /** Checks an if_revision where the change is made (the event bus's rule); loop only. */
    private volatile LongConsumer revisions = r -> { };
    /** The exits of the newest {@value #EXITS} panes that left with their process, by pane id; loop writes. */
    private final Map<String, PaneExit> exits = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PaneExit> eldest) {
            return size() > EXITS;
        }
    });
    /** Pane id → process facts; only the app loop reads or writes it. */
    private final Map<String, Proc> procs = new HashMap<>();
    private volatile Held held;
    private boolean changing;
    /** Where installed states go to be saved; null until {@link #start} (and in tests that do not persist). */
    private volatile SessionStore store;

    /**
     * @param publish receives {@code (event, data)} for the event bus; called on the app loop
     */
    Model(PtyHost host, Path home, Path defaultCwd, Supplier<Path> socketPath, BiConsumer<String, ObjectNode> publish) {
        this.host = host;
        this.home = home;
        this.defaultCwd = defaultCwd;
        this.socketPath = socketPath;
        this.publish = publish;
        this.held = derive(Topology.empty());
    }

    // ---------------------------------------------------------------- the topology

    /** Where an if_revision is checked (the event bus's rule, {@code EventBus.checkRevision}); on the loop. */
    void revisions(LongConsumer check) {
        this.revisions = check;
    }

    @Override
    public Optional<PaneExit> exited(String paneId) {
        return Optional.ofNullable(exits.get(paneId));
    }

    /** {@link #exited} as {@code not_found} evidence ({@code state: exited}, …); empty for none. */
    Map<String, Object> exitEvidence(String paneId) {
        PaneExit e = exits.get(paneId);
        return e == null ? Map.of() : e.evidence();
    }

    @Override
    public Topology topology() {
        return held.topology();
    }

    @Override
    public <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException {
        return run(operation, Spawner.Launch.shell(), ifRevision, r -> r);
    }

    /**
     * Runs an operation and installs its change. The operation runs on the app loop against
     * the state of that instant, with a spawner that starts nothing but records the panes it
     * asks for: an operation that spawns nothing (or is refused) is installed right there,
     * in one pass. One that spawns takes the reservation (loop-owned: one spawning change
     * between its passes at a time, so the pane ids it planned stay the next ones; another
     * one waits for it on its own request thread and then runs again from the start), its
     * PTYs start on the caller's thread while the loop serves other changes, and a second
     * pass on the loop runs the operation again, against the state then, with a spawner
     * that hands back the PTYs started for it; the change is installed and its events
     * published only then. A spawn that fails releases the reservation and leaves the model
     * as it was (no state, no event, the same exception as before). The ids the first pass
     * drew (workspace, tab) are drawn again in the second, so the children's environment
     * matches; a second pass that asks for a different pane (the state moved under it)
     * spawns that one on the loop and ends the PTYs it did not use. {@code if_revision} is
     * checked on the loop before each pass, so nothing changes between the check and the
     * commit.
     *
     * @param after what to answer, computed on the loop right after the commit
     */
    private <T, R> R run(Operation<T> operation, Spawner.Launch launch, OptionalLong ifRevision,
            Function<T, R> after) throws IOException {
        while (true) {
            First<R> first = onLoop(() -> firstPass(operation, launch, ifRevision, after));
            if (first.done()) {
                return first.answer();
            }
            if (first.busy() != null) {
                awaitReservation(first.busy());
                continue;
            }
            CompletableFuture<Void> mine = first.reservation();
            List<Spawned> started = new ArrayList<>();
            try {
                for (Plan plan : first.plans()) {
                    started.add(start(plan));
                }
            } catch (IOException | RuntimeException | Error e) {
                started.forEach(sp -> sp.pty().terminate(0));
                release(mine);
                throw e;
            }
            AtomicBoolean ran = new AtomicBoolean();
            try {
                return onLoop(() -> {
                    ran.set(true);
                    try {
                        checkRevision(ifRevision, started);
                        return changeOnLoop(operation, launch, after, first.plans(), first.ids(), started);
                    } finally {
                        release(mine);
                    }
                });
            } catch (IllegalStateException e) {
                if (!ran.get()) { // the loop refused the second pass (stopped, or full): nothing of it stays
                    started.forEach(sp -> sp.pty().terminate(0));
                    release(mine);
                }
                throw e;
            }
        }
    }

    /**
     * What the first pass found: the change is installed ({@code done}, with the answer);
     * another spawning change holds the reservation ({@code busy}: wait for it, then run
     * again); or this change spawns and now holds the reservation (its plans and the ids it
     * drew).
     */
    private record First<R>(boolean done, R answer, CompletableFuture<Void> busy, CompletableFuture<Void> reservation,
            List<Plan> plans, List<String> ids) {
    }

    /** A pane's process as a first pass planned it. */
    private record Plan(String paneId, String workspaceId, Path cwd, Spawner.Launch launch) {
    }

    /** The first pass, on the loop (see {@link #run}). */
    private <T, R> First<R> firstPass(Operation<T> operation, Spawner.Launch launch, OptionalLong ifRevision,
            Function<T, R> after) throws IOException {
        checkRevision(ifRevision, List.of());
        if (changing) {
            throw new IllegalStateException("an operation must not call change() itself");
        }
        List<Plan> plans = new ArrayList<>();
        drawn = new ArrayList<>();
        changing = true;
        PlanSpawner spawner = new PlanSpawner(launch, plans);
        Topology before = held.topology();
        Change<T> c;
        try {
            c = operation.apply(before, spawner);
            if (c == null || c.state() == null) {
                throw new IllegalStateException("the operation returned no state");
            }
        } finally {
            spawner.closed = true;
            changing = false;
        }
        List<String> ids = List.copyOf(drawn);
        drawn = null;
        if (plans.isEmpty()) {
            commit(before, c, List.of());
            return new First<>(true, after.apply(c.result()), null, null, List.of(), List.of());
        }
        CompletableFuture<Void> r = reservation.get();
        if (r != null) {
            return new First<>(false, null, r, null, List.of(), List.of());
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        reservation.set(mine);
        return new First<>(false, null, null, mine, List.copyOf(plans), ids);
    }

    /** Waits, on a request thread, for the spawning change that holds the reservation to end. */
    private static void awaitReservation(CompletableFuture<Void> busy) throws IOException {
        try {
            busy.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting to start a pane", e);
        } catch (java.util.concurrent.ExecutionException e) {
            // it failed; this change runs again all the same
        }
    }

    /** Ends a reservation (from any thread: a loop that refused the second pass never runs it). */
    private void release(CompletableFuture<Void> mine) {
        reservation.compareAndSet(mine, null);
        mine.complete(null);
    }

    /** Refuses a change whose if_revision is stale, ending the PTYs started for it; loop only. */
    private void checkRevision(OptionalLong ifRevision, List<Spawned> started) {
        if (ifRevision.isEmpty()) {
            return;
        }
        try {
            revisions.accept(ifRevision.getAsLong());
        } catch (RuntimeException e) {
            started.forEach(sp -> sp.pty().terminate(0));
            throw e;
        }
    }

    /**
     * The operation on the loop against the current state, its change installed. The
     * spawner hands back {@code started} (what the caller started for {@code plans}) when
     * asked for the same panes, and starts anything else here. Every PTY started for it that
     * the installed state does not hold is ended, so an operation cannot leave a process
     * without a pane.
     */
    private <T, R> R changeOnLoop(Operation<T> operation, Spawner.Launch launch, Function<T, R> after,
            List<Plan> plans, List<String> ids, List<Spawned> started) throws IOException {
        if (changing) {
            started.forEach(s -> s.pty().terminate(0));
            throw new IllegalStateException("an operation must not call change() itself");
        }
        changing = true;
        List<Spawned> spawned = new ArrayList<>();
        PtySpawner spawner = new PtySpawner(launch, spawned, plans, new ArrayList<>(started));
        replay = new ArrayDeque<>(ids);
        try {
            Topology before = held.topology();
            Change<T> c;
            try {
                c = operation.apply(before, spawner);
                if (c == null || c.state() == null) {
                    throw new IllegalStateException("the operation returned no state");
                }
            } catch (IOException | RuntimeException | Error e) {
                started.forEach(s -> s.pty().terminate(0));
                spawned.forEach(s -> s.pty().terminate(0));
                throw e;
            }
            for (Spawned s : started) {
                if (!spawned.contains(s)) {
                    s.pty().terminate(0); // started for a pane this pass did not ask for
                }
            }
            commit(before, c, spawned);
            return after.apply(c.result());
        } finally {
            spawner.closed = true;
            replay = null;
            changing = false;
        }
    }

    /** Starts a planned pane's PTY: its identity in its environment, shell integration. */
    private Spawned start(Plan plan) throws IOException {
        Map<String, String> env = new HashMap<>(plan.launch().env());
        String port = worktreePort(plan.workspaceId(), env.get(PORT_ENV));
        env.keySet().removeIf(k -> k.startsWith("ARTUDITU_"));
        if (port != null) {
            env.put(PORT_ENV, port);
        }
        env.put(PANE_ENV, plan.paneId());
        env.put(WORKSPACE_ENV, plan.workspaceId());
        Path socket = socketPath.get();
        if (socket != null) {
            env.put(SOCKET_ENV, socket.toString());
        }
        ShellIntegration.Launch sh = ShellIntegration.prepare(command(plan.launch()), env, home);
        Map<String, String> launchEnv = new HashMap<>(sh.env());
        if (sh.shell() != null) {
            launchEnv.put("ARTUDITU_SHELL_INTEGRATION", sh.shell());
        }
        Pty pty = host.spawn(new SpawnRequest(sh.command(), plan.cwd(), launchEnv, plan.launch().cols(),
                plan.launch().rows()), null);
        return new Spawned(plan.paneId(), pty,
                new Proc(pty.id(), plan.workspaceId(), sh.shell(), pty.pid(), System.currentTimeMillis()));
    }

    /**
     * {@code ARTUDITU_PORT} for a pane of this workspace: the workspace's {@code worktree_port}
     * metadata (set by the worktrees family), else what the launch asked for (the first pane
     * of a workspace that change is creating); only a port number 1024–65526 (the block's
     * first of ten) is passed, anything else is dropped.
     */
    private String worktreePort(String workspaceId, String fromLaunch) {
        Object meta = held.topology().workspace(workspaceId).map(w -> w.metadata().get(PORT_METADATA)).orElse(null);
        String v = meta instanceof Long l ? Long.toString(l) : fromLaunch;
        if (v == null || !v.matches("[0-9]{4,5}")) {
            return null;
        }
        int p = Integer.parseInt(v);
        return p >= 1024 && p <= 65526 ? v : null;
    }

    /** What a launch runs: its command, or the user's shell. */
    private static List<String> command(Spawner.Launch launch) {
        return launch.command().isEmpty() ? List.of(defaultShell()) : launch.command();
    }

    private void commit(Topology before, Change<?> c, List<Spawned> spawned) {
        Topology after = c.state();
        for (Spawned s : spawned) {
            Pane p = after.panes().get(s.paneId());
            if (p == null || !s.pty().id().equals(p.terminalId())) {
                s.pty().terminate(0); // spawned but not kept: no pane, so no pane.closed
            } else {
                procs.put(s.paneId(), s.proc());
                watchExit(s.pty(), s.paneId());
            }
        }
        List<Pane> removed = new ArrayList<>();
        for (Pane p : before.panes().values()) {
            if (!after.panes().containsKey(p.id())) {
                removed.add(p);
            }
        }
        if (after != before) {
            install(after); // a change that changed nothing is not saved again
        }
        for (Pane p : removed) {
            Proc f = procs.get(p.id());
            if (f != null && p.terminalId() != null && host.find(p.terminalId()).map(Pty::isAlive).orElse(false)) {
                String ws = before.locate(p.id()).map(l -> l.workspace().id()).orElse(f.workspaceId());
                procs.put(p.id(), new Proc(f.terminalId(), ws, f.shell(), f.pid(), f.createdMillis()));
                host.find(p.terminalId()).ifPresent(pty -> pty.terminate(CLOSE_GRACE_MILLIS));
                // pane.closed follows from the exit watcher, with the exit status
            } else {
                procs.remove(p.id());
                String ws = before.locate(p.id()).map(l -> l.workspace().id()).orElse(f == null ? null : f.workspaceId());
                publishClosed(p.id(), p.terminalId(), ws, -1);
            }
        }
        for (TopologyEvent e : c.events()) {
            publish.accept(e.name(), json(e.data()));
        }
    }

    /** Refuses a launch whose size the PTY host would refuse, as the field {@code size}. */
    private static void checkSize(Spawner.Launch launch) {
        try {
            SpawnRequest.checkSize(launch.cols(), launch.rows());
        } catch (IllegalArgumentException e) {
            throw UhpException.invalid("size", "out_of_range", e.getMessage());
        }
    }

    /**
     * The first pass's spawner: checks and records what it would start, starts nothing,
     * and answers with a pane whose terminal id is a placeholder (that pass's state is
     * never installed).
     */
    private final class PlanSpawner implements Spawner {
        private final Spawner.Launch launch;
        private final List<Plan> plans;
        private volatile boolean closed;

        PlanSpawner(Spawner.Launch launch, List<Plan> plans) {
            this.launch = launch;
            this.plans = plans;
        }

        @Override
        public Spawner with(Spawner.Launch l) {
            PlanSpawner s = new PlanSpawner(l, plans);
            s.closed = closed;
            return s;
        }

        @Override
        public String newId() {
            return hex16();
        }

        @Override
        public Pane spawn(String paneId, String workspaceId, Path cwd) {
            if (closed) {
                throw new IllegalStateException("a spawner works only inside the operation it was given to");
            }
            checkSize(launch);
            plans.add(new Plan(paneId, workspaceId, cwd, launch));
            return new Pane(paneId, "planned-" + paneId, cwd, command(launch), null, null);
        }
    }

    /**
     * The model's spawner on the loop: hands back a PTY the first pass planned and the
     * caller started (same pane, workspace, folder and launch), else starts one here.
     */
    private final class PtySpawner implements Spawner {
        private final Spawner.Launch launch;
        private final List<Spawned> spawned;
        private final List<Plan> plans;
        private final List<Spawned> started;
        private volatile boolean closed;

        PtySpawner(Spawner.Launch launch, List<Spawned> spawned) {
            this(launch, spawned, List.of(), new ArrayList<>());
        }

        PtySpawner(Spawner.Launch launch, List<Spawned> spawned, List<Plan> plans, List<Spawned> started) {
            this.launch = launch;
            this.spawned = spawned;
            this.plans = plans;
            this.started = started;
        }

        @Override
        public Spawner with(Spawner.Launch l) {
            PtySpawner s = new PtySpawner(l, spawned, plans, started);
            s.closed = closed;
            return s;
        }

        @Override
        public String newId() {
            return hex16();
        }

        @Override
        public Pane spawn(String paneId, String workspaceId, Path cwd) throws IOException {
            if (closed || !changing) {
                throw new IllegalStateException("a spawner works only inside the operation it was given to");
            }
            for (int i = 0; i < plans.size(); i++) {
                Plan p = plans.get(i);
                Spawned s = started.get(i);
                if (s != null && p.paneId().equals(paneId) && p.workspaceId().equals(workspaceId) && p.cwd().equals(cwd)
                        && p.launch().equals(launch)) {
                    started.set(i, null);
                    spawned.add(s);
                    return new Pane(paneId, s.pty().id(), cwd, command(launch), null, null);
                }
            }
            checkSize(launch);
            Spawned s = start(new Plan(paneId, workspaceId, cwd, launch));
            spawned.add(s);
            return new Pane(paneId, s.pty().id(), cwd, command(launch), null, null);
        }
    }

    private void watchExit(Pty pty, String paneId) {
        String terminalId = pty.id();
        pty.exit().whenComplete((status, error) -> loop.post(() -> exited(paneId, terminalId,
                status == null ? -1 : status)));
    }

    /** A pane's process ended: the pane leaves the topology (if a change has not removed it already). */
    private void exited(String paneId, String terminalId, int status) {
        Proc f = procs.get(paneId);
        if (f == null || !f.terminalId().equals(terminalId)) {
            return; // a PTY that never became (or no longer is) this pane
        }
        procs.remove(paneId);
        Topology t = held.topology();
        Pane p = t.panes().get(paneId);
        List<TopologyEvent> events = List.of();
        String ws = f.workspaceId();
        if (p != null && terminalId.equals(p.terminalId())) {
            ws = t.locate(paneId).map(l -> l.workspace().id()).orElse(ws);
            Change<Void> c = Lifecycle.removePane(t, paneId);
            install(c.state());
            events = c.events();
        }
        publishClosed(paneId, terminalId, ws, status);
        for (TopologyEvent e : events) {
            publish.accept(e.name(), json(e.data()));
        }
    }

    private void publishClosed(String paneId, String terminalId, String workspaceId, int status) {
        ObjectNode d = JsonNodeFactory.instance.objectNode().put("pane", paneId).put("terminal_id", terminalId)
                .put("workspace_id", workspaceId);
        if (status >= 0) {
            d.put("exit_status", status);
            exits.put(paneId, new PaneExit(terminalId, status, System.currentTimeMillis()));
        } else {
            d.putNull("exit_status");
        }
        publish.accept("pane.closed", d);
    }

    /** A topology event's flat data as JSON, the usual keys first. */
    static ObjectNode json(Map<String, Object> data) {
        List<String> keys = new ArrayList<>(data.keySet());
        keys.sort(Comparator.comparingInt((String k) -> {
            int i = KEY_ORDER.indexOf(k);
            return i < 0 ? KEY_ORDER.size() : i;
        }).thenComparing(Comparator.naturalOrder()));
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        for (String k : keys) {
            o.set(k, value(data.get(k)));
        }
        return o;
    }

    /** An event value as JSON; a nested map (workspace metadata) keeps its own order. */
    private static JsonNode value(Object v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (v == null) {
            return f.nullNode();
        } else if (v instanceof String s) {
            return f.textNode(s);
        } else if (v instanceof Integer i) {
            return f.numberNode(i);
        } else if (v instanceof Long l) {
            return f.numberNode(l);
        } else if (v instanceof Number n) {
            return f.numberNode(n.doubleValue());
        } else if (v instanceof Boolean b) {
            return f.booleanNode(b);
        } else if (v instanceof Map<?, ?> m) {
            ObjectNode o = f.objectNode();
            m.forEach((k, x) -> o.set(String.valueOf(k), value(x)));
            return o;
        }
        return f.textNode(v.toString());
    }

    /** Makes {@code t} the current state and hands it (immutable) to the session store, which writes it later. */
    private void install(Topology t) {
        held = derive(t);
        SessionStore s = store;
        if (s != null) {
            s.changed(t);
        }
    }

    private Held derive(Topology t) {
        Map<String, String> workspaceOf = new HashMap<>();
        List<WorkspaceInfo> workspaces = new ArrayList<>();
        for (Workspace w : t.workspaces()) {
            workspaces.add(new WorkspaceInfo(w.id(), w.name(), w.cwd()));
            for (Tab tab : w.tabs()) {
                if (tab.root() != null) {
                    for (String p : Topology.leaves(tab.root())) {
                        workspaceOf.put(p, w.id());
                    }
                }
            }
        }
        Map<String, PaneInfo> panes = new LinkedHashMap<>();
        Map<String, PaneInfo> byTerminal = new HashMap<>();
        for (Pane p : t.panes().values()) {
            Proc f = procs.get(p.id());
            PaneInfo info = new PaneInfo(p.id(), p.terminalId(), workspaceOf.get(p.id()), p.command(), p.cwd(),
                    p.name(), f == null ? null : f.shell(), f == null ? 0 : f.pid(), f == null ? 0 : f.createdMillis());
            panes.put(p.id(), info);
            if (p.terminalId() != null) {
                byTerminal.put(p.terminalId(), info);
            }
        }
        return new Held(t, Collections.unmodifiableMap(panes), Map.copyOf(byTerminal), List.copyOf(workspaces));
    }

    // ---------------------------------------------------------------- persistence

    /**
     * Starts the model on {@code home}'s session: restores the saved session (if any) with
     * its ids, takes back running PTYs ({@link #adopt}), then saves every change through
     * {@code s}. Running PTYs whose pane the file holds keep that pane (a bundle update);
     * every other saved pane starts the user's shell in its saved folder. A saved command
     * is never rerun (see docs/topology.md, "Persistence").
     */
    void start(SessionStore s) throws Exception {
        Optional<Topology> saved = s.load();
        if (saved.isPresent()) {
            loop.call(() -> {
                restoreOnLoop(saved.get());
                return null;
            });
        }
        adopt();
        store = s;
        loop.call(() -> {
            s.changed(held.topology());
            return null;
        });
    }

    private void restoreOnLoop(Topology saved) {
        Map<String, Pty> running = new HashMap<>();
        for (Pty p : host.list()) {
            String paneId = p.env().get(PANE_ENV);
            if (paneId != null && p.isAlive() && saved.panes().containsKey(paneId)) {
                running.put(paneId, p);
            }
        }
        List<Spawned> started = new ArrayList<>();
        List<Spawned> kept = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        Map<String, Pane> panes = new LinkedHashMap<>();
        changing = true;
        PtySpawner spawner = new PtySpawner(Spawner.Launch.shell(), started);
        try {
            for (Pane p : saved.panes().values()) {
                Workspace ws = saved.locate(p.id()).orElseThrow().workspace();
                Pty r = running.get(p.id());
                if (r != null) {
                    kept.add(new Spawned(p.id(), r, new Proc(r.id(), ws.id(), r.env().get("ARTUDITU_SHELL_INTEGRATION"),
                            r.pid(), System.currentTimeMillis())));
                    panes.put(p.id(), new Pane(p.id(), r.id(), p.cwd(), r.command(), p.name(), p.purpose()));
                    continue;
                }
                Path cwd = Files.isDirectory(p.cwd()) ? p.cwd() : Files.isDirectory(ws.cwd()) ? ws.cwd() : defaultCwd;
                try {
                    Pane fresh = spawner.spawn(p.id(), ws.id(), cwd);
                    panes.put(p.id(), new Pane(p.id(), fresh.terminalId(), cwd, fresh.command(), p.name(), p.purpose()));
                } catch (IOException | RuntimeException e) {
                    System.getLogger(Model.class.getName()).log(System.Logger.Level.WARNING,
                            "could not restart saved pane " + p.id() + " in " + cwd + ": " + e);
                    panes.put(p.id(), p);
                    lost.add(p.id());
                }
            }
        } finally {
            spawner.closed = true;
            changing = false;
        }
        Topology t = new Topology(saved.workspaces(), saved.activeWorkspace(), panes, saved.nextPane(), 1);
        for (String id : lost) {
            t = Lifecycle.removePane(t, id).state();
        }
        List<Spawned> all = new ArrayList<>(kept);
        all.addAll(started);
        commit(Topology.empty(), new Change<>(t, List.of(), null), all);
    }

    // ---------------------------------------------------------------- adopting

    /**
     * Takes back the panes of PTYs that a previous instance of the model spawned: each
     * becomes a pane tab ({@code addPaneTab}) of the workspace its environment names,
     * re-created as "restored" in the PTY's folder when unknown. Ids continue after them.
     */
    void adopt() throws Exception {
        loop.call(() -> {
            List<Pty> running = new ArrayList<>();
            for (Pty p : host.list()) {
                String paneId = p.env().get(PANE_ENV);
                String wsId = p.env().get(WORKSPACE_ENV);
                if (paneId != null && wsId != null && paneId.matches("[1-9][0-9]{0,17}")
                        && wsId.matches("workspace_[0-9a-f]{16}") && p.isAlive()
                        && !held.topology().panes().containsKey(paneId)) {
                    running.add(p);
                }
            }
            running.sort(Comparator.comparingLong(p -> Long.parseLong(p.env().get(PANE_ENV))));
            for (Pty p : running) {
                String paneId = p.env().get(PANE_ENV);
                String wsId = p.env().get(WORKSPACE_ENV);
                Topology before = held.topology();
                Change<String> c;
                try {
                    c = lifecycle.addPaneTab(before, wsId, "restored", p.cwd(),
                            new Pane(paneId, p.id(), p.cwd(), p.command(), null, null), true);
                } catch (UhpException e) {
                    System.getLogger(Model.class.getName()).log(System.Logger.Level.WARNING,
                            "not adopting terminal " + p.id() + " as pane " + paneId + ": " + e.getMessage());
                    continue;
                }
                Proc f = new Proc(p.id(), wsId, p.env().get("ARTUDITU_SHELL_INTEGRATION"), p.pid(),
                        System.currentTimeMillis());
                commit(before, c, List.of(new Spawned(paneId, p, f)));
            }
            return null;
        });
    }

    // ---------------------------------------------------------------- the pane API

    /**
     * A new pane in the focused workspace (or the one named), as a new pane tab of it
     * ({@code addPaneTab}): the simplest mapping of "a new pane" onto the topology. It takes
     * the focus when asked, or when nothing has it; the first pane creates a workspace for
     * its folder.
     */
    @Override
    public PaneInfo open(PaneRequest r, OptionalLong ifRevision) throws IOException {
        Spawner.Launch launch = new Spawner.Launch(r.command(), r.env(), r.cols(), r.rows());
        return run((s, sp) -> {
            Workspace ws;
            if (r.workspaceId() != null) {
                ws = s.workspace(r.workspaceId())
                        .orElseThrow(() -> new IllegalArgumentException("no such workspace: " + r.workspaceId()));
            } else {
                ws = s.active().orElse(null);
            }
            Path cwd = r.cwd() != null ? r.cwd() : ws != null ? ws.cwd() : defaultCwd;
            if (!Files.isDirectory(cwd)) {
                throw new IllegalArgumentException("not a directory: " + cwd);
            }
            SpawnRequest.checkSize(r.cols(), r.rows());
            boolean focus = r.focus() || s.focusedPane().isEmpty();
            String paneId = Long.toString(s.nextPane());
            // Both paths are the Lifecycle's, so the limits (tabs, workspaces, panes) and
            // the naming rule are the ones tab.new and workspace.open apply, checked before the
            // spawn; their refusals (invalid_request with field and reason)
            // go to the caller as they are.
            Change<String> c = ws == null ? lifecycle.openWorkspace(s, cwd, null, sp)
                    : lifecycle.openPaneTab(s, ws.id(), cwd, focus, sp);
            return new Change<>(c.state(), c.events(), paneId);
        }, launch, ifRevision, paneId -> held.panes().get(paneId));
    }

    /** 16 hex digits for a new id on the loop: the ones the first pass drew, then fresh ones. */
    private String hex16() {
        if (replay != null && !replay.isEmpty()) {
            return replay.poll();
        }
        String h = freshHex();
        if (drawn != null) {
            drawn.add(h);
        }
        return h;
    }

    private String freshHex() {
        return HexFormat.of().formatHex(bytes(8));
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

    private <T> T onLoop(Callable<T> c) throws IOException {
        try {
            return loop.call(c);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    @Override
    public Optional<PaneInfo> pane(String paneId) {
        return Optional.ofNullable(held.panes().get(paneId));
    }

    @Override
    public Optional<PaneInfo> paneOfTerminal(String terminalId) {
        return Optional.ofNullable(held.byTerminal().get(terminalId));
    }

    @Override
    public Optional<PaneInfo> focusedPane() {
        Held h = held;
        return h.topology().focusedPane().map(h.panes()::get);
    }

    @Override
    public List<PaneInfo> panes() {
        return List.copyOf(held.panes().values());
    }

    @Override
    public List<WorkspaceInfo> workspaces() {
        return held.workspaces();
    }

    @Override
    public boolean close(String paneId, long graceMillis) {
        PaneInfo p = held.panes().get(paneId);
        if (p == null) {
            return false;
        }
        if (p.terminalId() != null) {
            host.find(p.terminalId()).ifPresent(pty -> pty.terminate(graceMillis));
        }
        return true;
    }

    /**
     * Writes the last handed-over state now and accepts no more (JVM exit: later pane exits
     * are the server going away, not the user closing panes, and must not be saved).
     */
    void saveNow() {
        SessionStore s = store;
        if (s != null) {
            s.close();
        }
    }

    /** Stops the loop, then writes the session synchronously; the PTYs keep running (they belong to the host). */
    @Override
    public void close() {
        loop.close();
        SessionStore s = store;
        if (s != null) {
            s.close();
        }
    }
}

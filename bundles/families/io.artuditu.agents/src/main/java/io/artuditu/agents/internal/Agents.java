package io.artuditu.agents.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.api.AgentStates;
import io.artuditu.agents.internal.detect.AgentManifest;
import io.artuditu.agents.internal.detect.ManifestSet;
import io.artuditu.agents.internal.detect.PaneTracker;
import io.artuditu.agents.internal.detect.ScreenRules;
import io.artuditu.agents.internal.detect.Status;
import io.artuditu.agents.internal.detect.Verdict;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.proc.ProcessEntry;
import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.pty.proc.ProcessTree;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.uhp.platform.TargetResolver;
import io.artuditu.vt.TerminalScreens;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * Which panes run agents and what each is doing: the one owner of that state, on the
 * {@link AgentsLoop}. Screen changes (from {@link TerminalScreens}) mark a pane dirty; a pass
 * looks at the shared process scan to recognise the agent, evaluates its manifest's screen
 * rules against only the regions they name, and feeds the verdict to the pane's
 * {@link PaneTracker} together with hook evidence, leases and the user's input. A change of
 * state is published as {@code pane.agent_status_changed}, and only a change. It also
 * resolves agent targets for the dispatcher ({@link AgentTargets}).
 *
 * <p>See docs/protocol/agents.md for the precedence and docs/agents/ for manifests and hooks.
 */
@Component(service = {Agents.class, AgentStates.class, TargetResolver.class}, immediate = true)
public final class Agents implements AgentStates, TargetResolver {
    /** After submission, output followed by this much quiet counts as the prompt taking effect. */
    static final long QUIET_MILLIS = 750;
    /** How soon to look at the process scan again for a pane whose agent is not recognised yet. */
    static final long RECHECK_MILLIS = 600;
    /** Rechecks after one burst of output, before waiting for more output. */
    static final int MAX_RECHECKS = 5;
    /**
     * The least time between two evaluations of one pane's screen: a flood of output is read
     * at most 20 times a second, and the first change after a quiet spell at once.
     */
    static final long EVALUATION_GAP_MILLIS = 50;
    /** How long a recognised agent's identity stands before the process scan is asked again. */
    static final long IDENTITY_HOLD_MILLIS = 2000;
    /** Most waits of all panes together. */
    static final int MAX_ALL_WAITS = 1024;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Workspaces workspaces;
    private final ProcessScan scan;
    private final PtyHost host;
    private final EventBus bus;
    private final Path managed;
    private final Path user;
    private final Sessions sessions;
    private final AgentsLoop loop;
    private volatile ManifestSet manifests;
    /** Loop-owned. */
    private final Map<String, Tracked> panes = new LinkedHashMap<>();
    private int allWaits;
    /** What other threads read: the last published state per pane. */
    private final Map<String, AgentState> published = new ConcurrentHashMap<>();
    private final Counters counters = new Counters();
    private volatile TerminalScreens screens;
    private AutoCloseable watching;
    private AutoCloseable watchingInput;
    /** New terminals whose pane was not in the model yet, and how often they were looked at. Loop-owned. */
    private final Map<String, Integer> pending = new LinkedHashMap<>();
    /** Looks at a new terminal before giving up on its pane (100 ms apart). */
    static final int MAX_PENDING_LOOKS = 20;
    /** New terminals waited for at once, at most. */
    static final int MAX_DIRTY_PENDING = 64;
    private long pendingAt;
    /** The pane focused when the loop last looked (a focus acknowledges its agent). Loop-owned. */
    private String lastFocused;

    /** The detector's work, for pane.list's detection_performance. */
    static final class Counters {
        final AtomicLong passes = new AtomicLong();
        final AtomicLong evaluations = new AtomicLong();
        final AtomicLong rowsRead = new AtomicLong();
        final AtomicLong skips = new AtomicLong();
        final AtomicLong identityChecks = new AtomicLong();
        final AtomicLong changes = new AtomicLong();
        final AtomicLong hooks = new AtomicLong();
        final AtomicLong reports = new AtomicLong();
    }

    @Activate
    public Agents(@Reference Workspaces workspaces, @Reference ProcessScan scan, @Reference PtyHost host,
            @Reference EventBus bus, BundleContext context) {
        this.workspaces = workspaces;
        this.scan = scan;
        this.host = host;
        this.bus = bus;
        Path home = SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv());
        this.managed = home.resolve("agents").resolve("managed");
        this.user = home.resolve("agents").resolve("user");
        this.sessions = new Sessions(home.resolve("agents").resolve("sessions.json"));
        this.manifests = ManifestSet.load(managed, user);
        this.loop = new AgentsLoop(this::pass, this::due, this::rearm);
        loop.start();

        TerminalScreens s = screens;
        if (s != null) {
            watch(s);
        }
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    synchronized void bindScreens(TerminalScreens s) {
        screens = s;
        if (loop != null) {
            watch(s);
        }
    }

    synchronized void unbindScreens(TerminalScreens s) {
        if (screens == s) {
            screens = null;
            closeWatches();
        }
    }

    private synchronized void watch(TerminalScreens s) {
        closeWatches();
        watching = s.watch(loop::dirty);
        watchingInput = s.watchInput(tid -> loop.post(() -> typed(tid)));
        // a fresh pass over every pane: the screens were rebuilt, or are new to us
        for (Pty p : host.list()) {
            loop.dirty(p.id());
        }
    }

    private synchronized void closeWatches() {
        for (AutoCloseable c : new AutoCloseable[] {watching, watchingInput}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // the notifier is gone with its bundle
                }
            }
        }
        watching = null;
        watchingInput = null;
    }

    @Deactivate
    void deactivate() {
        closeWatches();
        loop.close();
    }

    /**
     * Loop: a pane that became focused since the loop last looked acknowledges its agent
     * (attention ends). Read from the topology on every pass and before every read of the
     * agents' rows, so no subscription to focus events is needed.
     */
    private void noteFocus() {
        String f = workspaces.topology().focusedPane().orElse(null);
        if (f != null && !f.equals(lastFocused)) {
            Tracked t = panes.get(f);
            if (t != null) {
                t.tracker.focused();
            }
        }
        lastFocused = f;
    }

    // ------------------------------------------------------------------ reads for other threads

    @Override
    public Optional<AgentState> state(String paneId) {
        return Optional.ofNullable(published.get(paneId));
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("agent_passes", counters.passes.get());
        m.put("agent_screens_evaluated", counters.evaluations.get());
        m.put("agent_rows_read", counters.rowsRead.get());
        m.put("agent_screens_skipped", counters.skips.get());
        m.put("agent_identity_checks", counters.identityChecks.get());
        m.put("agent_status_changes", counters.changes.get());
        m.put("agent_hook_events", counters.hooks.get());
        m.put("agent_reports", counters.reports.get());
        return m;
    }

    // ------------------------------------------------------------------ agent targets

    @Override
    public Set<TargetSpec.Kind> kinds() {
        return Set.of(TargetSpec.Kind.AGENT);
    }

    @Override
    public Object resolve(TargetSpec spec, ObjectNode params) {
        return AgentTargets.resolve(workspaces.topology(), this, spec, params);
    }

    ManifestSet manifests() {
        return manifests;
    }

    Sessions sessions() {
        return sessions;
    }

    /** Runs {@code work} on the loop and waits for it (at most 10 s); loop refusals become errors. */
    private <T> T onLoop(java.util.function.Supplier<T> work) {
        return join(loop.call(work), 10_000);
    }

    /**
     * The value of a future the loop completes, waiting at most {@code millis}; its failure
     * is rethrown as it is (a {@link UhpException} stays one), a missed deadline is
     * {@code internal_error}.
     */
    static <T> T join(CompletableFuture<T> f, long millis) {
        try {
            return f.get(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "the agents loop did not answer in " + millis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.SHUTTING_DOWN, "interrupted");
        }
    }

    // ------------------------------------------------------------------ what requests ask
    //
    // Every method here runs its work on the loop and answers with copies, so the state the
    // loop owns (the Tracked records) never leaves it.

    /** A pane's agent as a request reports it, copied on the loop. */
    record View(String pane, String agent, Status status, String source, long pid, String terminalId, String sessionId,
            String message, long sinceMs, boolean attention) {
    }

    /** What {@code agent.explain} shows of a pane, copied on the loop. */
    record Explanation(String pane, String agent, Status status, String via, String processName, long pid,
            AgentManifest manifest, Verdict evidence, String hookEvent, Status hookStatus, long hookAt, boolean hookFresh,
            String authority, Tracked.Lease lease, long now) {
    }

    /** What {@code agent.release} did. */
    record Released(boolean released, Status status) {
    }

    /** What a fork starts from: the agent's manifest and its exact session. */
    record ForkSource(AgentManifest manifest, String session) {
    }

    /** Input written to an agent: its size and, for a waiting prompt, the evidence to come. */
    record Sent(int bytes, CompletableFuture<String> evidence) {
    }

    /** Every live pane's agent, in the order the loop first saw them. */
    List<View> list() {
        return onLoop(() -> {
            trackAll();
            long now = System.currentTimeMillis();
            java.util.Set<String> live = workspaces.topology().panes().keySet();
            List<View> out = new ArrayList<>();
            for (Tracked t : panes.values()) {
                if (t.shownAgent(now) != null && live.contains(t.pane)) {
                    out.add(view(t, now));
                }
            }
            return out;
        });
    }

    /** The agent of {@code pane}, looked at now; {@code invalid_request} ({@code not_agent}) when none runs there. */
    View get(String pane) {
        return onLoop(() -> {
            Tracked t = require(pane);
            long now = System.currentTimeMillis();
            noteFocus();
            look(t, now, false);
            if (t.shownAgent(now) == null) {
                throw notAgent(pane);
            }
            return view(t, now);
        });
    }

    /** Why {@code pane} is in its state: identity, evidence, hooks and authority. */
    Explanation explain(String pane) {
        return onLoop(() -> {
            Tracked t = require(pane);
            long now = System.currentTimeMillis();
            look(t, now, false);
            Tracked.Lease lease = t.lease != null && t.lease.expiresAt() > now ? t.lease : null;
            return new Explanation(pane, t.shownAgent(now), t.tracker.status(), t.via, t.processName, t.agentPid,
                    t.manifest, t.tracker.lastVerdict(), t.tracker.lastHookEvent(), t.tracker.hookStatus(),
                    t.tracker.hookAt(), t.tracker.hookFresh(now), t.tracker.source().wire(), lease, now);
        });
    }

    /**
     * A leased authoritative state ({@code agent.report}): its source must own the pane or
     * find it free ({@code authority_conflict}), its sequence must increase.
     */
    void report(String pane, String source, String agent, Status status, String message, long sequence, long ttl) {
        onLoop(() -> {
            Tracked t = require(pane);
            long now = System.currentTimeMillis();
            ownedByOther(t, source, now);
            Long last = t.lastSequence.get(source);
            if (last != null && sequence <= last) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "sequence " + sequence + " does not increase on "
                        + last + " from " + source, Map.of("field", "sequence", "reason", "not_increasing", "last", last));
            }
            t.lastSequence.remove(source);
            t.lastSequence.put(source, sequence);
            while (t.lastSequence.size() > Tracked.MAX_SOURCES) {
                t.lastSequence.remove(t.lastSequence.keySet().iterator().next());
            }
            t.lease = new Tracked.Lease(source, agent, status, message, sequence, ttl, now + ttl * 1000);
            counters.reports.incrementAndGet();
            t.tracker.lease(status, now);
            settled(t, now);
            return null;
        });
    }

    /** Ends {@code source}'s lease on {@code pane}, if it holds one; the screen decides again. */
    Released release(String pane, String source) {
        return onLoop(() -> {
            Tracked t = require(pane);
            long now = System.currentTimeMillis();
            Tracked.Lease held = ownedByOther(t, source, now);
            t.lease = null;
            t.tracker.lease(null, now);
            look(t, now, true);
            return new Released(held != null, t.tracker.status());
        });
    }

    /** The pane's live lease (null for none); {@code authority_conflict} when another source holds it. */
    private static Tracked.Lease ownedByOther(Tracked t, String source, long now) {
        Tracked.Lease held = t.lease != null && t.lease.expiresAt() > now ? t.lease : null;
        if (held != null && !held.source().equals(source)) {
            throw new UhpException(ErrorCode.AUTHORITY_CONFLICT, "pane " + t.pane + " is reported by " + held.source()
                    + " for " + (held.expiresAt() - now) / 1000 + " s more, not by " + source,
                    Map.of("owner", held.source(), "expires_in_ms", held.expiresAt() - now, "pane", t.pane));
        }
        return held;
    }

    /** A wait for {@code pane}'s status, completed by the loop with whether it matched within the timeout. */
    CompletableFuture<Boolean> awaitStatus(String pane, Status status, long timeoutMillis) {
        return onLoop(() -> await(require(pane), status, null, timeoutMillis).done);
    }

    /** A hook's report of the agent's session in {@code pane}. */
    void sessionReported(String pane, String agent, String session) {
        onLoop(() -> {
            Tracked t = panes.get(pane) != null ? panes.get(pane) : tracked(pane);
            if (t != null) {
                t.sessionId = session;
                if (t.agent == null) {
                    t.agent = agent;
                    t.via = "hook";
                    t.manifest = manifests.get(agent).orElse(null);
                }
                settled(t, System.currentTimeMillis());
            }
            return null;
        });
    }

    /** A hook's event in {@code pane}, mapped to {@code mapped} (null: none); the status after it. */
    Status hookEvent(String pane, String agent, String event, Status mapped, String message, String session) {
        return onLoop(() -> {
            Tracked t = require(pane);
            long ms = System.currentTimeMillis();
            if (t.agent == null) {
                t.agent = agent;
                t.via = "hook";
                t.manifest = manifests.get(agent).orElse(null);
            }
            if (session != null) {
                t.sessionId = session;
            }
            if (message != null) {
                t.message = message;
            }
            counters.hooks.incrementAndGet();
            t.tracker.hook(event, mapped, ms);
            settled(t, ms);
            return t.tracker.status();
        });
    }

    /** Makes {@code set} the manifests and looks at every live pane again with them. */
    void reload(ManifestSet set) {
        onLoop(() -> {
            manifests = set;
            freshPass();
            return null;
        });
    }

    /**
     * The manifest and exact session of the agent in {@code pane}, to fork it: {@code unsupported_agent}
     * when no agent runs there or its manifest has no fork command, {@code session_unknown} when its
     * session was neither reported by a hook nor pinned by a start or resume here (never "the newest").
     */
    ForkSource forkSource(String pane) {
        return onLoop(() -> {
            Tracked t = require(pane);
            look(t, System.currentTimeMillis(), false);
            // Every source a fork cannot take is unsupported_agent (the reference's one code for it),
            // a shell too; agent.send, keys and prompt keep invalid_request for a shell.
            if (t.agent == null) {
                throw new UhpException(ErrorCode.UNSUPPORTED_AGENT, "no agent is recognised in pane " + pane
                        + " (a shell, or a program no manifest knows), so there is nothing to fork",
                        Map.of("field", "target", "pane", pane, "reason", "not_agent"));
            }
            AgentManifest m = t.manifest != null ? t.manifest : manifests.get(t.agent).orElse(null);
            if (m == null || m.fork().isEmpty()) {
                throw new UhpException(ErrorCode.UNSUPPORTED_AGENT, t.agent + " has no native fork command",
                        Map.of("agent", t.agent, "pane", pane, "reason", "no_fork"));
            }
            String session = t.sessionId != null ? t.sessionId
                    : sessions.inPane(pane, t.agent).map(Sessions.Session::id).orElse(null);
            if (session == null) {
                throw new UhpException(ErrorCode.SESSION_UNKNOWN, "the " + t.agent + " session in pane " + pane
                        + " is not known: it needs a hook report (artu hook install " + t.agent + ") or a start or resume "
                        + "through Artuditu", Map.of("agent", t.agent, "pane", pane, "reason", "session_unknown"));
            }
            return new ForkSource(m, session);
        });
    }

    /**
     * {@code agent} is about to appear in {@code pane} (a launch typed there): it is looked
     * for until then, with {@code session} as its identity; the future completes with whether
     * it was recognised within {@code timeoutMillis} (0: do not wait).
     */
    CompletableFuture<Boolean> expect(String pane, String agent, String session, long untilMillis, long timeoutMillis) {
        return onLoop(() -> {
            Tracked t = panes.get(pane) != null ? panes.get(pane) : tracked(pane);
            if (t == null) {
                throw UhpException.notFound("pane", pane, "pane", "pane " + pane + " closed before the launch");
            }
            t.expected = agent;
            t.expectedUntil = System.currentTimeMillis() + untilMillis;
            if (session != null) {
                t.sessionId = session;
            }
            return await(t, null, agent, timeoutMillis).done;
        });
    }

    /** Completes once a new pane's shell shows its first prompt (at most {@code millis}); done at once for an unknown pane. */
    CompletableFuture<Boolean> shellReady(String pane, long millis) {
        return onLoop(() -> {
            Tracked t = panes.get(pane) != null ? panes.get(pane) : tracked(pane);
            return t == null ? CompletableFuture.completedFuture(false) : await(t, null, PROMPT, millis).done;
        });
    }

    /**
     * Writes input to the agent in {@code pane} through the terminal bundle's input path:
     * {@code encode} turns the pane's screen (its modes) into the bytes, on the loop, and they
     * go as one write. Shells and exited panes are refused. With {@code waitPrompt} the pane
     * takes one waiting prompt ({@code agent_prompt_busy} when another holds it), whose
     * evidence the answer carries.
     */
    Sent input(String pane, java.util.function.Function<io.artuditu.vt.Terminal, byte[]> encode, boolean waitPrompt,
            Status until, long timeoutMillis) {
        return onLoop(() -> {
            Tracked t = liveAgent(pane);
            if (waitPrompt && t.prompt != null) {
                throw new UhpException(ErrorCode.AGENT_PROMPT_BUSY, "a waiting prompt already owns pane " + pane,
                        Map.of("pane", pane));
            }
            TerminalScreens sc = requireScreens();
            byte[] bytes = sc.read(t.terminalId, encode).orElseThrow(() -> exited(pane));
            write(sc, t, bytes);
            long now = System.currentTimeMillis();
            t.tracker.userInput(now);
            Tracked.Prompt w = null;
            if (waitPrompt) {
                w = new Tracked.Prompt(now, t.changes, until, now + timeoutMillis);
                t.prompt = w;
            }
            settled(t, now);
            return new Sent(bytes.length, w == null ? null : w.evidence);
        });
    }

    /** Types one shell line and Enter into {@code pane} as one write (a launch), through the terminal's input path. */
    void type(String pane, String line) {
        byte[] text = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] all = java.util.Arrays.copyOf(text, text.length + 1);
        all[text.length] = '\r';
        PaneInfo info = workspaces.pane(pane).orElseThrow(() -> exited(pane));
        write(requireScreens(), info.terminalId(), pane, all);
    }

    /** The terminal bundle's screens; {@code method_unavailable} while it is away. */
    TerminalScreens requireScreens() {
        TerminalScreens s = screens;
        if (s == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the terminal bundle is not running; retry when it is back");
        }
        return s;
    }

    /** Loop: the record of a pane a request names; {@code not_found} when the model has no such pane. */
    private Tracked require(String pane) {
        Tracked t = tracked(pane);
        if (t == null) {
            throw UhpException.notFound("pane", pane, "pane", "no such pane: " + pane);
        }
        return t;
    }

    /** Loop: the pane's record if a live agent runs there; shells and exited panes are refused. */
    private Tracked liveAgent(String pane) {
        Tracked t = require(pane);
        look(t, System.currentTimeMillis(), false);
        if (host.find(t.terminalId).map(p -> !p.isAlive()).orElse(true)) {
            throw exited(pane);
        }
        if (t.shownAgent(System.currentTimeMillis()) == null) {
            throw notAgent(pane);
        }
        return t;
    }

    private void write(TerminalScreens sc, Tracked t, byte[] bytes) {
        write(sc, t.terminalId, t.pane, bytes);
    }

    private static void write(TerminalScreens sc, String terminalId, String pane, byte[] bytes) {
        try {
            sc.write(terminalId, bytes);
        } catch (io.artuditu.pty.PtyInputException e) {
            if (e.reason() == io.artuditu.pty.PtyInputException.Reason.EXITED) {
                throw exited(pane);
            }
            throw new UhpException(ErrorCode.INVALID_REQUEST, "the program in pane " + pane + " is not reading its input ("
                    + e.pending() + " bytes queued)", Map.of("reason", "input_backlog", "pane", pane));
        } catch (java.io.IOException e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "input to pane " + pane + " was refused: " + e.getMessage(),
                    Map.of("reason", "input_refused", "pane", pane));
        }
    }

    private static View view(Tracked t, long now) {
        return new View(t.pane, t.shownAgent(now), t.tracker.status(), t.tracker.source().wire(), t.agentPid,
                t.terminalId, t.sessionId, t.lease != null && t.lease.expiresAt() > now ? t.lease.message() : t.message,
                t.tracker.since(), t.tracker.attention());
    }

    /** {@code invalid_request} for a pane where no agent is recognised. */
    static UhpException notAgent(String pane) {
        return new UhpException(ErrorCode.INVALID_REQUEST, "no agent is recognised in pane " + pane
                + " (a shell, or a program no manifest knows)", Map.of("field", "target", "reason", "not_agent", "pane", pane));
    }

    /** {@code not_found} for a pane whose process has exited. */
    static UhpException exited(String pane) {
        return UhpException.notFound("pane", pane, "pane", "the process of pane " + pane + " has exited",
                Map.of("pane", pane, "state", "exited"));
    }

    // ------------------------------------------------------------------ the loop's work

    /** Loop: the tracked record of a live pane, made on first use; null when there is no such pane. */
    private Tracked tracked(String paneId) {
        Tracked t = panes.get(paneId);
        if (t != null) {
            return t;
        }
        Optional<PaneInfo> info = workspaces.pane(paneId);
        if (info.isEmpty()) {
            return null;
        }
        t = new Tracked(paneId);
        t.terminalId = info.get().terminalId();
        t.rootPid = info.get().pid();
        panes.put(paneId, t);
        return t;
    }

    private void pass(Set<String> terminals) {
        long now = System.currentTimeMillis();
        noteFocus();
        for (String tid : terminals) {
            counters.passes.incrementAndGet();
            Optional<PaneInfo> info = workspaces.paneOfTerminal(tid);
            if (info.isEmpty()) {
                dropTerminal(tid, now);
                TerminalScreens sc = screens;
                if (sc != null && sc.read(tid, term -> Boolean.TRUE).isPresent()) {
                    // a new PTY whose pane the model has not installed yet: look again shortly
                    pending.merge(tid, 1, Integer::sum);
                    if (pending.get(tid) > MAX_PENDING_LOOKS || pending.size() > MAX_DIRTY_PENDING) {
                        pending.remove(tid);
                    }
                }
                continue;
            }
            pending.remove(tid);
            Tracked t = panes.get(info.get().id());
            if (t == null) {
                t = new Tracked(info.get().id());
                panes.put(t.pane, t);
            }
            t.terminalId = tid;
            t.rootPid = info.get().pid();
            t.changes++;
            t.lastChangeAt = now;
            t.rechecks = 0;
            look(t, now, false);
        }
    }

    /** Loop: identity, then the screen, then waits; publishes a change. {@code force} re-reads an unchanged screen. */
    private void look(Tracked t, long now, boolean force) {
        identify(t, now);
        TerminalScreens s = screens;
        if (t.manifest != null && s != null && !force && now - t.evaluatedAt < EVALUATION_GAP_MILLIS) {
            // a screen changing continuously is evaluated at most every gap, on its trailing edge
            if (t.evaluateAt == 0) {
                t.evaluateAt = t.evaluatedAt + EVALUATION_GAP_MILLIS;
            }
            counters.skips.incrementAndGet();
        } else if (t.manifest != null && s != null) {
            AgentManifest m = t.manifest;
            long known = force ? -1 : t.evaluatedRevision;
            Optional<Verdict> v = s.read(t.terminalId, term -> term.revision() == known ? UNCHANGED
                    : ScreenRules.evaluate(m, term, term.revision()));
            if (v.isEmpty()) {
                dropPane(t, now); // the screen is gone: the pane's process exited
                return;
            }
            t.evaluateAt = 0;
            if (v.get() == UNCHANGED) {
                counters.skips.incrementAndGet();
            } else {
                t.evaluatedAt = now;
                counters.evaluations.incrementAndGet();
                counters.rowsRead.addAndGet(v.get().rowsRead());
                t.evaluatedRevision = v.get().revision();
                t.tracker.screen(v.get(), now);
            }
        } else {
            counters.skips.incrementAndGet();
        }
        t.tracker.tick(now);
        settled(t, now);
    }

    /** What a read answers for a screen whose revision did not move since the last evaluation. */
    private static final Verdict UNCHANGED = new Verdict(Status.UNKNOWN, null, null, 0, 0, null, 0, -1);

    private void identify(Tracked t, long now) {
        if (t.manifest != null && "process,script".contains(t.via) && now - t.identifiedAt < IDENTITY_HOLD_MILLIS) {
            // a recognised agent streaming output need not keep the process scan busy; it is
            // confirmed once the hold ends, in case it left and a quiet program took its place
            if (t.recheckAt == 0) {
                t.recheckAt = t.identifiedAt + IDENTITY_HOLD_MILLIS;
            }
            return;
        }
        t.identifiedAt = now;
        counters.identityChecks.incrementAndGet();
        ProcessTree tree = t.rootPid > 0 ? scan.tree(t.rootPid) : ProcessTree.unavailable(0);
        if (tree.scan() != ProcessTree.Status.OK) {
            scheduleRecheck(t, now);
            return;
        }
        List<ProcessEntry> all = new ArrayList<>(tree.descendants().size() + 1);
        all.add(tree.root());
        all.addAll(tree.descendants());
        Optional<ManifestSet.Identity> id = manifests.identify(all);
        if (id.isPresent()) {
            AgentManifest m = id.get().manifest();
            if (t.manifest == null || !t.manifest.name().equals(m.name()) || t.agentPid != id.get().pid()) {
                boolean same = m.name().equals(t.agent);
                if (t.sawNoAgent) {
                    t.tracker.launched(now); // started here, before the person's eyes
                }
                t.manifest = m;
                t.agent = m.name();
                t.agentPid = id.get().pid();
                t.via = id.get().via();
                t.evaluatedRevision = -1;
                if (!same) {
                    t.sessionId = sessions.inPane(t.pane, m.name()).map(Sessions.Session::id).orElse(t.sessionId);
                }
            }
            t.processName = all.stream().filter(e -> e.pid() == id.get().pid()).map(ProcessEntry::name).findFirst()
                    .orElse(null);
            t.expected = null;
            t.recheckAt = 0;
            if (tree.sampledAtMillis() < t.lastChangeAt) {
                scheduleRecheck(t, now); // a scan older than the last output may not show a change of program yet
            }
            return;
        }
        // nothing the manifests know runs here now
        t.sawNoAgent = true;
        boolean scanSaysGone = "process".equals(t.via) || "script".equals(t.via)
                || "hook".equals(t.via) && tree.descendants().isEmpty();
        if (t.agent != null && scanSaysGone && tree.sampledAtMillis() >= t.lastChangeAt - RECHECK_MILLIS) {
            forget(t);
        }
        if (t.expected != null && now > t.expectedUntil) {
            t.expected = null;
        }
        if (t.agent == null || t.expected != null) {
            scheduleRecheck(t, now);
        }
    }

    private void forget(Tracked t) {
        t.agent = null;
        t.manifest = null;
        t.agentPid = 0;
        t.via = null;
        t.processName = null;
        t.sessionId = null;
        t.evaluatedRevision = -1;
        t.tracker.screen(null, System.currentTimeMillis());
    }

    private void scheduleRecheck(Tracked t, long now) {
        boolean expecting = t.expected != null && now <= t.expectedUntil;
        if (t.recheckAt == 0 && (expecting || t.rechecks < MAX_RECHECKS)) {
            t.recheckAt = now + (expecting ? RECHECK_MILLIS / 2 : RECHECK_MILLIS);
        }
    }

    private void due(long now) {
        noteFocus();
        if (!pending.isEmpty() && pendingAt <= now) {
            pending.keySet().forEach(loop::dirty);
        }
        for (Tracked t : new ArrayList<>(panes.values())) {
            boolean again = false;
            if (t.recheckAt != 0 && t.recheckAt <= now) {
                t.recheckAt = 0;
                t.rechecks++;
                again = true;
            }
            if (t.evaluateAt != 0 && t.evaluateAt <= now) {
                again = true;
            }
            if (t.lease != null && t.lease.expiresAt() <= now) {
                t.lease = null;
                t.tracker.lease(null, now);
                again = true;
            }
            long hookDue = t.tracker.nextDeadline();
            if (hookDue != 0 && hookDue <= now) {
                again = true;
            }
            if (t.prompt != null && (t.prompt.deadline <= now || t.prompt.sawOutput)) {
                again = true;
            }
            if (!t.waits.isEmpty()) {
                again = true;
            }
            if (again) {
                look(t, now, false);
            }
        }
    }

    /** Loop, after each pass: the one earliest deadline of every pane. */
    private void rearm() {
        long now = System.currentTimeMillis();
        long next = 0;
        if (!pending.isEmpty()) {
            if (pendingAt <= now) {
                pendingAt = now + 100;
            }
            next = earliest(next, pendingAt, now);
        }
        for (Tracked t : panes.values()) {
            next = earliest(next, t.recheckAt, now);
            next = earliest(next, t.evaluateAt, now);
            next = earliest(next, t.lease == null ? 0 : t.lease.expiresAt(), now);
            next = earliest(next, t.tracker.nextDeadline(), now);
            if (t.prompt != null) {
                next = earliest(next, t.prompt.deadline, now);
                if (t.prompt.sawOutput) {
                    next = earliest(next, t.lastChangeAt + QUIET_MILLIS, now);
                }
            }
            for (Tracked.Wait w : t.waits) {
                next = earliest(next, w.deadline, now);
            }
        }
        loop.deadline(next);
    }

    private static long earliest(long a, long candidate, long now) {
        if (candidate <= 0) {
            return a;
        }
        long c = Math.max(candidate, now + 1);
        return a == 0 ? c : Math.min(a, c);
    }

    /** Loop: after any change to t — waits, prompts, publication. */
    private void settled(Tracked t, long now) {
        // publish first: a wait or prompt completed below reads the state it saw
        publish(t, now);
        Status st = t.tracker.status();
        // waits
        for (Iterator<Tracked.Wait> it = t.waits.iterator(); it.hasNext();) {
            Tracked.Wait w = it.next();
            boolean matched = matches(t, w.status, w.kind, now);
            if (matched || w.deadline <= now) {
                it.remove();
                allWaits--;
                w.done.complete(matched);
            }
        }
        // a waiting prompt
        Tracked.Prompt p = t.prompt;
        if (p != null) {
            if (t.changes > p.changesAtSubmit) {
                p.sawOutput = true;
            }
            String evidence = null;
            boolean moved = t.tracker.since() >= p.submittedAt;
            if (p.until == null || p.until == Status.WORKING) {
                if (st == Status.WORKING && moved) {
                    evidence = "working";
                } else if (p.until == null && p.sawOutput && now - t.lastChangeAt >= QUIET_MILLIS) {
                    evidence = "output_quiet";
                }
            } else if (st == p.until && moved) {
                evidence = "status";
            }
            if (evidence == null && p.deadline <= now) {
                evidence = "timeout";
            }
            if (evidence != null) {
                t.prompt = null;
                p.evidence.complete(evidence);
            }
        }
    }

    private void publish(Tracked t, long now) {
        String agent = t.shownAgent(now);
        Status st = agent == null ? Status.UNKNOWN : t.tracker.status();
        if (agent == null) {
            published.remove(t.pane);
        } else {
            published.put(t.pane, new AgentState(agent, st.wire(), t.tracker.source().wire(), t.agentPid));
        }
        if (java.util.Objects.equals(agent, t.publishedAgent) && st == t.publishedStatus) {
            return;
        }
        Status previous = t.publishedStatus;
        String before = t.publishedAgent;
        t.publishedAgent = agent;
        t.publishedStatus = st;
        if (agent == null && before == null) {
            return;
        }
        counters.changes.incrementAndGet();
        ObjectNode d = F.objectNode().put("pane", t.pane).put("status", st.wire()).put("agent", agent != null ? agent : before)
                .put("previous", previous.wire()).put("source", t.tracker.source().wire());
        if (agent == null) {
            d.put("left", true);
        }
        bus.publish("pane.agent_status_changed", d);
    }

    private void dropTerminal(String tid, long now) {
        for (Tracked t : new ArrayList<>(panes.values())) {
            if (tid.equals(t.terminalId)) {
                dropPane(t, now);
            }
        }
    }

    private void dropPane(Tracked t, long now) {
        panes.remove(t.pane);
        published.remove(t.pane);
        for (Tracked.Wait w : t.waits) {
            allWaits--;
            w.done.complete(false);
        }
        t.waits.clear();
        if (t.prompt != null) {
            t.prompt.evidence.complete("timeout");
            t.prompt = null;
        }
        if (t.publishedAgent != null) {
            counters.changes.incrementAndGet();
            bus.publish("pane.agent_status_changed", F.objectNode().put("pane", t.pane).put("status", "unknown")
                    .put("agent", t.publishedAgent).put("previous", t.publishedStatus.wire()).put("source", "process")
                    .put("left", true));
        }
        Set<String> live = new HashSet<>(panes.keySet());
        sessions.panesGone(live);
    }

    private void typed(String tid) {
        long now = System.currentTimeMillis();
        for (Tracked t : panes.values()) {
            if (tid.equals(t.terminalId) && t.agent != null) {
                t.tracker.userInput(now);
                settled(t, now);
            }
        }
    }

    // ------------------------------------------------------------------ operations (loop)

    /** Loop: registers a wait for pane's status (or, with kind, for that agent to be recognised). */
    private Tracked.Wait await(Tracked t, Status status, String kind, long timeoutMillis) {
        long now = System.currentTimeMillis();
        Tracked.Wait w = new Tracked.Wait(status, kind, now, now + timeoutMillis);
        boolean matched = kind != null ? kind.equals(t.agent) && t.manifest != null && !"start".equals(t.via)
: t.shownAgent(now) != null && t.tracker.status() == status;
        if (matched || timeoutMillis <= 0) {
            w.done.complete(matched);
            return w;
        }
        if (t.waits.size() >= Tracked.MAX_WAITS || allWaits >= MAX_ALL_WAITS) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "too many waits on this pane (at most " + Tracked.MAX_WAITS
                    + ", " + MAX_ALL_WAITS + " in all)", Map.of("reason", "too_many_waits"));
        }
        t.waits.add(w);
        allWaits++;
        return w;
    }

    /** A wait's condition: the status; with a kind, that agent recognised; with {@link #PROMPT}, a shell prompt shown. */
    private boolean matches(Tracked t, Status status, String kind, long now) {
        if (PROMPT.equals(kind)) {
            TerminalScreens s = screens;
            return s == null || s.read(t.terminalId, term -> {
                for (int r = 0; r < term.rows(); r++) {
                    if ((term.rowMarks(r) & io.artuditu.vt.ShellMarks.COMMAND) != 0) { // 133;B: PS1 drawn, readline reads
                        return true;
                    }
                }
                return false;
            }).orElse(true);
        }
        if (kind != null) {
            return kind.equals(t.agent) && t.manifest != null;
        }
        return t.shownAgent(now) != null && t.tracker.status() == status;
    }

    /**
     * The kind of a wait for a new pane's shell to show its first prompt: the end-of-prompt
     * mark (OSC 133;B) its integration puts in PS1, drawn once readline reads the terminal
     * (133;A comes from PROMPT_COMMAND, before that: a line typed then is echoed too early).
     */
    static final String PROMPT = "#prompt";

    /** Loop: reloads nothing, but forgets what was evaluated and looks at every live pane again. */
    private void freshPass() {
        long now = System.currentTimeMillis();
        Set<String> live = new HashSet<>();
        for (PaneInfo p : workspaces.panes()) {
            live.add(p.id());
            Tracked t = tracked(p.id());
            if (t == null) {
                continue;
            }
            t.manifest = null;
            if ("process".equals(t.via) || "script".equals(t.via)) {
                t.agent = null;
                t.via = null;
            }
            t.evaluatedRevision = -1;
            look(t, now, true);
        }
        for (Tracked t : new ArrayList<>(panes.values())) {
            if (!live.contains(t.pane)) {
                dropPane(t, now);
            }
        }
    }

    Path managedDir() {
        return managed;
    }

    Path userDir() {
        return user;
    }

    Workspaces workspaces() {
        return workspaces;
    }

    PtyHost host() {
        return host;
    }

    EventBus bus() {
        return bus;
    }

    /** Loop: every live pane is tracked (so agent.list sees agents in quiet panes after a restart of this bundle). */
    private void trackAll() {
        long now = System.currentTimeMillis();
        noteFocus();
        for (PaneInfo p : workspaces.panes()) {
            if (!panes.containsKey(p.id())) {
                Tracked t = tracked(p.id());
                if (t != null) {
                    look(t, now, false);
                }
            }
        }
    }
}

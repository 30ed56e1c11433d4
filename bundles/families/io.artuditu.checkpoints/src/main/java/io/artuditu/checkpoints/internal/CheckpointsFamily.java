package io.artuditu.checkpoints.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.config.ConfigSection;
import io.artuditu.uhp.api.config.SectionDocument;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.events.Subscription;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code checkpoints} family ({@code checkpoint.*} methods) and the {@code [checkpoints]} config table.
 *
 * <p>Threads: one listener, {@code checkpoints-events}, takes {@code pane.agent_status_changed}
 * from the bus and, for a pane whose agent left {@code working}, queues a snapshot; one worker,
 * {@code checkpoints-git}, runs every git command of the family (snapshots and the methods'
 * reads and restores, so they never overlap), never the app loop; at most {@link #QUEUE}
 * tasks wait behind the running one, and a request waits for its task at most
 * {@link #WAIT_MS}. Both stop on deactivation, and the scratch folder (temporary indexes and
 * process output) is removed.
 */
@Component(service = {UhpFamily.class, ConfigSection.class})
public final class CheckpointsFamily implements UhpFamily, ConfigSection {
    static final String SECTION = "checkpoints";
    /** Longest a request waits for the worker. */
    static final long WAIT_MS = 120_000;
    /** Most tasks waiting for the worker. */
    static final int QUEUE = 64;
    static final String STATUS_EVENT = "pane.agent_status_changed";
    private static final SectionDocument SECTION_DOC = SectionDocument.load(CheckpointsFamily.class,
            "checkpoints-config.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final System.Logger LOG = System.getLogger(CheckpointsFamily.class.getName());

    private final Workspaces workspaces;
    private final EventBus bus;
    private final Clock clock;
    private final Path scratch;
    private final Checkpoints engine;
    private final ThreadPoolExecutor worker;
    private final FamilyContract contract;
    private final Thread listener;
    private volatile Subscription subscription;
    private volatile boolean stopped;
    private volatile int keep = 20;
    private volatile boolean onAgentTurn = true;

    @Activate
    public CheckpointsFamily(@Reference Workspaces workspaces, @Reference EventBus bus) {
        this(workspaces, bus, Clock.systemUTC());
    }

    CheckpointsFamily(Workspaces workspaces, EventBus bus, Clock clock) {
        this.workspaces = workspaces;
        this.bus = bus;
        this.clock = clock;
        try {
            this.scratch = Files.createTempDirectory("artuditu-checkpoints");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.engine = new Checkpoints(scratch);
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "checkpoints-git");
            t.setDaemon(true);
            return t;
        });
        this.contract = FamilyContract.load(CheckpointsFamily.class, "protocol/uhp/v1/checkpoints.json")
                .route("checkpoint.list", this::list)
                .route("checkpoint.diff", this::diff)
                .route("checkpoint.restore", this::restore)
                .route("checkpoint.create", this::create)
                .bind();
        this.subscription = bus.subscribe(OptionalLong.empty(), Set.of(STATUS_EVENT));
        this.listener = new Thread(this::listen, "checkpoints-events");
        listener.setDaemon(true);
        listener.start();
    }

    @Deactivate
    void deactivate() {
        stopped = true;
        subscription.close();
        listener.interrupt();
        worker.shutdownNow();
        try {
            listener.join(2000);
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> s = Files.walk(scratch)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not remove " + scratch, e);
        }
    }

    @Override
    public String family() {
        return "checkpoints";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    // ------------------------------------------------------------------ agent turns

    /** The listener: every agent leaving {@code working} queues a snapshot of its pane. */
    private void listen() {
        while (!stopped) {
            Subscription sub = subscription;
            try {
                for (byte[] line = sub.take(); line != null; line = sub.take()) {
                    JsonNode frame = JSON.readTree(line);
                    JsonNode d = frame.path("data");
                    if (STATUS_EVENT.equals(frame.path("event").asText()) && "working".equals(d.path("previous").asText())
                            && !"working".equals(d.path("status").asText()) && d.path("pane").isTextual()) {
                        turnEnded(d.get("pane").asText(), d.path("agent").asText(null),
                                "working -> " + d.path("status").asText());
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "checkpoint listener: " + e);
                continue;
            }
            // cut for falling behind (or closed): a stopped family ends, a live one listens again
            if (!stopped) {
                subscription = bus.subscribe(OptionalLong.empty(), Set.of(STATUS_EVENT));
            }
        }
    }

    private void turnEnded(String pane, String agent, String transition) {
        if (!onAgentTurn || !Checkpoints.PANE.matcher(pane).matches()) {
            return;
        }
        try {
            worker.execute(() -> {
                try {
                    Optional<PaneInfo> info = workspaces.pane(pane);
                    if (info.isEmpty()) {
                        return; // closed before its turn could be recorded
                    }
                    Optional<Checkpoints.Repo> repo = repoOf(info.get().cwd(), info.get().workspaceId());
                    if (repo.isPresent()) {
                        made(engine.snapshot(repo.get(), pane, agent, transition, keep, clock.instant()), repo.get(),
                                info.get().workspaceId());
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "checkpoint of pane " + pane + " failed: " + e.getMessage());
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.log(System.Logger.Level.WARNING, "checkpoint of pane " + pane + " dropped: the worker has " + QUEUE
                    + " tasks waiting or is stopping");
        }
    }

    /** The worktree of a pane: the repository of its folder, else of its workspace's root. */
    private Optional<Checkpoints.Repo> repoOf(Path cwd, String workspaceId) throws IOException {
        List<Path> folders = new ArrayList<>();
        if (cwd != null) {
            folders.add(cwd);
        }
        workspaces.topology().workspaces().stream().filter(w -> w.id().equals(workspaceId)).findFirst()
                .ifPresent(w -> folders.add(w.cwd()));
        for (Path f : folders) {
            try {
                return Optional.of(engine.repo(f));
            } catch (UhpException notARepository) {
                // the next folder
            }
        }
        return Optional.empty();
    }

    /**
     * The repository a request means: that of the live pane {@code pane} (its folder, else its
     * workspace's root) when it names one, else that of the target workspace's root.
     */
    private Checkpoints.Repo requestRepo(Workspace w, String pane) throws IOException {
        if (pane != null) {
            Optional<PaneInfo> info = workspaces.pane(pane);
            if (info.isPresent()) {
                Optional<Checkpoints.Repo> r = repoOf(info.get().cwd(), info.get().workspaceId());
                if (r.isPresent()) {
                    return r.get();
                }
            }
        }
        return engine.repo(w.cwd());
    }

    private void made(Checkpoints.Made m, Checkpoints.Repo repo, String workspaceId) {
        if (m.entry() == null) {
            return;
        }
        Checkpoints.Entry e = m.entry();
        ObjectNode d = JSON.createObjectNode().put("pane", e.pane()).put("id", e.ref()).put("short_id", e.shortId())
                .put("commit", e.commit()).put("root", repo.top().toString()).put("workspace_id", workspaceId)
                .put("agent", e.agent()).put("transition", e.transition()).put("files_changed", e.filesChanged());
        m.pruned().forEach(d.putArray("pruned")::add);
        if (!d.has("pruned")) {
            d.putArray("pruned");
        }
        bus.publish("checkpoint.created", d);
    }

    // ------------------------------------------------------------------ methods

    ObjectNode list(Call call) {
        Target t = call.target(Target.class);
        String pane = text(call, "pane");
        if (pane != null && !Checkpoints.PANE.matcher(pane).matches()) {
            throw UhpException.invalid("pane", "bad_pane", "pane " + pane + " is not a pane id");
        }
        return onWorker(() -> {
            Checkpoints.Repo repo = requestRepo(t.workspace(), pane);
            List<Checkpoints.Entry> all = engine.entries(repo, pane);
            ObjectNode r = head(call, t, "checkpoint_list", repo);
            ArrayNode rows = r.putArray("checkpoints");
            all.forEach(e -> rows.add(row(call, e)));
            r.put("truncated", all.size() >= Checkpoints.MAX_REFS);
            return r;
        });
    }

    ObjectNode create(Call call) {
        Target t = call.target(Target.class);
        String pane = t.pane();
        if (!Checkpoints.PANE.matcher(pane).matches()) {
            throw UhpException.invalid("pane", "bad_pane", "pane " + pane + " cannot name a checkpoint ref");
        }
        String wsId = t.workspaceId();
        return onWorker(() -> {
            Checkpoints.Repo repo = requestRepo(t.workspace(), pane);
            Checkpoints.Made m = engine.snapshot(repo, pane, null, "manual", keep, clock.instant());
            made(m, repo, wsId);
            ObjectNode r = head(call, t, "checkpoint_create", repo);
            r.put("pane", pane).put("created", m.entry() != null);
            if (m.newest() == null) {
                r.putNull("checkpoint");
            } else {
                r.set("checkpoint", row(call, m.newest()));
            }
            m.pruned().forEach(r.putArray("pruned")::add);
            if (!r.has("pruned")) {
                r.putArray("pruned");
            }
            return r;
        });
    }

    ObjectNode diff(Call call) {
        Target t = call.target(Target.class);
        String from = id(call, "from");
        String to = call.params().hasNonNull("to") ? id(call, "to") : null;
        return onWorker(() -> {
            Checkpoints.Repo repo = requestRepo(t.workspace(), paneOf(from));
            Checkpoints.Entry a = found(repo, from, "from");
            Checkpoints.Entry b = to == null ? null : found(repo, to, "to");
            String other = b != null ? b.tree() : engine.worktreeTree(repo);
            List<Checkpoints.Change> changes = engine.diff(repo, a.tree(), other);
            ObjectNode r = head(call, t, "checkpoint_diff", repo);
            r.put("from", a.ref());
            if (b == null) {
                r.putNull("to");
            } else {
                r.put("to", b.ref());
            }
            r.put("count", changes.size());
            ArrayNode files = r.putArray("files");
            changes.stream().limit(Checkpoints.MAX_FILES).forEach(c -> files.addObject().put("path", c.path())
                    .put("status", status(c.status())));
            r.put("truncated", changes.size() > Checkpoints.MAX_FILES);
            return r;
        });
    }

    ObjectNode restore(Call call) {
        Target t = call.target(Target.class);
        String id = id(call, "id");
        boolean force = call.params().path("force").asBoolean(false);
        return onWorker(() -> {
            Checkpoints.Repo repo = requestRepo(t.workspace(), paneOf(id));
            Checkpoints.Entry target = found(repo, id, "id");
            Checkpoints.Restored done = engine.restore(repo, target, force, keep, clock.instant());
            String wsId = workspaces.pane(target.pane()).map(PaneInfo::workspaceId).orElse(t.workspaceId());
            done.snapshots().forEach(m -> made(m, repo, wsId));
            ObjectNode r = head(call, t, "checkpoint_restore", repo);
            r.put("id", target.ref()).put("commit", target.commit()).put("undo", done.undo().ref())
                    .put("written_count", done.written().size()).put("removed_count", done.removed().size());
            done.written().stream().limit(Checkpoints.MAX_FILES).forEach(r.putArray("written")::add);
            done.removed().stream().limit(Checkpoints.MAX_FILES).forEach(r.putArray("removed")::add);
            for (String k : List.of("written", "removed")) {
                if (!r.has(k)) {
                    r.putArray(k);
                }
            }
            r.put("truncated", done.written().size() > Checkpoints.MAX_FILES
                    || done.removed().size() > Checkpoints.MAX_FILES);
            bus.publish("checkpoint.restored", JSON.createObjectNode().put("pane", target.pane()).put("id", target.ref())
                    .put("commit", target.commit()).put("root", repo.top().toString()).put("workspace_id", wsId)
                    .put("undo", done.undo().ref()).put("written", done.written().size())
                    .put("removed", done.removed().size()));
            return r;
        });
    }

    private Checkpoints.Entry found(Checkpoints.Repo repo, String id, String field) throws IOException {
        return engine.find(repo, id).orElseThrow(() -> UhpException.notFound("checkpoint", id, field,
                "no checkpoint " + id + " in " + repo.top()));
    }

    private static String id(Call call, String field) {
        String id = text(call, field);
        if (id == null || !Checkpoints.ID.matcher(id).matches()) {
            throw UhpException.invalid(field, "bad_id", field + " must be a checkpoint id: "
                    + Checkpoints.NAMESPACE + "<pane>/<seq> or <pane>/<seq>");
        }
        return id;
    }

    private static String paneOf(String id) {
        java.util.regex.Matcher m = Checkpoints.ID.matcher(id);
        return m.matches() ? m.group(1) : null;
    }

    private static ObjectNode head(Call call, Target t, String type, Checkpoints.Repo repo) {
        return call.newObject().put("type", type).put("workspace", t.workspaceIndex()).put("workspace_id", t.workspaceId())
                .put("root", repo.top().toString());
    }

    private static ObjectNode row(Call call, Checkpoints.Entry e) {
        ObjectNode o = call.newObject().put("id", e.ref()).put("short_id", e.shortId()).put("pane", e.pane())
                .put("seq", e.seq()).put("agent", e.agent()).put("transition", e.transition())
                .put("created_at", e.createdAt()).put("commit", e.commit()).put("head", e.parent());
        if (e.filesChanged() < 0) {
            o.putNull("files_changed");
        } else {
            o.put("files_changed", e.filesChanged());
        }
        return o;
    }

    private static String status(char c) {
        return switch (c) {
            case 'A' -> "added";
            case 'D' -> "deleted";
            case 'T' -> "type_changed";
            default -> "modified";
        };
    }

    private static String text(Call call, String field) {
        JsonNode n = call.params().get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    /** Runs {@code task} on the worker and waits for it; its refusal is the request's. */
    private <T> T onWorker(Callable<T> task) {
        Future<T> f;
        try {
            f = worker.submit(task);
        } catch (RejectedExecutionException e) {
            throw new UhpException(ErrorCode.TIMEOUT, "the checkpoints worker has " + QUEUE
                    + " tasks waiting (or is stopping); try again", Map.of("reason", "busy"));
        }
        try {
            return f.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new UhpException(ErrorCode.TIMEOUT, "the checkpoint task did not finish in " + WAIT_MS / 1000
                    + " s; it goes on", Map.of("reason", "git_timeout"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.SHUTTING_DOWN, "interrupted while waiting for the checkpoints worker");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    // ------------------------------------------------------------------ the config table

    @Override
    public String name() {
        return SECTION;
    }

    @Override
    public JsonNode schema() {
        return SECTION_DOC.schema();
    }

    @Override
    public ObjectNode defaults() {
        return SECTION_DOC.defaults();
    }

    /** Takes effect with the next checkpoint (pruning to a smaller keep happens then). */
    @Override
    public void apply(ObjectNode values) {
        keep = values.path("keep").asInt(20);
        onAgentTurn = values.path("on_agent_turn").asBoolean(true);
    }
}

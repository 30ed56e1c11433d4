package io.artuditu.files.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.config.ConfigSection;
import io.artuditu.uhp.api.config.SectionDocument;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.paths.WorkspacePath;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The {@code files} family and the config table {@code files} ({@code show_hidden},
 * {@code show_ignored}): one component, so the worker that reads folders and the visibility
 * the rows are drawn with belong together.
 *
 * <p>Threads: folders are read, and the tree state ({@link Tree}) changed, only on one
 * worker thread, {@code files-read}, never on the app loop; a request waits for its task
 * (at most {@link #WAIT_MS}), at most {@link #QUEUE} tasks wait behind the running one.
 * {@code files.open} validates its path on the request thread and adds its pane with one
 * model change. The worker stops on deactivation.
 */
@Component(service = {UhpFamily.class, ConfigSection.class})
public final class FilesFamily implements UhpFamily, ConfigSection {
    static final String SECTION = "files";
    /** Longest a request waits for its folder reads. */
    static final long WAIT_MS = 30_000;
    /** Most tasks waiting for the worker. */
    static final int QUEUE = 64;
    private static final SectionDocument SECTION_DOC = SectionDocument.load(FilesFamily.class, "files-config.json");

    private final Workspaces workspaces;
    private final Map<String, String> env;
    private final Supplier<EventBus> bus;
    private final ThreadPoolExecutor worker;
    /** Touched only on the worker. */
    private final Tree tree = new Tree(true);
    private final FamilyContract contract;
    private volatile Tree.Visibility visibility = Tree.Visibility.DEFAULT;
    private volatile boolean configured;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus eventBus;

    @Activate
    public FilesFamily(@Reference Workspaces workspaces) {
        this(workspaces, System.getenv(), null);
    }

    /** @param bus the event bus; null: the component's dynamic reference */
    FilesFamily(Workspaces workspaces, Map<String, String> env, Supplier<EventBus> bus) {
        this.workspaces = workspaces;
        this.env = Map.copyOf(env);
        this.bus = bus != null ? bus : () -> eventBus;
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "files-read");
            t.setDaemon(true);
            return t;
        });
        this.contract = FamilyContract.load(FilesFamily.class, "protocol/uhp/v1/files.json")
                .route("files.tree", this::tree)
                .route("files.open", this::open)
                .route("files.reveal", this::reveal)
                .route("files.refresh", this::refresh)
                .bind();
    }

    @Deactivate
    void deactivate() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String family() {
        return "files";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    // ------------------------------------------------------------------ methods

    ObjectNode tree(Call call) {
        Tree.Request req = new Tree.Request(strings(call, "expand"), strings(call, "collapse"), text(call, "path"), null);
        return view(call, req, "files_tree");
    }

    ObjectNode reveal(Call call) {
        return view(call, new Tree.Request(List.of(), List.of(), null, text(call, "path")), "files_reveal");
    }

    private ObjectNode view(Call call, Tree.Request req, String type) {
        Target t = call.target(Target.class);
        Workspace w = t.workspace();
        Set<String> live = live(t.state());
        Tree.Visibility v = visibility;
        ObjectNode r = onWorker(() -> tree.view(w.id(), w.cwd(), live, req, v));
        ObjectNode out = call.newObject().put("type", type).put("workspace", t.workspaceIndex());
        out.setAll(r);
        return out;
    }

    ObjectNode refresh(Call call) {
        Target t = call.target(Target.class);
        Workspace w = t.workspace();
        Set<String> live = live(t.state());
        Tree.Refreshed r = onWorker(() -> {
            Tree.Refreshed done = tree.refresh(w.id(), w.cwd(), live);
            if (done.changed()) {
                publish(w.id(), done.generation(), "refresh");
            }
            return done;
        });
        return call.newObject().put("type", "files_refresh").put("workspace", t.workspaceIndex())
                .put("workspace_id", w.id()).put("generation", r.generation()).put("changed", r.changed());
    }

    ObjectNode open(Call call) {
        Target t = call.target(Target.class);
        Workspace w = t.workspace();
        String raw = text(call, "path");
        WorkspacePath rule = new WorkspacePath(w.cwd());
        WorkspacePath.Resolved p = rule.resolve("path", raw);
        if (!p.exists()) {
            throw UhpException.notFound("file", raw, "path", "no such file in the workspace: " + WorkspacePath.quoted(raw));
        }
        if (Files.isDirectory(p.real())) {
            throw WorkspacePath.refuse("path", "is_a_directory", raw, "path " + WorkspacePath.quoted(raw)
                    + " is a folder; files.reveal shows a folder");
        }
        JsonNode lineNode = call.params().get("line");
        Integer line = lineNode == null ? null : lineNode.intValue();
        String split = text(call, "split");
        Direction side = split == null ? Direction.RIGHT : Direction.valueOf(split.toUpperCase(Locale.ROOT));
        boolean focus = call.params().path("focus").asBoolean(false);
        List<String> argv = Editor.argv(env, line, p.abs());
        Spawner.Launch launch = new Spawner.Launch(argv, Map.of(), 80, 24);
        String pane;
        try {
            pane = workspaces.change(call.ifRevision(), (s, sp) -> place(s, w.id(), side, focus, sp.with(launch)));
        } catch (IOException e) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, "the editor could not be started (" + argv.get(0) + "): "
                    + e.getMessage(), Map.of("reason", "spawn_failed"));
        }
        ObjectNode out = call.newObject().put("type", "files_open").put("pane", pane).put("workspace_id", w.id())
                .put("path", p.rel()).put("focused", focus);
        argv.forEach(out.putArray("command")::add);
        return out;
    }

    /**
     * The editor's pane, in one change: beside the focused pane of the workspace's active
     * pane tab, or as a new pane tab when it has none. Unfocused, the workspace, tab, pane
     * focus and zoom stay as they were.
     */
    static Change<String> place(Topology s, String wsId, Direction side, boolean focus, Spawner sp) throws IOException {
        Workspace w = s.requireWorkspace(wsId);
        Lifecycle life = Lifecycle.of(sp);
        Tab active = w.tabs().stream().filter(x -> x.id().equals(w.activeTab())).findFirst().orElse(null);
        if (active == null || active.kind().dashboard() || active.focused() == null) {
            return life.openPaneTab(s, wsId, w.cwd(), focus, sp);
        }
        String anchor = active.focused();
        boolean zoomed = active.zoomed();
        Change<String> c = life.splitPane(s, anchor, side, focus, sp);
        Topology n = c.state();
        List<TopologyEvent> ev = new ArrayList<>(c.events());
        if (focus) {
            Change<Void> f = Lifecycle.focusPane(n, c.result());
            n = f.state();
            ev.addAll(f.events());
        } else if (zoomed) {
            Change<Boolean> z = Lifecycle.zoomPane(n, anchor, true);
            n = z.state();
            ev.addAll(z.events());
        }
        return new Change<>(n, ev, c.result());
    }

    // ------------------------------------------------------------------ the worker

    /** Runs {@code task} on the worker and waits for it; its refusal is the request's. */
    private <T> T onWorker(Callable<T> task) {
        Future<T> f;
        try {
            f = worker.submit(task);
        } catch (RejectedExecutionException e) {
            throw new UhpException(ErrorCode.TIMEOUT, "the files worker has " + QUEUE
                    + " requests waiting (or is stopping); try again", Map.of("reason", "busy"));
        }
        try {
            return f.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new UhpException(ErrorCode.TIMEOUT, "the folder read did not finish in " + WAIT_MS / 1000
                    + " s; it goes on, and a later call answers from it", Map.of("reason", "read_timeout"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.SHUTTING_DOWN, "interrupted while waiting for the files worker");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void publish(String wsId, long generation, String reason) {
        EventBus b = bus.get();
        if (b != null) {
            b.publish("files.changed", new ObjectMapper().createObjectNode().put("workspace_id", wsId)
                    .put("generation", generation).put("reason", reason));
        }
    }

    private static Set<String> live(Topology s) {
        return s.workspaces().stream().map(Workspace::id).collect(Collectors.toSet());
    }

    private static String text(Call call, String field) {
        JsonNode n = call.params().get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    private static List<String> strings(Call call, String field) {
        List<String> out = new ArrayList<>();
        call.params().path(field).forEach(n -> out.add(n.asText()));
        return out;
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

    /** Takes effect with the next answer; every loaded workspace hears {@code files.changed} (reason visibility). */
    @Override
    public void apply(ObjectNode values) {
        Tree.Visibility next = new Tree.Visibility(values.path("show_hidden").asBoolean(false),
                values.path("show_ignored").asBoolean(false));
        Tree.Visibility before = visibility;
        visibility = next;
        boolean first = !configured;
        configured = true;
        if (first || next.equals(before)) {
            return;
        }
        try {
            worker.execute(() -> tree.loaded().forEach(id -> publish(id, tree.generation(id), "visibility")));
        } catch (RejectedExecutionException busyOrStopping) {
            // the next answer shows the new rows all the same
        }
    }

    Tree.Visibility visibility() {
        return visibility;
    }

}

package io.artuditu.diff.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.api.AgentStates;
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
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.vt.Input;
import io.artuditu.vt.TerminalScreens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.internal.util.CleanupService;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.WindowCacheConfig;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The {@code diff} family (docs/protocol/diff.md). Status snapshots are scanned on the
 * bundle's worker ({@link Snapshots}); {@code diff.get} and note anchoring read blobs with JGit
 * on the request's connection thread (never the app loop); {@code diff.open} adds its pane in
 * one model change; notes live per repository ({@link NoteStore}).
 */
@Component(service = UhpFamily.class)
public final class DiffFamily implements UhpFamily {
    /** Most DIFF-view panes remembered; the oldest is forgotten past it. */
    static final int MAX_VIEWS = 64;
    /** Most notes in one diff.note.apply. */
    static final int MAX_BATCH = 100;
    /** Most notes stores kept loaded (one per repository); a store is saved on every change. */
    static final int MAX_STORES = 64;
    /** Largest grouped message diff.note.send types into an agent, in UTF-8 bytes. */
    static final int MAX_SEND_BYTES = 16 * 1024;
    static final List<String> ACTIONS = List.of("next", "next_line", "previous", "previous_line", "next_file",
            "previous_file", "next_hunk", "previous_hunk", "next_note", "previous_note", "top", "bottom");

    private final Workspaces workspaces;
    private final Map<String, String> env;
    private final Path home;
    private final Supplier<EventBus> bus;
    private final Supplier<AgentStates> agents;
    private final Supplier<TerminalScreens> screens;
    private final FamilyContract contract;
    private final Snapshots snapshots;
    private final CleanupService jgitCleanup;
    /** DIFF-view panes by pane id; guarded by itself. */
    private final LinkedHashMap<String, View> views = new LinkedHashMap<>();
    /** Loaded notes stores by working tree; guarded by itself, each store by its own monitor. */
    private final LinkedHashMap<String, NoteStore> stores = new LinkedHashMap<>(16, 0.75f, true);

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus eventBus;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile AgentStates agentStates;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile TerminalScreens terminalScreens;

    record View(String workspaceId, String placement, List<String> argv) {
    }

    @Activate
    public DiffFamily(@Reference Workspaces workspaces, BundleContext context) {
        this(workspaces, System.getenv(), SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY),
                System.getenv()).toAbsolutePath().normalize(), null, null, null, true);
    }

    /** @param bus, agents, screens null: the component's dynamic references */
    DiffFamily(Workspaces workspaces, Map<String, String> env, Path home, Supplier<EventBus> bus,
            Supplier<AgentStates> agents, Supplier<TerminalScreens> screens, boolean watch) {
        this.workspaces = workspaces;
        this.env = Map.copyOf(env);
        this.home = home;
        this.bus = bus != null ? bus : () -> eventBus;
        this.agents = agents != null ? agents : () -> agentStates;
        this.screens = screens != null ? screens : () -> terminalScreens;
        // JGit is embedded (docs/decisions/0006): its cleanup runs when this component goes.
        this.jgitCleanup = new CleanupService();
        WindowCacheConfig cache = new WindowCacheConfig();
        cache.setExposeStatsViaJmx(false);
        cache.install();
        this.snapshots = new Snapshots(this::scanned, watch);
        this.contract = FamilyContract.load(DiffFamily.class, "protocol/uhp/v1/diff.json")
                .route("diff.refresh", this::refresh)
                .route("diff.list", this::list)
                .route("diff.open", this::open)
                .route("diff.get", this::get)
                .route("diff.navigate", this::navigate)
                .route("diff.note.add", this::noteAdd)
                .route("diff.note.apply", this::noteApply)
                .route("diff.note.list", this::noteList)
                .route("diff.note.edit", this::noteEdit)
                .route("diff.note.resolve", c -> noteState(c, "resolve"))
                .route("diff.note.reopen", c -> noteState(c, "reopen"))
                .route("diff.note.remove", this::noteRemove)
                .route("diff.note.send", this::noteSend)
                .bind();
    }

    @Deactivate
    void deactivate() {
        snapshots.close();
        Git.shutdown();
        try {
            Method shutDown = CleanupService.class.getDeclaredMethod("shutDown");
            shutDown.setAccessible(true);
            shutDown.invoke(jgitCleanup);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.getLogger(DiffFamily.class.getName()).log(System.Logger.Level.WARNING, "JGit cleanup failed", e);
        }
    }

    @Override
    public String family() {
        return "diff";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    Snapshots snapshots() {
        return snapshots;
    }

    // ------------------------------------------------------------------ context

    /** The request's workspace, repository working tree and base. */
    record Ctx(Target target, Workspace workspace, String root, Base base) {
        Path rootPath() {
            return Path.of(root);
        }
    }

    private Ctx ctx(Call call) {
        Target t = call.target(Target.class);
        Workspace w = t.workspace();
        Base base = Base.of(call.params().get("base"), w.metadata());
        return new Ctx(t, w, root(w.cwd()), base);
    }

    /** Most workspace folders whose working tree is remembered. */
    static final int MAX_ROOTS = 256;
    /** Workspace folder → its repository's working tree; guarded by itself. */
    private final LinkedHashMap<Path, String> roots = new LinkedHashMap<>(16, 0.75f, true);

    /**
     * The working tree of the repository holding {@code folder}: remembered while its
     * {@code .git} is still there (a warm read opens no repository), found again otherwise.
     */
    private String root(Path folder) {
        synchronized (roots) {
            String known = roots.get(folder);
            if (known != null && java.nio.file.Files.exists(Path.of(known, ".git")) && java.nio.file.Files.isDirectory(folder)) {
                return known;
            }
        }
        String root;
        try (Repository r = Repos.open(folder)) {
            root = Repos.root(r);
        }
        synchronized (roots) {
            if (roots.size() >= MAX_ROOTS) {
                roots.remove(roots.keySet().iterator().next());
            }
            roots.put(folder, root);
        }
        return root;
    }

    private Snapshots.Entry entry(Ctx c) {
        return snapshots.entry(c.root(), c.base(), c.workspace().id());
    }

    private ObjectNode head(Call call, Ctx c, String type) {
        return call.newObject().put("type", type).put("workspace", c.target().workspaceIndex())
                .put("workspace_id", c.workspace().id()).put("root", c.root());
    }

    // ------------------------------------------------------------------ list, refresh, get

    ObjectNode refresh(Call call) {
        Ctx c = ctx(call);
        Scan.Snapshot s = snapshots.refresh(entry(c));
        ObjectNode r = head(call, c, "diff_refresh").put("generation", s.generation());
        c.base().into(r, s.commit());
        return r;
    }

    ObjectNode list(Call call) {
        Ctx c = ctx(call);
        Snapshots.Entry e = entry(c);
        Scan.Snapshot s = snapshots.read(e);
        String layer = text(call, "layer");
        ObjectNode r = head(call, c, "diff_list").put("generation", s.generation());
        synchronized (snapshots) {
            r.put("refreshing", e.refreshing());
        }
        c.base().into(r, s.commit());
        r.put("truncated", s.truncated());
        Map<String, int[]> unresolved = new HashMap<>();
        Map<String, String> reviewed = new HashMap<>();
        NoteStore store = existingStore(c.root());
        if (store != null) {
            synchronized (store) {
                for (Note n : store.notes.values()) {
                    String k = n.layer + "\u0000" + n.path;
                    if (!n.state.equals("resolved")) {
                        unresolved.computeIfAbsent(k, x -> new int[1])[0]++;
                    }
                    reviewed.merge(k, n.madeOn == null ? "" : n.madeOn, (a, b) -> b);
                }
            }
        }
        ArrayNode files = r.putArray("files");
        for (Scan.Row row : s.rows()) {
            if (layer != null && !layer.equals(row.layer())) {
                continue;
            }
            String k = row.layer() + "\u0000" + row.path();
            ObjectNode f = files.addObject().put("path", row.path()).put("old_path", row.oldPath()).put("layer", row.layer())
                    .put("status", row.status());
            if (row.additions() == null) {
                f.putNull("additions").putNull("deletions");
            } else {
                f.put("additions", row.additions()).put("deletions", row.deletions());
            }
            String madeOn = reviewed.get(k);
            f.put("binary", row.binary()).put("unresolved_notes", unresolved.getOrDefault(k, new int[1])[0])
                    .put("review_state", madeOn == null ? "unreviewed"
                            : madeOn.equals(row.fingerprint()) ? "reviewed" : "changed_since_review")
                    .put("fingerprint", row.fingerprint());
        }
        return r;
    }

    /** One file of the snapshot: by its (escaped) path and, when it is in several layers, the layer given. */
    static Scan.Row row(Scan.Snapshot s, String field, String path, String layer) {
        List<Scan.Row> rows = s.rowsOf(path);
        if (rows.isEmpty()) {
            throw UhpException.notFound("file", path, field, "no changed file " + path + " in the diff (diff.list lists them)");
        }
        if (layer == null) {
            if (rows.size() > 1) {
                List<String> layers = rows.stream().map(Scan.Row::layer).toList();
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("field", "layer");
                d.put("reason", "ambiguous_layer");
                d.put("path", path);
                d.put("layers", layers);
                throw new UhpException(ErrorCode.INVALID_REQUEST, path + " is in more than one layer (" + String.join(", ",
                        layers) + "); pass layer", d);
            }
            return rows.get(0);
        }
        for (Scan.Row r : rows) {
            if (r.layer().equals(layer)) {
                return r;
            }
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", "layer");
        d.put("reason", "not_in_layer");
        d.put("path", path);
        d.put("layers", rows.stream().map(Scan.Row::layer).toList());
        throw new UhpException(ErrorCode.INVALID_REQUEST, path + " has no change in layer " + layer, d);
    }

    /** A file's two sides and their diff, read now. */
    record Loaded(Scan.Row row, ObjectId commit, Sides.Content[] sides, FileDiff.Result diff, String fingerprint) {
    }

    static Loaded load(Repository repo, Scan.Snapshot s, Base base, Scan.Row row) throws IOException {
        Sides.Content[] sides = Sides.read(repo, null, row.layer(), base, s.commit(), row.rawPath(), row.rawOldPath(),
                Sides.MAX_SIDE_BYTES);
        FileDiff.Result d = FileDiff.compute(sides[0], sides[1]);
        return new Loaded(row, s.commit(), sides, d, Scan.fingerprint(row.layer(), row.rawPath(),
                Scan.sideId(sides[0]) + "/" + Scan.sideId(sides[1])));
    }

    ObjectNode get(Call call) {
        Ctx c = ctx(call);
        String path = Text.requestPath("path", text(call, "path"));
        Scan.Snapshot s = snapshots.read(entry(c));
        Scan.Row row = row(s, "path", path, text(call, "layer"));
        boolean withLines = call.params().path("include_patch").asBoolean(false);
        Loaded l;
        try (Repository repo = Repos.open(c.rootPath())) {
            l = load(repo, s, c.base(), row);
        } catch (IOException e) {
            throw new UncheckedIOException("diff read failed in " + c.root(), e);
        }
        ObjectNode r = head(call, c, "diff_get").put("path", row.path()).put("old_path", row.oldPath()).put("layer", row.layer())
                .put("status", row.status());
        c.base().into(r, s.commit());
        r.put("fingerprint", l.fingerprint()).put("generation", s.generation());
        FileDiff.into(r, l.diff(), withLines);
        return r;
    }

    // ------------------------------------------------------------------ open, navigate

    ObjectNode open(Call call) {
        Target t = call.target(Target.class);
        Workspace w = t.workspace();
        String cli = env.get("ARTUDITU_CLI");
        if (cli == null || cli.isBlank()) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "diff.open runs the DIFF viewer as `$ARTUDITU_CLI diff view`,"
                    + " and this server was started without ARTUDITU_CLI (start it with the artu launcher)",
                    Map.of("reason", "no_cli"));
        }
        String path = text(call, "path");
        if (path != null) {
            Text.requestPath("path", path);
        }
        String layer = text(call, "layer");
        String view = call.params().path("view").asText("auto");
        String placement = call.params().path("placement").asText("preview");
        List<String> argv = new ArrayList<>(List.of(cli, "diff", "view"));
        if (path != null) {
            argv.addAll(List.of("--path", path));
        }
        if (layer != null) {
            argv.addAll(List.of("--layer", layer));
        }
        argv.addAll(List.of("--view", view));
        Base base = Base.of(null, w.metadata());
        ObjectId commit = null;
        try (Repository r = Repos.open(w.cwd())) {
            commit = base.commit(r);
        } catch (UhpException notARepositoryOrNoBase) {
            // the viewer says so itself; the pane still opens
        } catch (IOException e) {
            commit = null;
        }
        String wsId = w.id();
        String reuse = null;
        if (placement.equals("preview")) {
            synchronized (views) {
                prune(workspaces.topology());
                for (Map.Entry<String, View> v : views.entrySet()) {
                    if (v.getValue().workspaceId().equals(wsId) && v.getValue().placement().equals("preview")
                            && v.getValue().argv().equals(argv)) {
                        reuse = v.getKey();
                    }
                }
            }
        }
        boolean created = reuse == null;
        String pane = reuse;
        if (pane == null) {
            Spawner.Launch launch = new Spawner.Launch(argv, Map.of(), 80, 24);
            try {
                pane = workspaces.change(call.ifRevision(), (s, sp) -> place(s, wsId, placement, sp.with(launch)));
            } catch (IOException e) {
                throw new UhpException(ErrorCode.SPAWN_FAILED, "the DIFF viewer could not be started (" + cli + "): "
                        + e.getMessage(), Map.of("reason", "spawn_failed"));
            }
            synchronized (views) {
                prune(workspaces.topology());
                if (views.size() >= MAX_VIEWS) {
                    views.remove(views.keySet().iterator().next());
                }
                views.put(pane, new View(wsId, placement, List.copyOf(argv)));
            }
        } else {
            String p = pane;
            try {
                workspaces.change(call.ifRevision(), (s, sp) -> {
                    Change<Void> f = Lifecycle.focusPane(s, p);
                    return new Change<>(f.state(), f.events(), p);
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ObjectNode r = call.newObject().put("type", "diff_open").put("pane", pane).put("path", path).put("layer", layer)
                .put("view", view).put("placement", placement).put("created", created)
                .put("workspace", workspaces.topology().workspaceIndex(wsId)).put("workspace_id", wsId);
        base.into(r, commit);
        ArrayNode a = r.putArray("command");
        argv.forEach(a::add);
        return r;
    }

    /**
     * The viewer's pane, in one change: {@code tab} a new pane tab; {@code preview} and
     * {@code pane} a split right of the focused pane of the active pane tab (a new pane tab
     * when there is none). The new pane is focused.
     */
    static Change<String> place(Topology s, String wsId, String placement, Spawner sp) throws IOException {
        Workspace w = s.requireWorkspace(wsId);
        Lifecycle life = Lifecycle.of(sp);
        Tab active = w.tabs().stream().filter(x -> x.id().equals(w.activeTab())).findFirst().orElse(null);
        if (placement.equals("tab") || active == null || active.kind().dashboard() || active.focused() == null) {
            String pane = Long.toString(s.nextPane());
            Change<String> c = life.openPaneTab(s, wsId, w.cwd(), true, sp);
            return new Change<>(c.state(), c.events(), pane);
        }
        Change<String> c = life.splitPane(s, active.focused(), Direction.RIGHT, true, sp);
        Change<Void> f = Lifecycle.focusPane(c.state(), c.result());
        List<TopologyEvent> ev = new ArrayList<>(c.events());
        ev.addAll(f.events());
        return new Change<>(f.state(), ev, c.result());
    }

    private void prune(Topology s) {
        views.keySet().removeIf(p -> !s.panes().containsKey(p));
    }

    ObjectNode navigate(Call call) {
        Target t = call.target(Target.class);
        String pane = t.pane();
        String action = text(call, "action");
        synchronized (views) {
            prune(t.state());
            if (!views.containsKey(pane) || workspaces.exited(pane).isPresent()) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "pane " + pane + " is not a live DIFF view (diff.open makes"
                        + " one)", Map.of("field", "pane", "reason", "not_a_diff_view", "pane", pane));
            }
        }
        publish("diff.view.navigate", JsonNodeFactory.instance.objectNode().put("pane", pane).put("action", action));
        return call.newObject().put("type", "ok").put("pane", pane);
    }

    /** Whether {@code pane} is a registered DIFF view whose pane is still in the model. */
    boolean isView(String pane) {
        synchronized (views) {
            prune(workspaces.topology());
            return views.containsKey(pane);
        }
    }

    // ------------------------------------------------------------------ notes

    private NoteStore store(String root) {
        synchronized (stores) {
            NoteStore s = stores.get(root);
            if (s == null) {
                if (stores.size() >= MAX_STORES) {
                    stores.remove(stores.keySet().iterator().next());
                }
                s = NoteStore.load(home, root);
                stores.put(root, s);
            }
            return s;
        }
    }

    private NoteStore existingStore(String root) {
        synchronized (stores) {
            NoteStore s = stores.get(root);
            if (s != null || !java.nio.file.Files.exists(NoteStore.fileFor(home, root))) {
                return s;
            }
        }
        return store(root);
    }

    /** A validated note not yet stored. */
    private record Draft(Note note) {
    }

    /** Validates one note request ({@code at} prefixes the field names); reads the file's diff through {@code cache}. */
    private Draft draft(Ctx c, Scan.Snapshot s, Repository repo, JsonNode p, String at, Map<String, Loaded> cache,
            String[] author) throws IOException {
        String file = Text.requestPath(at + "file", p.path("file").asText());
        String layerParam = p.hasNonNull("layer") ? p.get("layer").asText() : null;
        Scan.Row row = row(s, at + "file", file, layerParam);
        boolean hasOld = p.hasNonNull("old_line");
        boolean hasNew = p.hasNonNull("new_line");
        if (hasOld == hasNew) {
            throw Text.refuse(at + (hasOld ? "old_line" : "new_line"), "one_side", file,
                    "a note anchors to exactly one of old_line or new_line");
        }
        boolean old = hasOld;
        int line = p.get(old ? "old_line" : "new_line").asInt();
        int end = p.hasNonNull("end_line") ? p.get("end_line").asInt() : line;
        if (line < 1) {
            throw Text.refuse(at + (old ? "old_line" : "new_line"), "not_positive", file, "lines count from 1");
        }
        if (end < line) {
            throw Text.refuse(at + "end_line", "end_before_start", file, "end_line " + end + " is before the start " + line);
        }
        if (end - line + 1 > Anchor.MAX_RANGE) {
            throw Text.refuse(at + "end_line", "range_too_long", file, "a note anchors at most " + Anchor.MAX_RANGE + " lines");
        }
        String kind = p.hasNonNull("kind") ? p.get("kind").asText() : "question";
        String body = Text.body(at + "body", p.path("body").asText(null));
        Loaded l = cache.get(row.key());
        if (l == null) {
            l = load(repo, s, c.base(), row);
            cache.put(row.key(), l);
        }
        Lines text = old ? l.diff().oldText() : l.diff().newText();
        if (text == null) {
            throw Text.refuse(at + "file", l.diff().binary() ? "binary" : "too_large", file,
                    file + " has no text diff to anchor a note to (" + (l.diff().binary() ? "binary" : "too large") + ")");
        }
        for (int i = line; i <= end; i++) {
            if (!l.diff().hasLine(old, i)) {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("field", at + (i == line ? (old ? "old_line" : "new_line") : "end_line"));
                d.put("reason", "line_outside_diff");
                d.put("path", file);
                d.put("line", i);
                d.put("side", old ? "old" : "new");
                throw new UhpException(ErrorCode.INVALID_REQUEST, (old ? "old" : "new") + " line " + i + " of " + file
                        + " is not in the loaded diff (notes anchor to lines its hunks show)", d);
            }
        }
        List<String> all = lines(text);
        Note n = new Note();
        n.path = row.path();
        n.rawPath = row.rawPath();
        n.layer = row.layer();
        n.base = c.base();
        n.side = old ? "old" : "new";
        n.line = line;
        n.endLine = end;
        n.kind = kind;
        n.body = body;
        n.state = "open";
        n.authorKind = author[0];
        n.authorPane = author[1];
        n.authorAgent = author[2];
        n.anchor = Anchor.slice(all, line, end);
        n.before = Anchor.slice(all, line - Anchor.CONTEXT, line - 1);
        n.after = Anchor.slice(all, end + 1, end + Anchor.CONTEXT);
        n.seen = Scan.digest(sideBytes(l.sides()[old ? 0 : 1]));
        n.madeOn = l.fingerprint();
        return new Draft(n);
    }

    private static byte[] sideBytes(Sides.Content c) {
        return c.bytes() == null ? new byte[0] : c.bytes();
    }

    static List<String> lines(Lines t) {
        List<String> out = new ArrayList<>(t.size());
        for (int i = 0; i < t.size(); i++) {
            out.add(t.line(i));
        }
        return out;
    }

    /** Who is adding: the pane given as author_pane (and its agent), else the person. */
    private String[] author(Call call) {
        String pane = text(call, "author_pane");
        if (pane == null) {
            return new String[] {"person", null, null};
        }
        if (!workspaces.topology().panes().containsKey(pane)) {
            throw UhpException.notFound("pane", pane, "author_pane", "no such pane: " + pane);
        }
        AgentStates a = agents.get();
        String agent = a == null ? null : a.state(pane).map(AgentStates.AgentState::name).orElse(null);
        return new String[] {"pane", pane, agent};
    }

    private List<Note> create(Call call, List<JsonNode> items, boolean batch) {
        Ctx c = ctx(call);
        String[] author = author(call);
        Scan.Snapshot s = snapshots.read(entry(c));
        List<Draft> drafts = new ArrayList<>();
        Map<String, Loaded> cache = new HashMap<>();
        try (Repository repo = Repos.open(c.rootPath())) {
            for (int i = 0; i < items.size(); i++) {
                drafts.add(draft(c, s, repo, items.get(i), batch ? "notes[" + i + "]." : "", cache, author));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("diff read failed in " + c.root(), e);
        }
        NoteStore store = store(c.root());
        List<Note> made = new ArrayList<>();
        synchronized (store) {
            if (store.notes.size() + drafts.size() > NoteStore.MAX_NOTES) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "this repository holds " + store.notes.size()
                        + " notes; at most " + NoteStore.MAX_NOTES + " (remove resolved ones)",
                        Map.of("field", batch ? "notes" : "body", "reason", "capacity", "limit", NoteStore.MAX_NOTES));
            }
            long next = store.next;
            String now = Instant.now().toString();
            for (Draft d : drafts) {
                d.note().id = store.newId();
                d.note().createdAt = now;
                d.note().updatedAt = now;
                store.notes.put(d.note().id, d.note());
                made.add(d.note());
            }
            try {
                store.save();
            } catch (IOException e) {
                made.forEach(n -> store.notes.remove(n.id));
                store.next = next;
                throw new UncheckedIOException("the notes of " + c.root() + " could not be written", e);
            }
        }
        made.forEach(n -> changed(n, "added"));
        return made;
    }

    ObjectNode noteAdd(Call call) {
        Note n = create(call, List.of(call.params()), false).get(0);
        return call.newObject().put("type", "diff_note").set("note", n.json());
    }

    ObjectNode noteApply(Call call) {
        List<JsonNode> items = new ArrayList<>();
        call.params().path("notes").forEach(items::add);
        List<Note> made = create(call, items, true);
        ObjectNode r = call.newObject().put("type", "diff_notes_applied");
        ArrayNode a = r.putArray("notes");
        made.forEach(n -> a.add(n.json()));
        return r;
    }

    ObjectNode noteList(Call call) {
        Ctx c = ctx(call);
        String file = text(call, "file");
        String state = text(call, "state");
        NoteStore store = existingStore(c.root());
        ObjectNode r = call.newObject().put("type", "diff_notes").put("workspace_id", c.workspace().id())
                .put("root", c.root());
        ArrayNode a = r.putArray("notes");
        if (store != null) {
            synchronized (store) {
                for (Note n : store.notes.values()) {
                    if ((file == null || file.equals(n.path)) && (state == null || state.equals(n.state))) {
                        a.add(n.json());
                    }
                }
            }
        }
        return r;
    }

    /** Runs a change of one note under its store's monitor and saves; the note's new shape. */
    private Note change(Call call, java.util.function.Consumer<Note> edit, String change) {
        Ctx c = ctx(call);
        String id = text(call, "id");
        NoteStore store = store(c.root());
        Note n;
        synchronized (store) {
            n = store.notes.get(id);
            if (n == null) {
                throw UhpException.notFound("note", id, "id", "no note " + id + " in this repository");
            }
            ObjectNode before = n.stored();
            edit.accept(n);
            n.updatedAt = Instant.now().toString();
            try {
                store.save();
            } catch (IOException e) {
                Note back = Note.fromStored(before);
                store.notes.put(id, back);
                throw new UncheckedIOException("the notes of " + c.root() + " could not be written", e);
            }
        }
        changed(n, change);
        return n;
    }

    ObjectNode noteEdit(Call call) {
        String body = Text.body("body", text(call, "body"));
        Note n = change(call, x -> x.body = body, "edited");
        return call.newObject().put("type", "diff_note").set("note", n.json());
    }

    ObjectNode noteState(Call call, String verb) {
        Note n = change(call, x -> {
            if (verb.equals("resolve")) {
                x.state = "resolved";
            } else if (x.state.equals("resolved")) {
                x.state = "open";
                x.seen = null; // the next scan re-anchors it
            }
        }, verb.equals("resolve") ? "resolved" : "reopened");
        if (verb.equals("reopen")) {
            String root = ctx(call).root();
            reanchor(root, List.of(n));
        }
        return call.newObject().put("type", "diff_note").set("note", n.json());
    }

    ObjectNode noteRemove(Call call) {
        Ctx c = ctx(call);
        String id = text(call, "id");
        NoteStore store = store(c.root());
        Note n;
        synchronized (store) {
            n = store.notes.remove(id);
            if (n == null) {
                throw UhpException.notFound("note", id, "id", "no note " + id + " in this repository");
            }
            try {
                store.save();
            } catch (IOException e) {
                store.notes.put(id, n);
                throw new UncheckedIOException("the notes of " + c.root() + " could not be written", e);
            }
        }
        changed(n, "removed");
        return call.newObject().put("type", "diff_note").set("note", n.json());
    }

    // ------------------------------------------------------------------ send

    ObjectNode noteSend(Call call) {
        Ctx c = ctx(call);
        String to = text(call, "to");
        boolean all = call.params().path("all_open").asBoolean(false);
        JsonNode ids = call.params().get("ids");
        if (all == (ids != null && !ids.isNull())) {
            throw Text.refuse("ids", "ids_or_all_open", null, "pass note ids in ids, or all_open:true (not both)");
        }
        Topology topo = workspaces.topology();
        if (!topo.panes().containsKey(to)) {
            String byName = null;
            for (var p : topo.panes().values()) {
                if (to.equals(p.name())) {
                    byName = byName == null ? p.id() : "";
                }
            }
            if (byName == null || byName.isEmpty()) {
                throw UhpException.notFound("pane", to, "to", "no pane " + to + " (a pane id or a unique pane name)");
            }
            to = byName;
        }
        String pane = to;
        var exit = workspaces.exited(pane);
        if (exit.isPresent()) {
            throw UhpException.notFound("pane", pane, "to", "the process of pane " + pane + " has exited",
                    exit.get().evidence());
        }
        AgentStates a = agents.get();
        TerminalScreens sc = screens.get();
        if (a == null || sc == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "sending needs the agents and terminal bundles; retry when"
                    + " they are back");
        }
        var agent = a.state(pane);
        if (agent.isEmpty()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "no agent is recognised in pane " + pane
                    + " (a shell, or a program no manifest knows)", Map.of("field", "to", "reason", "not_agent", "pane", pane));
        }
        NoteStore store = store(c.root());
        List<Note> chosen = new ArrayList<>();
        synchronized (store) {
            if (all) {
                store.notes.values().stream().filter(n -> n.state.equals("open")).forEach(chosen::add);
            } else {
                Set<String> seen = new java.util.HashSet<>();
                for (JsonNode id : ids) {
                    Note n = store.notes.get(id.asText());
                    if (n == null) {
                        throw UhpException.notFound("note", id.asText(), "ids", "no note " + id.asText() + " in this repository");
                    }
                    if (seen.add(n.id)) {
                        chosen.add(n);
                    }
                }
            }
        }
        if (chosen.isEmpty()) {
            throw Text.refuse(all ? "all_open" : "ids", "no_notes", null, "there is no open note to send");
        }
        String message = message(chosen);
        int size = message.getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_SEND_BYTES) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("field", all ? "all_open" : "ids");
            d.put("reason", "message_too_large");
            d.put("bytes", size);
            d.put("limit", MAX_SEND_BYTES);
            throw new UhpException(ErrorCode.INVALID_REQUEST, "the grouped message is " + size + " bytes; at most "
                    + MAX_SEND_BYTES + " are sent at once: send fewer notes", d);
        }
        var info = workspaces.pane(pane).orElseThrow(() -> UhpException.notFound("pane", pane, "to", "no such pane: " + pane));
        byte[] bytes = sc.read(info.terminalId(), term -> {
            byte[] paste = Input.paste(message, term);
            byte[] b = java.util.Arrays.copyOf(paste, paste.length + 1);
            b[paste.length] = '\r';
            return b;
        }).orElseThrow(() -> UhpException.notFound("pane", pane, "to", "the process of pane " + pane + " has exited"));
        try {
            sc.write(info.terminalId(), bytes);
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            if (e instanceof io.artuditu.pty.PtyInputException p
                    && p.reason() == io.artuditu.pty.PtyInputException.Reason.EXITED) {
                throw UhpException.notFound("pane", pane, "to", "the process of pane " + pane + " has exited");
            }
            throw new UhpException(ErrorCode.INVALID_REQUEST, "input to pane " + pane + " was refused: " + m,
                    Map.of("reason", "input_refused", "pane", pane));
        }
        String at = Instant.now().toString();
        String agentName = agent.get().name();
        synchronized (store) {
            for (Note n : chosen) {
                if (n.sent.size() >= Note.MAX_SENT) {
                    n.sent.remove(0);
                }
                n.sent.add(JsonNodeFactory.instance.objectNode().put("at", at).put("pane", pane).put("agent", agentName));
                n.updatedAt = at;
            }
            try {
                store.save();
            } catch (IOException e) {
                System.getLogger(DiffFamily.class.getName()).log(System.Logger.Level.WARNING,
                        "the delivery to pane " + pane + " is recorded in memory only", e);
            }
        }
        chosen.forEach(n -> changed(n, "sent"));
        ObjectNode r = call.newObject().put("type", "diff_note_sent").put("pane", pane).put("agent", agentName)
                .put("bytes", bytes.length);
        ArrayNode a2 = r.putArray("ids");
        chosen.forEach(n -> a2.add(n.id));
        return r;
    }

    /** The grouped message: one block per note (file, lines, kind, id, quote, body). */
    static String message(List<Note> notes) {
        StringBuilder b = new StringBuilder();
        b.append("Review notes (").append(notes.size()).append(notes.size() == 1 ? " note" : " notes")
                .append(") from Artuditu. Each has an id; say which ones you addressed.\n");
        int i = 1;
        for (Note n : notes) {
            b.append('\n').append(i++).append(". ").append(n.path).append(':').append(n.line);
            if (n.endLine != n.line) {
                b.append('-').append(n.endLine);
            }
            b.append(n.old() ? " (old side" : " (").append(n.old() ? ", " : "").append(n.layer).append(") [")
                    .append(n.kind).append("] id ").append(n.id);
            if (!n.state.equals("open")) {
                b.append(" (").append(n.state).append(')');
            }
            b.append('\n');
            for (String q : n.quote()) {
                b.append("   > ").append(q).append('\n');
            }
            for (String l : n.body.split("\n", -1)) {
                b.append("   ").append(l).append('\n');
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ after a scan

    /** Worker: a scan changed a snapshot: tell its workspaces and re-anchor the repository's notes. */
    private void scanned(Snapshots.Entry e, Scan.Snapshot before) {
        Scan.Snapshot s = e.snap;
        List<String> wss;
        synchronized (snapshots) {
            wss = new ArrayList<>(e.workspaces);
        }
        for (String ws : wss) {
            publish("diff.changed", JsonNodeFactory.instance.objectNode().put("workspace_id", ws)
                    .put("generation", s.generation()));
        }
        NoteStore store = existingStore(e.root);
        if (store != null) {
            List<Note> open;
            synchronized (store) {
                open = store.notes.values().stream().filter(n -> !n.state.equals("resolved")).toList();
            }
            reanchor(e.root, open);
        }
    }

    /** Re-anchors {@code notes} of the repository at {@code root} against their sides as they are now. */
    void reanchor(String root, List<Note> notes) {
        if (notes.isEmpty()) {
            return;
        }
        NoteStore store = store(root);
        Map<String, Sides.Content> contents = new HashMap<>();
        Map<String, List<String>> texts = new HashMap<>();
        List<Note> moved = new ArrayList<>();
        try (Repository repo = Repos.open(Path.of(root))) {
            for (Note n : notes) {
                String key = n.layer + "\u0000" + n.base.key() + "\u0000" + n.side + "\u0000" + n.rawPath;
                Sides.Content side = contents.get(key);
                if (side == null) {
                    ObjectId commit = null;
                    try {
                        commit = n.base.commit(repo);
                    } catch (UhpException baseGone) {
                        commit = null;
                    }
                    side = n.base.index() || commit != null || !n.old()
                            ? Sides.side(repo, n.layer, n.base, commit, n.rawPath, n.old(), Sides.MAX_SIDE_BYTES)
                            : Sides.Content.ABSENT;
                    contents.put(key, side);
                }
                if (side.tooBig()) {
                    continue; // too big to read: left as it was
                }
                String digest = side.exists() ? Scan.digest(side.bytes()) : "absent";
                synchronized (store) {
                    if (digest.equals(n.seen) || !store.notes.containsKey(n.id) || n.state.equals("resolved")) {
                        continue;
                    }
                }
                List<String> text = null;
                Sides.Content now = side;
                if (now.exists() && !FileDiff.binary(now.bytes())) {
                    text = texts.computeIfAbsent(key, k -> lines(new Lines(now.bytes())));
                }
                Anchor.Where w = Anchor.locate(text, n.anchor, n.before, n.after, n.line, n.endLine);
                synchronized (store) {
                    n.seen = digest;
                    if (!w.state().equals(n.state) || w.line() != n.line || w.endLine() != n.endLine) {
                        n.state = w.state();
                        n.line = w.line();
                        n.endLine = w.endLine();
                        n.updatedAt = Instant.now().toString();
                        moved.add(n);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            System.getLogger(DiffFamily.class.getName()).log(System.Logger.Level.WARNING, "re-anchoring in " + root, e);
        }
        if (!moved.isEmpty()) {
            synchronized (store) {
                try {
                    store.save();
                } catch (IOException e) {
                    System.getLogger(DiffFamily.class.getName()).log(System.Logger.Level.WARNING,
                            "re-anchored notes of " + root + " not written", e);
                }
            }
            moved.forEach(n -> changed(n, "reanchored"));
        }
    }

    private void changed(Note n, String change) {
        publish("diff.note.changed", JsonNodeFactory.instance.objectNode().put("id", n.id).put("path", n.path)
                .put("state", n.state).put("change", change));
    }

    private void publish(String event, ObjectNode data) {
        EventBus b = bus.get();
        if (b != null) {
            b.publish(event, data);
        }
    }

    static String text(Call call, String field) {
        JsonNode n = call.params().get(field);
        return n == null || n.isNull() ? null : n.asText();
    }
}

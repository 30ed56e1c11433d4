package io.artuditu.model.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Layouts;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The session file, {@code <home>/session.json}: the topology without processes or
 * terminal text (see docs/topology.md, "Persistence").
 *
 * <p>Writing: {@link #changed} only hands over an immutable {@link Topology} (cheap, any
 * thread); one small daemon thread writes the newest one {@link #DEBOUNCE_MILLIS} after
 * the first unsaved change, so a burst of changes costs one write and a {@code kill -9}
 * loses at most that interval. {@link #close} writes synchronously. A state counts as
 * saved only once its write succeeded: a failed write is retried by the writer thread after
 * {@link #DEBOUNCE_MILLIS}, doubling up to {@link #MAX_RETRY_MILLIS} (each retry writes the
 * newest state, the first failure of a streak is logged as a WARNING and the recovery as
 * INFO), and {@link #close} tries once more whatever is still unsaved. Each write goes to a
 * temporary file in the same folder, is forced to disk, renamed over the old file in one
 * step, and the folder is forced: a crash at any point leaves the old file or the new one,
 * never a mix (the same approach as the config bundle's {@code config.toml}).
 *
 * <p>Reading: {@link #load} refuses files over {@link #MAX_BYTES}; a file it cannot read or
 * that is not a valid session is moved aside to {@code session.json.corrupt-<timestamp>},
 * reported as a WARNING, and the server starts clean. A valid session that only holds more
 * workspaces, tabs or panes than the limits of this server ({@link #trim}) is not refused:
 * what fits is restored, the rest dropped with a WARNING, and the original copied to
 * {@code session.json.trimmed-<timestamp>}.
 */
final class SessionStore implements AutoCloseable {
    static final String NAME = "session.json";
    static final int FORMAT = 1;
    static final long MAX_BYTES = 16L * 1024 * 1024;
    static final long DEBOUNCE_MILLIS = 250;
    /** The longest wait between two attempts to save after failed writes. */
    static final long MAX_RETRY_MILLIS = 4000;
    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final Path path;
    private final long debounceMillis;
    private final long maxRetryMillis;
    private final ScheduledExecutorService writer;
    /** Guards the fields below. */
    private final Object lock = new Object();
    private Topology latest;
    private Topology written;
    private ScheduledFuture<?> pending;
    private boolean closed;
    /** Failed writes since the last successful one (0: no failure streak). */
    private int failing;
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();

    SessionStore(Path home) {
        this(home, DEBOUNCE_MILLIS);
    }

    SessionStore(Path home, long debounceMillis) {
        this(home, debounceMillis, Math.max(debounceMillis, MAX_RETRY_MILLIS));
    }

    /** @param maxRetryMillis the cap of the doubling wait between attempts after failed writes (tests shorten it) */
    SessionStore(Path home, long debounceMillis, long maxRetryMillis) {
        this.path = home.resolve(NAME);
        this.debounceMillis = debounceMillis;
        this.maxRetryMillis = maxRetryMillis;
        ScheduledThreadPoolExecutor w = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "artuditu-session-writer");
            t.setDaemon(true);
            return t;
        });
        // close() writes whatever is unsaved itself: a debounce or retry still waiting then is
        // dropped, not waited for
        w.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        w.setRemoveOnCancelPolicy(true);
        this.writer = w;
    }

    Path path() {
        return path;
    }

    /** How many times the file was written (tests). */
    int writes() {
        return writes.get();
    }

    /** How many writes failed (tests). */
    int failures() {
        return failures.get();
    }

    // ---------------------------------------------------------------- saving

    /** Hands over the newest state; a write follows within the debounce interval. Any thread, never blocks on I/O. */
    void changed(Topology t) {
        synchronized (lock) {
            if (closed) {
                return;
            }
            latest = t;
            if (pending == null) {
                pending = writer.schedule(this::flushQuietly, debounceMillis, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (IOException | RuntimeException e) {
            // flush() logged it and, unless closed, scheduled the retry
        }
    }

    /**
     * Writes the newest state now if it was not written yet. Only a successful write marks
     * it written; a failure is logged (once per streak of failures) and, unless the store is
     * closed, retried later with a doubling delay, then rethrown.
     */
    void flush() throws IOException {
        Topology t;
        synchronized (lock) {
            pending = null;
            t = latest;
            if (t == null || t == written) {
                return;
            }
        }
        try {
            synchronized (path) { // the writer thread and close() never write at once
                write(t);
            }
        } catch (IOException | RuntimeException e) {
            failed(e);
            throw e;
        }
        synchronized (lock) {
            written = t;
            if (failing > 0) {
                LOG.log(Level.INFO, "saved the session to " + path + " again after " + failing + " failed "
                        + (failing == 1 ? "attempt" : "attempts"));
            }
            failing = 0;
        }
    }

    private void failed(Exception e) {
        failures.incrementAndGet();
        synchronized (lock) {
            failing++;
            long delay = retryDelay(failing);
            if (closed) {
                LOG.log(Level.WARNING, "could not save the session to " + path + " when closing: " + e
                        + "; the last changes are not saved");
            } else if (failing == 1) {
                LOG.log(Level.WARNING, "could not save the session to " + path + ": " + e
                        + "; retrying every few seconds until it works");
            } else {
                LOG.log(Level.DEBUG, "could not save the session to " + path + " (attempt " + failing + "): " + e);
            }
            if (!closed && pending == null) {
                pending = writer.schedule(this::flushQuietly, delay, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The wait before attempt {@code failing + 1}: the debounce interval, doubled per failure, at most the cap. */
    private long retryDelay(int failing) {
        long d = Math.max(1, debounceMillis);
        for (int i = 1; i < failing && d < maxRetryMillis; i++) {
            d *= 2;
        }
        return Math.min(d, maxRetryMillis);
    }

    /** Writes the last state synchronously (also one that failed before), then accepts no more. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            if (pending != null) {
                pending.cancel(false);
            }
        }
        writer.shutdown();
        try {
            writer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushQuietly();
    }

    /** Replaces the file with {@code t}, atomically (temp file, fsync, rename, folder fsync), mode 0600. */
    void write(Topology t) throws IOException {
        byte[] bytes = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(toJson(t));
        if (bytes.length > MAX_BYTES) {
            throw new IOException("the session would be larger than " + MAX_BYTES + " bytes");
        }
        Files.createDirectories(path.getParent());
        boolean synced = AtomicFiles.write(path, bytes);
        writes.incrementAndGet();
        if (!synced) {
            LOG.log(Level.WARNING, "could not sync " + path.getParent() + " after writing " + NAME);
        }
    }

    // ---------------------------------------------------------------- loading

    /**
     * The saved session, with every pane's {@code terminalId} null; empty when there is no
     * file, or when it was unreadable, too large or invalid (then it has been moved aside
     * and the reason logged). What an interrupted write left beside the file goes first.
     */
    Optional<Topology> load() {
        try {
            AtomicFiles.removeLeftovers(path);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot look for temporary files beside " + path + ": " + e.getMessage());
        }
        try {
            long size;
            try {
                size = Files.size(path);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            if (size > MAX_BYTES) {
                throw new IOException("the file is " + size + " bytes, more than the limit of " + MAX_BYTES);
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(path)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
            if (bytes.length > MAX_BYTES) {
                throw new IOException("the file is larger than the limit of " + MAX_BYTES + " bytes");
            }
            Topology full = fromJson(MAPPER.readTree(bytes));
            Topology t = trim(full);
            if (t != full) {
                keepTrimmed(full, t);
            }
            return Optional.of(t);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            Path aside = path.resolveSibling(NAME + ".corrupt-" + STAMP.format(Instant.now()));
            String reason = e instanceof UhpException || e instanceof IllegalArgumentException
                    ? e.getMessage() : e.toString();
            try {
                Files.move(path, aside, StandardCopyOption.REPLACE_EXISTING);
                LOG.log(Level.WARNING, "the saved session " + path + " could not be restored (" + reason
                        + "); kept as " + aside + ", starting with an empty session");
            } catch (IOException m) {
                LOG.log(Level.WARNING, "the saved session " + path + " could not be restored (" + reason
                        + ") nor moved aside (" + m + "); starting with an empty session");
            }
            return Optional.empty();
        }
    }

    /** Logs what {@link #trim} dropped and keeps a copy of the file as it was (best effort). */
    private void keepTrimmed(Topology full, Topology t) {
        List<String> dropped = new ArrayList<>();
        count(dropped, full.workspaces().size() - t.workspaces().size(), "workspace");
        count(dropped, tabs(full) - tabs(t), "tab");
        count(dropped, full.panes().size() - t.panes().size(), "pane");
        String what = String.join(", ", dropped);
        String limits = "at most " + Topology.MAX_WORKSPACES + " workspaces, " + Topology.MAX_TABS
                + " tabs per workspace and " + Topology.MAX_PANES + " panes";
        Path copy = path.resolveSibling(NAME + ".trimmed-" + STAMP.format(Instant.now()));
        String kept;
        try {
            Files.copy(path, copy, StandardCopyOption.REPLACE_EXISTING);
            kept = "the original is kept as " + copy;
        } catch (IOException e) {
            kept = "the original could not be copied aside (" + e + ")";
        }
        LOG.log(Level.WARNING, "the saved session " + path + " holds more than this server keeps (" + limits
                + "); restoring the rest without " + what + "; " + kept);
    }

    private static void count(List<String> out, int n, String what) {
        if (n > 0) {
            out.add(n + " " + what + (n == 1 ? "" : "s"));
        }
    }

    private static int tabs(Topology t) {
        return t.workspaces().stream().mapToInt(w -> w.tabs().size()).sum();
    }

    /**
     * A valid session cut down to this server's limits, or {@code t} itself when it fits.
     * Such a file is not garbage: an older or newer server with other limits may have
     * written it, and refusing it would throw away the whole session for its last few
     * objects. Kept, in API order: the first {@link Topology#MAX_WORKSPACES} workspaces, the
     * first {@link Topology#MAX_TABS} tabs of each, and the first {@link Topology#MAX_PANES}
     * panes in workspace, tab and tree order (a pane tab left without panes goes, a tree cut
     * in the middle loses its later leaves as if those panes had exited). An active
     * workspace or tab that was dropped passes to the last one kept.
     */
    static Topology trim(Topology t) {
        boolean over = t.workspaces().size() > Topology.MAX_WORKSPACES || t.panes().size() > Topology.MAX_PANES
                || t.workspaces().stream().anyMatch(w -> w.tabs().size() > Topology.MAX_TABS);
        if (!over) {
            return t;
        }
        int budget = Topology.MAX_PANES;
        Set<String> placed = new HashSet<>();
        List<String> cut = new ArrayList<>(); // kept in the tree for now, removed below
        List<Workspace> out = new ArrayList<>();
        for (Workspace w : t.workspaces().subList(0, Math.min(t.workspaces().size(), Topology.MAX_WORKSPACES))) {
            List<Tab> kept = new ArrayList<>();
            for (Tab tab : w.tabs().subList(0, Math.min(w.tabs().size(), Topology.MAX_TABS))) {
                if (tab.root() == null) {
                    kept.add(tab);
                    continue;
                }
                if (budget == 0) {
                    continue;
                }
                List<String> leaves = Topology.leaves(tab.root());
                int take = Math.min(budget, leaves.size());
                placed.addAll(leaves);
                cut.addAll(leaves.subList(take, leaves.size()));
                budget -= take;
                kept.add(tab);
            }
            String active = w.activeTab();
            if (kept.stream().noneMatch(x -> x.id().equals(w.activeTab()))) {
                active = kept.isEmpty() ? null : kept.get(kept.size() - 1).id();
            }
            out.add(w.withTabs(kept, active));
        }
        String activeWs = t.activeWorkspace();
        if (out.stream().noneMatch(w -> w.id().equals(t.activeWorkspace()))) {
            activeWs = out.isEmpty() ? null : out.get(out.size() - 1).id();
        }
        Map<String, Pane> panes = new LinkedHashMap<>(t.panes());
        panes.keySet().retainAll(placed);
        Topology r = new Topology(out, activeWs, panes, t.nextPane(), t.version());
        for (String id : cut) {
            r = Lifecycle.removePane(r, id).state();
        }
        return new Topology(r.workspaces(), r.activeWorkspace(), r.panes(), r.nextPane(), t.version());
    }

    // ---------------------------------------------------------------- format

    static ObjectNode toJson(Topology t) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode().put("format", FORMAT).put("next_pane", t.nextPane());
        root.put("active_workspace", t.activeWorkspace());
        ArrayNode wss = root.putArray("workspaces");
        for (Workspace w : t.workspaces()) {
            ObjectNode o = wss.addObject().put("id", w.id()).put("name", w.name()).put("cwd", w.cwd().toString())
                    .put("pinned", w.pinned()).put("active_tab", w.activeTab());
            ArrayNode tabs = o.putArray("tabs");
            for (Tab tab : w.tabs()) {
                ObjectNode to = tabs.addObject().put("id", tab.id()).put("kind", tab.kind().wire())
                        .put("label", tab.label()).put("focused", tab.focused()).put("zoomed", tab.zoomed());
                if (tab.root() != null) {
                    to.set("layout", Layouts.toJson(tab.root()));
                } else {
                    to.putNull("layout");
                }
            }
        }
        ArrayNode panes = root.putArray("panes");
        for (Pane p : t.panes().values()) {
            ObjectNode o = panes.addObject().put("id", p.id()).put("cwd", p.cwd() == null ? null : p.cwd().toString());
            ArrayNode cmd = o.putArray("command");
            p.command().forEach(cmd::add);
            o.put("name", p.name()).put("purpose", p.purpose());
        }
        return root;
    }

    /** Reads and checks a session document; anything wrong is an {@link IllegalArgumentException} or a {@link UhpException}. */
    static Topology fromJson(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw bad("the document is not a JSON object");
        }
        if (!root.path("format").isInt() || root.get("format").asInt() != FORMAT) {
            throw bad("unknown format " + root.get("format") + " (expected " + FORMAT + ")");
        }
        JsonNode np = root.get("next_pane");
        if (np == null || !np.canConvertToLong() || !np.isIntegralNumber() || np.asLong() < 1) {
            throw bad("next_pane must be a positive integer");
        }
        long nextPane = np.asLong();
        // panes
        JsonNode pa = array(root, "panes");
        Map<String, Pane> panes = new LinkedHashMap<>();
        for (JsonNode p : pa) {
            String id = text(p, "id", false);
            if (!id.matches("[1-9][0-9]{0,17}") || Long.parseLong(id) >= nextPane) {
                throw bad("pane id " + id + " is malformed or not below next_pane");
            }
            List<String> cmd = new ArrayList<>();
            for (JsonNode c : array(p, "command")) {
                if (!c.isTextual()) {
                    throw bad("pane " + id + ": command must be strings");
                }
                cmd.add(c.asText());
            }
            Pane pane = new Pane(id, null, absolute(text(p, "cwd", false), "pane " + id), cmd, text(p, "name", true),
                    text(p, "purpose", true));
            if (panes.put(id, pane) != null) {
                throw bad("pane " + id + " appears twice");
            }
        }
        // workspaces and tabs
        JsonNode wa = array(root, "workspaces");
        Set<String> ids = new HashSet<>();
        Set<String> placed = new HashSet<>();
        List<Workspace> workspaces = new ArrayList<>();
        for (JsonNode w : wa) {
            String wid = text(w, "id", false);
            if (!wid.matches("workspace_[0-9a-f]{16}") || !ids.add(wid)) {
                throw bad("workspace id " + wid + " is malformed or repeated");
            }
            JsonNode ta = array(w, "tabs");
            List<Tab> tabs = new ArrayList<>();
            for (JsonNode t : ta) {
                String tid = text(t, "id", false);
                if (!tid.matches("tab_[0-9a-f]{16}") || !ids.add(tid)) {
                    throw bad("tab id " + tid + " is malformed or repeated");
                }
                TabKind kind = TabKind.of(text(t, "kind", false)).orElseThrow(() -> bad("tab " + tid + ": unknown kind"));
                JsonNode layout = t.get("layout");
                String focused = text(t, "focused", true);
                Node tree = null;
                if (kind.dashboard()) {
                    if (layout != null && !layout.isNull() || focused != null) {
                        throw bad("dashboard tab " + tid + " has a layout or a focus");
                    }
                } else {
                    if (layout == null || layout.isNull()) {
                        throw bad("pane tab " + tid + " has no layout");
                    }
                    tree = Layouts.fromJson(layout);
                    List<String> leaves = Topology.leaves(tree);
                    Set<String> own = new HashSet<>(leaves);
                    Layouts.validate(tree, own); // no duplicates within the tab, ratios, depth
                    for (String leaf : leaves) {
                        if (!panes.containsKey(leaf) || !placed.add(leaf)) {
                            throw bad("tab " + tid + ": pane " + leaf + " is unknown or in two tabs");
                        }
                    }
                    if (focused == null || !own.contains(focused)) {
                        throw bad("tab " + tid + ": the focused pane is not in the tab");
                    }
                }
                JsonNode z = t.get("zoomed");
                if (z == null || !z.isBoolean()) {
                    throw bad("tab " + tid + ": zoomed must be a boolean");
                }
                tabs.add(new Tab(tid, kind, text(t, "label", true), tree, focused, z.asBoolean()));
            }
            String active = text(w, "active_tab", true);
            if (active == null ? !tabs.isEmpty() : tabs.stream().noneMatch(t -> t.id().equals(active))) {
                throw bad("workspace " + wid + ": active_tab is not one of its tabs");
            }
            JsonNode pinned = w.get("pinned");
            if (pinned == null || !pinned.isBoolean()) {
                throw bad("workspace " + wid + ": pinned must be a boolean");
            }
            workspaces.add(new Workspace(wid, text(w, "name", false), absolute(text(w, "cwd", false), "workspace " + wid),
                    pinned.asBoolean(), tabs, active));
        }
        if (placed.size() != panes.size()) {
            throw bad("some panes are in no tab");
        }
        String activeWs = text(root, "active_workspace", true);
        if (activeWs == null ? !workspaces.isEmpty() : workspaces.stream().noneMatch(w -> w.id().equals(activeWs))) {
            throw bad("active_workspace is not one of the workspaces");
        }
        return new Topology(workspaces, activeWs, panes, nextPane, 0);
    }

    private static JsonNode array(JsonNode o, String field) {
        JsonNode a = o == null ? null : o.get(field);
        if (a == null || !a.isArray()) {
            throw bad(field + " must be an array");
        }
        return a;
    }

    private static String text(JsonNode o, String field, boolean nullable) {
        if (o == null || !o.isObject()) {
            throw bad("expected an object holding " + field);
        }
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            if (nullable) {
                return null;
            }
            throw bad(field + " is missing");
        }
        if (!v.isTextual()) {
            throw bad(field + " must be a string");
        }
        return v.asText();
    }

    private static Path absolute(String p, String what) {
        Path path;
        try {
            path = Path.of(p);
        } catch (RuntimeException e) {
            throw bad(what + ": invalid cwd");
        }
        if (!path.isAbsolute()) {
            throw bad(what + ": cwd must be absolute");
        }
        return path;
    }

    private static IllegalArgumentException bad(String why) {
        return new IllegalArgumentException("invalid session: " + why);
    }
}

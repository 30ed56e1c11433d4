package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The live state the workbench draws: bar widgets, docks and notifications, with every
 * limit of the spec. Each change is checked whole first (owner, declaration, fields,
 * widths, counts, rate) and only then replaces the old value, so invalid input leaves the
 * previous value intact. Placements ({@code move}) persist in {@code <home>/modules/ui.json};
 * live content does not. One lock; nothing here blocks on I/O but the placement file.
 *
 * <p>A notification ends at its deadline: no list shows it from then on, and one task on the
 * timer, due at the earliest deadline in the queue, removes what has ended and announces it
 * ({@link Listener#notificationsChanged}), so clients learn of an expiry without polling.
 */
final class UiStore {
    private static final Logger LOG = System.getLogger(UiStore.class.getName());
    static final List<String> REGIONS = List.of("top-right", "bottom-right", "off");

    /** What changed, for the event the family publishes. */
    interface Listener {
        void barChanged(String owner, String id);

        void dockChanged(String owner, String id);

        void notificationsChanged();
    }

    record Widget(String owner, String id, ArrayNode content, ArrayNode compact, int priority, int width,
            int compactWidth, long updatedAtMs) {
        String key() {
            return owner + "/" + id;
        }
    }

    record Dock(String owner, String id, String title, ArrayNode rows, long updatedAtMs) {
        String key() {
            return owner + "/" + id;
        }
    }

    record Note(String id, String owner, String text, String level, int ttlMs, long expiresAtMs, String action,
            String value, String dedupeKey) {
    }

    private final Directory modules;
    private final Listener listener;
    private final Path placementsFile;
    private final LongSupplier clock;
    private final Map<String, Widget> widgets = new LinkedHashMap<>();
    private final Map<String, Dock> docks = new LinkedHashMap<>();
    private final Deque<Note> notes = new ArrayDeque<>();
    private final Map<String, Deque<Long>> updates = new HashMap<>();
    /** owner/id → region, and owner/id → side: what move set, persisted. */
    private final Map<String, String> barRegions = new LinkedHashMap<>();
    private final Map<String, String> dockSides = new LinkedHashMap<>();
    private long noteCounter;
    private final ScheduledExecutorService timer;
    /** The one pending expiry, for the earliest deadline in {@code notes}; null when none is pending. */
    private ScheduledFuture<?> expiry;
    private long expiryAt;
    /** Which scheduled expiry is the pending one: one cancelled while it already ran does nothing. */
    private long expiryGeneration;

    /**
     * @param clock epoch milliseconds: a notification's deadline ({@code expires_at_ms}) is one
     * @param timer runs the one pending expiry; its owner shuts it down, which ends expiry
     */
    UiStore(Directory modules, Listener listener, Path placementsFile, LongSupplier clock, ScheduledExecutorService timer) {
        this.modules = modules;
        this.listener = listener;
        this.placementsFile = placementsFile;
        this.clock = clock;
        this.timer = timer;
        loadPlacements();
    }

    // ---- bar ----

    /** {@code ui.bar.push}: returns [changed, key]. */
    synchronized Object[] pushBar(String ownerParam, String id, String region, ArrayNode content, ArrayNode compact,
            Integer priority) {
        Manifest owner = barOwner(ownerParam, id);
        String key = owner.id() + "/" + id;
        int width = Segments.check(content, "content", owner);
        int compactWidth = compact == null ? -1 : Segments.check(compact, "compact_content", owner);
        Widget old = widgets.get(key);
        if (old == null) {
            long mine = widgets.values().stream().filter(w -> w.owner().equals(owner.id())).count();
            if (mine >= Limits.BAR_WIDGETS_PER_MODULE) {
                throw limit("module " + owner.id() + " already has " + mine + " live widgets (at most "
                        + Limits.BAR_WIDGETS_PER_MODULE + ")", Limits.BAR_WIDGETS_PER_MODULE);
            }
            if (widgets.size() >= Limits.BAR_WIDGETS) {
                throw limit("the server already shows " + widgets.size() + " live widgets (at most " + Limits.BAR_WIDGETS
                        + ")", Limits.BAR_WIDGETS);
            }
        }
        rate(owner.id());
        int prio = priority != null ? priority : owner.bars().get(id).priority();
        boolean changed = old == null || !old.content().equals(content) || !Objects.equals(old.compact(), compact)
                || old.priority() != prio;
        if (region != null && !region.equals(barRegions.get(key))) {
            place(barRegions, key, region);
            changed = true;
        }
        widgets.put(key, new Widget(owner.id(), id, content.deepCopy(), compact == null ? null : compact.deepCopy(), prio,
                width, compactWidth, clock.getAsLong()));
        if (changed) {
            listener.barChanged(owner.id(), id);
        }
        return new Object[] {changed, key};
    }

    synchronized String moveBar(String ownerParam, String id, String region) {
        Manifest owner = barOwner(ownerParam, id);
        String key = owner.id() + "/" + id;
        if (!region.equals(regionOf(owner, id))) {
            place(barRegions, key, region);
            listener.barChanged(owner.id(), id);
        }
        return key;
    }

    synchronized boolean removeBar(String ownerParam, String id) {
        Manifest owner = barOwner(ownerParam, id);
        boolean removed = widgets.remove(owner.id() + "/" + id) != null;
        if (removed) {
            listener.barChanged(owner.id(), id);
        }
        return removed;
    }

    synchronized void listBars(ArrayNode out) {
        List<Widget> sorted = new ArrayList<>(widgets.values());
        sorted.sort(Comparator.<Widget>comparingInt(w -> REGIONS.indexOf(regionOf(w)))
                .thenComparing(Comparator.comparingInt(Widget::priority).reversed()).thenComparing(Widget::key));
        for (Widget w : sorted) {
            ObjectNode n = out.addObject().put("key", w.key()).put("owner", w.owner()).put("id", w.id())
                    .put("region", regionOf(w)).put("priority", w.priority());
            n.set("content", w.content().deepCopy());
            n.put("width", w.width());
            if (w.compact() != null) {
                n.set("compact_content", w.compact().deepCopy());
                n.put("compact_width", w.compactWidth());
            }
            n.put("updated_at_ms", w.updatedAtMs());
        }
    }

    private String regionOf(Widget w) {
        return modules.enabled(w.owner()).map(m -> regionOf(m, w.id())).orElse("off");
    }

    private String regionOf(Manifest owner, String id) {
        String r = barRegions.get(owner.id() + "/" + id);
        return r != null ? r : owner.bars().get(id).region();
    }

    /**
     * The spec's owner rule: a given owner must be an enabled module declaring the widget; an
     * omitted one must resolve to exactly one enabled module declaring it.
     */
    private Manifest barOwner(String ownerParam, String id) {
        return owner(ownerParam, id, "bar", "bars", Manifest::declaresBar);
    }

    /** The same rule for a dock (the owner param is ours there; see spec-notes.md). */
    private Manifest dockOwner(String ownerParam, String id) {
        return owner(ownerParam, id, "dock", "docks", (m, d) -> m.docks().containsKey(d));
    }

    private Manifest owner(String ownerParam, String id, String what, String table,
            java.util.function.BiPredicate<Manifest, String> declares) {
        if (ownerParam != null) {
            Manifest m = enabledOwner(ownerParam);
            if (!declares.test(m, id)) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "module " + ownerParam + " declares no " + what + " " + id
                        + " (add [[" + table + "]] id = \"" + id + "\" to its module.toml)", Map.of("path", "id"));
            }
            return m;
        }
        List<Manifest> declaring = modules.enabledManifests().stream().filter(m -> declares.test(m, id)).toList();
        if (declaring.size() == 1) {
            return declaring.get(0);
        }
        if (declaring.isEmpty()) {
            throw UhpException.notFound(what, id, "id", "no enabled module declares a " + what + " " + id);
        }
        throw new UhpException(ErrorCode.INVALID_REQUEST, what + " id " + id + " is declared by several modules ("
                + String.join(", ", declaring.stream().map(Manifest::id).sorted().toList()) + "); give owner",
                Map.of("path", "owner"));
    }

    private Manifest enabledOwner(String owner) {
        return modules.enabled(owner).orElseThrow(() -> modules.known(owner)
                ? new UhpException(ErrorCode.INVALID_REQUEST, "module " + owner + " is not enabled", Map.of("path", "owner"))
                : UhpException.notFound("module", owner, "owner", "no module " + owner));
    }

    // ---- docks ----

    synchronized void pushDock(String ownerParam, String id, String title, String placement, ArrayNode rows) {
        Manifest owner = dockOwner(ownerParam, id);
        Segments.checkRows(rows, owner);
        String key = owner.id() + "/" + id;
        Dock old = docks.get(key);
        if (old == null && docks.size() >= Limits.DOCKS) {
            throw limit("the server already shows " + docks.size() + " docks (at most " + Limits.DOCKS + ")", Limits.DOCKS);
        }
        String t = title != null ? title : old != null ? old.title() : owner.docks().get(id).title();
        if (Limits.hasControl(t) || Limits.bytes(t) > Limits.FIELD_BYTES) {
            throw Segments.invalid("title must be at most 256 bytes without control characters", "title",
                    Limits.FIELD_BYTES);
        }
        rate(owner.id());
        if (old == null && placement != null && !dockSides.containsKey(key)) {
            place(dockSides, key, placement);
        }
        docks.put(key, new Dock(owner.id(), id, t, rows.deepCopy(), clock.getAsLong()));
        if (old == null || !old.rows().equals(rows) || !old.title().equals(t)) {
            listener.dockChanged(owner.id(), id);
        }
    }

    synchronized void moveDock(String ownerParam, String id, String side) {
        Manifest owner = dockOwner(ownerParam, id);
        String key = owner.id() + "/" + id;
        if (!side.equals(sideOf(owner, id))) {
            place(dockSides, key, side);
            listener.dockChanged(owner.id(), id);
        }
    }

    synchronized void listDocks(ArrayNode out) {
        for (Dock d : docks.values()) {
            Manifest m = modules.enabled(d.owner()).orElse(null);
            if (m == null) {
                continue;
            }
            ObjectNode n = out.addObject().put("id", d.id()).put("side", sideOf(m, d.id())).put("owner", d.owner())
                    .put("title", d.title());
            n.set("rows", d.rows().deepCopy());
            n.put("updated_at_ms", d.updatedAtMs());
        }
    }

    private String sideOf(Manifest owner, String id) {
        String s = dockSides.get(owner.id() + "/" + id);
        return s != null ? s : owner.docks().get(id).placement();
    }

    // ---- notifications ----

    /** {@code ui.notification.push}: returns [id, replaced]. */
    synchronized Object[] pushNotification(String ownerParam, String text, String level, Integer ttlMs, String action,
            String value, String dedupeKey) {
        Manifest owner = ownerParam == null ? null : enabledOwner(ownerParam);
        for (String[] f : new String[][] {{"text", text}, {"action", action}, {"value", value}, {"dedupe_key", dedupeKey}}) {
            if (f[1] != null) {
                Segments.field(Local.JSON.getNodeFactory().textNode(f[1]), f[0]);
            }
        }
        if (action != null) {
            if (owner == null) {
                throw Segments.invalid("a notification with an action needs its owner module", "owner", null);
            }
            if (!owner.actions().containsKey(action)) {
                throw Segments.invalid("module " + owner.id() + " declares no action " + action, "action", null);
            }
        }
        if (owner != null) {
            rate(owner.id());
        }
        int ttl = ttlMs == null ? Limits.TTL_DEFAULT_MS : Math.max(Limits.TTL_MIN_MS, Math.min(Limits.TTL_MAX_MS, ttlMs));
        long now = clock.getAsLong();
        dropEnded(now);
        String o = owner == null ? null : owner.id();
        boolean replaced = false;
        if (dedupeKey != null) {
            replaced = notes.removeIf(n -> Objects.equals(n.owner(), o) && dedupeKey.equals(n.dedupeKey()));
        }
        while (notes.size() >= Limits.NOTIFICATIONS) {
            notes.removeFirst();
        }
        String id = "n" + (++noteCounter);
        notes.addLast(new Note(id, o, text, level == null ? "info" : level, ttl, now + ttl, action, value, dedupeKey));
        listener.notificationsChanged();
        scheduleExpiry(now);
        return new Object[] {id, replaced};
    }

    synchronized int clearNotifications(String ownerParam, String dedupeKey) {
        String o = ownerParam == null ? null : enabledOwnerOrKnown(ownerParam);
        long now = clock.getAsLong();
        boolean ended = dropEnded(now);
        int before = notes.size();
        notes.removeIf(n -> Objects.equals(n.owner(), o) && (dedupeKey == null || dedupeKey.equals(n.dedupeKey())));
        int removed = before - notes.size();
        if (removed > 0 || ended) {
            listener.notificationsChanged();
        }
        scheduleExpiry(now);
        return removed;
    }

    private String enabledOwnerOrKnown(String owner) {
        if (!modules.known(owner)) {
            throw UhpException.notFound("module", owner, "owner", "no module " + owner);
        }
        return owner;
    }

    /** The live notifications, oldest first: those whose deadline passed are never listed. */
    synchronized void listNotifications(ArrayNode out) {
        long now = clock.getAsLong();
        for (Note n : notes) {
            if (n.expiresAtMs() <= now) {
                continue; // ended; the pending expiry removes it and says so
            }
            ObjectNode o = out.addObject().put("id", n.id());
            if (n.owner() == null) {
                o.putNull("owner");
            } else {
                o.put("owner", n.owner());
            }
            o.put("text", n.text()).put("level", n.level()).put("ttl_ms", n.ttlMs()).put("expires_at_ms", n.expiresAtMs());
            if (n.action() != null) {
                o.put("action", n.action());
            }
            if (n.value() != null) {
                o.put("value", n.value());
            }
            if (n.dedupeKey() != null) {
                o.put("dedupe_key", n.dedupeKey());
            }
        }
    }

    /** Removes the notifications that ended by {@code now}; whether any did (the caller announces it). */
    private boolean dropEnded(long now) {
        return notes.removeIf(n -> n.expiresAtMs() <= now);
    }

    /**
     * Keeps exactly one pending expiry, due at the earliest deadline in the queue, or none for
     * an empty queue. Delays are in the timer's own time, deadlines on {@code clock}: an expiry
     * that runs before the clock reached the deadline finds nothing ended and waits again.
     */
    private void scheduleExpiry(long now) {
        long earliest = Long.MAX_VALUE;
        for (Note n : notes) {
            earliest = Math.min(earliest, n.expiresAtMs());
        }
        if (expiry != null && (earliest == Long.MAX_VALUE || earliest != expiryAt)) {
            expiry.cancel(false);
            expiry = null;
            expiryGeneration++;
        }
        if (earliest == Long.MAX_VALUE || expiry != null) {
            return;
        }
        long generation = ++expiryGeneration;
        try {
            expiry = timer.schedule(() -> expire(generation), Math.max(0, earliest - now), TimeUnit.MILLISECONDS);
            expiryAt = earliest;
        } catch (RejectedExecutionException stopping) {
            // the timer is shut down: the bundle is stopping and the queue goes with it
        }
    }

    /** The timer's task: ends what is due, announces it, and waits for the next deadline. */
    private synchronized void expire(long generation) {
        if (generation != expiryGeneration) {
            return; // replaced while it waited for the lock
        }
        expiry = null;
        long now = clock.getAsLong();
        if (dropEnded(now)) {
            listener.notificationsChanged();
        }
        scheduleExpiry(now);
    }

    // ---- modules going away ----

    /** Everything live a module shows, gone (disable, update, unlink): returns how many things were cleared. */
    synchronized int clearOwner(String owner) {
        int n = 0;
        for (Iterator<Widget> it = widgets.values().iterator(); it.hasNext();) {
            Widget w = it.next();
            if (w.owner().equals(owner)) {
                it.remove();
                listener.barChanged(owner, w.id());
                n++;
            }
        }
        for (Iterator<Dock> it = docks.values().iterator(); it.hasNext();) {
            Dock d = it.next();
            if (d.owner().equals(owner)) {
                it.remove();
                listener.dockChanged(owner, d.id());
                n++;
            }
        }
        int before = notes.size();
        notes.removeIf(x -> owner.equals(x.owner()));
        if (notes.size() != before) {
            n += before - notes.size();
            listener.notificationsChanged();
            scheduleExpiry(clock.getAsLong());
        }
        updates.remove(owner);
        return n;
    }

    synchronized int liveWidgets(String owner) {
        return (int) widgets.values().stream().filter(w -> w.owner().equals(owner)).count();
    }

    // ---- limits ----

    /** At most {@link Limits#UPDATES_PER_SECOND} updates per module in any second. */
    private void rate(String owner) {
        long now = clock.getAsLong();
        Deque<Long> d = updates.computeIfAbsent(owner, k -> new ArrayDeque<>());
        while (!d.isEmpty() && d.peekFirst() <= now - 1000) {
            d.removeFirst();
        }
        if (d.size() >= Limits.UPDATES_PER_SECOND) {
            throw limit("module " + owner + " updates more than " + Limits.UPDATES_PER_SECOND
                    + " times a second; this update was dropped", Limits.UPDATES_PER_SECOND);
        }
        d.addLast(now);
    }

    private static UhpException limit(String message, int limit) {
        return new UhpException(ErrorCode.INVALID_REQUEST, message, Map.of("limit", limit));
    }

    // ---- placements ----

    private void loadPlacements() {
        try {
            if (!Files.isRegularFile(placementsFile) || Files.size(placementsFile) > Settings.MAX_FILE_BYTES) {
                return;
            }
            JsonNode n = Local.JSON.readTree(placementsFile.toFile());
            n.path("bars").fields().forEachRemaining(e -> {
                if (REGIONS.contains(e.getValue().asText())) {
                    barRegions.put(e.getKey(), e.getValue().asText());
                }
            });
            n.path("docks").fields().forEachRemaining(e -> {
                if (List.of("left", "right").contains(e.getValue().asText())) {
                    dockSides.put(e.getKey(), e.getValue().asText());
                }
            });
        } catch (IOException e) {
            LOG.log(Level.WARNING, placementsFile + " is unreadable; placements start from the manifests: " + e.getMessage());
        }
    }

    /** One placement, kept only once the file holds it: a failed write changes nothing. */
    private void place(Map<String, String> placements, String key, String value) {
        String before = placements.put(key, value);
        try {
            savePlacements();
        } catch (UhpException e) {
            if (before == null) {
                placements.remove(key);
            } else {
                placements.put(key, before);
            }
            throw e;
        }
    }

    private void savePlacements() {
        ObjectNode n = Local.JSON.createObjectNode();
        barRegions.forEach(n.putObject("bars")::put);
        dockSides.forEach(n.putObject("docks")::put);
        try {
            Files.createDirectories(placementsFile.getParent());
            AtomicFiles.write(placementsFile, Local.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(n));
        } catch (IOException e) {
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "cannot save " + placementsFile + ": " + e.getMessage());
        }
    }
}

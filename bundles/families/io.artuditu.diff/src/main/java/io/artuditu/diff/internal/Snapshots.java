package io.artuditu.diff.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.eclipse.jgit.lib.Repository;

/**
 * The shared status snapshots: one per working tree and base, scanned only on this bundle's
 * one worker thread {@code diff-scan} (never the app loop, never a request's thread). A first
 * read waits for one scan's status pass (its counts follow: a counts pass that fills any
 * moves the generation and reports the change like a scan does); {@link #refresh} waits for
 * the counts too; later reads take the cache and schedule a refresh when the last
 * scan ended more than {@link #CADENCE_MS} ago; a watched change schedules one after
 * {@link #DEBOUNCE_MS}; a tree too big to watch is rescanned every {@link #POLL_MS} while it
 * was read in the last {@link #ACTIVE_MS}. Two scans of one snapshot start at least
 * {@link #MIN_GAP_MS} apart. At most {@link #MAX_ENTRIES} snapshots; the least recently read
 * goes. The generation counts per working tree and moves when a scan finds the files differ.
 */
final class Snapshots implements AutoCloseable {
    static final long CADENCE_MS = 500;
    static final long DEBOUNCE_MS = 15;
    static final long MIN_GAP_MS = 50;
    static final long POLL_MS = 1000;
    static final long ACTIVE_MS = 5 * 60_000;
    static final int MAX_ENTRIES = 32;
    /** Longest a request waits for a scan. */
    static final long WAIT_MS = 60_000;

    /** One snapshot's state; guarded by the Snapshots monitor except {@link #snap}. */
    static final class Entry {
        final String root;
        final Base base;
        final Set<String> workspaces = new LinkedHashSet<>();
        volatile Scan.Snapshot snap;
        Pending pending;
        boolean scanning;
        /** Its tree's watch was asked for (after its first status pass, on the worker). */
        boolean watched;
        long lastEnd;
        long lastRead;

        Entry(String root, Base base) {
            this.root = root;
            this.base = base;
        }

        boolean refreshing() {
            return scanning || pending != null;
        }
    }

    /** One queued scan: {@code listed} completes after its status pass, {@code counted} after its counts pass. */
    record Pending(CompletableFuture<Scan.Snapshot> listed, CompletableFuture<Scan.Snapshot> counted) {
    }

    private final ScheduledThreadPoolExecutor worker;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<String, Long> generations = new HashMap<>();
    private final Watcher watcher;
    /** Called on the worker after a scan that changed a snapshot: the entry and its previous snapshot. */
    private final BiConsumer<Entry, Scan.Snapshot> changed;
    private volatile boolean closed;

    Snapshots(BiConsumer<Entry, Scan.Snapshot> changed, boolean watch) {
        this.changed = changed;
        this.worker = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "diff-scan");
            t.setDaemon(true);
            return t;
        });
        worker.setRemoveOnCancelPolicy(true);
        Watcher w = null;
        if (watch) {
            try {
                w = new Watcher(this::touched);
            } catch (IOException e) {
                System.getLogger(Snapshots.class.getName()).log(System.Logger.Level.WARNING,
                        "no file watching; working trees are polled every " + POLL_MS + " ms", e);
            }
        }
        this.watcher = w;
        worker.scheduleWithFixedDelay(this::poll, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
    }

    /** The entry of a working tree and base, made on first use (its tree is watched after its first scan). */
    synchronized Entry entry(String root, Base base, String workspaceId) {
        String key = root + "\u0000" + base.key();
        Entry e = entries.get(key);
        if (e == null) {
            if (entries.size() >= MAX_ENTRIES) {
                evict();
            }
            e = new Entry(root, base);
            entries.put(key, e);
        }
        if (e.workspaces.size() < 16) {
            e.workspaces.add(workspaceId);
        }
        e.lastRead = System.currentTimeMillis();
        return e;
    }

    private void evict() {
        Entry oldest = null;
        String key = null;
        for (Map.Entry<String, Entry> x : entries.entrySet()) {
            if (oldest == null || x.getValue().lastRead < oldest.lastRead) {
                oldest = x.getValue();
                key = x.getKey();
            }
        }
        entries.remove(key);
        String root = oldest.root;
        if (watcher != null && entries.values().stream().noneMatch(e -> e.root.equals(root))) {
            watcher.forget(root);
        }
    }

    /** The cached snapshot, or the first scan's (waited for); a later read schedules a cadence-gated refresh. */
    Scan.Snapshot read(Entry e) {
        Scan.Snapshot s = e.snap;
        if (s == null) {
            return await(request(e, 0).listed());
        }
        synchronized (this) {
            if (!e.refreshing() && System.currentTimeMillis() - e.lastEnd >= CADENCE_MS) {
                request(e, 0);
            }
        }
        return s;
    }

    /** Waits for a scan that starts after this call, counts included. */
    Scan.Snapshot refresh(Entry e) {
        return await(request(e, 0).counted());
    }

    /** A scan not yet started (the pending one, else a new one after {@code delayMs}). */
    synchronized Pending request(Entry e, long delayMs) {
        if (e.pending != null) {
            return e.pending;
        }
        if (closed) {
            throw new UhpException(ErrorCode.SHUTTING_DOWN, "the diff family is stopping");
        }
        Pending f = new Pending(new CompletableFuture<>(), new CompletableFuture<>());
        e.pending = f;
        long gap = Math.max(delayMs, e.lastEnd + MIN_GAP_MS - System.currentTimeMillis());
        worker.schedule(() -> run(e, f), Math.max(0, gap), TimeUnit.MILLISECONDS);
        return f;
    }

    private void run(Entry e, Pending f) {
        boolean watch;
        synchronized (this) {
            e.pending = null;
            e.scanning = true;
            watch = !e.watched;
            e.watched = true;
        }
        try {
            Scan.Snapshot before = e.snap;
            Scan.Snapshot s;
            if (e.base.index()) {
                s = Scan.status(Path.of(e.root), e.base, before);
            } else {
                try (Repository repo = Repos.open(Path.of(e.root))) {
                    s = Scan.scan(repo, e.base, before);
                }
            }
            boolean differs = !s.same(before);
            s = publish(e, s, differs ? next(e) : before.generation(), before, differs);
            f.listed.complete(s);
            if (watch && watcher != null) {
                // after the first answer, not before it: a walk of the tree costs as much as the
                // status; a change made meanwhile is caught by the scan requested below
                watcher.watch(e.root);
                request(e, DEBOUNCE_MS);
            }
            Scan.Snapshot c = s;
            if (!s.rows().stream().allMatch(Scan.Row::counted)) {
                try (Repository repo = Repos.open(Path.of(e.root))) {
                    c = Scan.count(repo, s);
                }
                boolean filled = false;
                for (int i = 0; i < c.rows().size(); i++) {
                    Scan.Row a = s.rows().get(i);
                    Scan.Row b = c.rows().get(i);
                    filled |= !a.counted() && (b.additions() != null || b.binary());
                }
                c = publish(e, c, filled ? next(e) : s.generation(), s, filled);
            }
            f.counted.complete(c);
        } catch (Throwable t) {
            f.listed.completeExceptionally(t);
            f.counted.completeExceptionally(t);
        } finally {
            synchronized (this) {
                e.scanning = false;
                e.lastEnd = System.currentTimeMillis();
            }
        }
    }

    private synchronized long next(Entry e) {
        return generations.merge(e.root, 1L, Long::sum);
    }

    /** Makes {@code s} (with generation {@code gen}) the entry's snapshot; when {@code changed}, reports it. */
    private Scan.Snapshot publish(Entry e, Scan.Snapshot s, long gen, Scan.Snapshot before, boolean differs) {
        Scan.Snapshot out = new Scan.Snapshot(gen, s.base(), s.commit(), s.rows(), s.truncated(), s.scannedAtMillis(),
                s.scanNanos());
        e.snap = out;
        if (differs) {
            try {
                changed.accept(e, before);
            } catch (RuntimeException x) {
                System.getLogger(Snapshots.class.getName()).log(System.Logger.Level.WARNING,
                        "after the scan of " + e.root, x);
            }
        }
        return out;
    }

    private Scan.Snapshot await(CompletableFuture<Scan.Snapshot> f) {
        try {
            return f.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new UhpException(ErrorCode.TIMEOUT, "the status scan did not finish in " + WAIT_MS / 1000
                    + " s; it goes on, and a later call answers from it", Map.of("reason", "scan_timeout"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.SHUTTING_DOWN, "interrupted while waiting for the status scan");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("status scan failed", e.getCause());
        }
    }

    /** The watcher saw a change under {@code root}: a scan of each of its snapshots soon. */
    private void touched(String root) {
        synchronized (this) {
            for (Entry e : entries.values()) {
                if (e.root.equals(root) && e.snap != null) {
                    request(e, DEBOUNCE_MS);
                }
            }
        }
    }

    /** Rescans the recently read snapshots of trees that are not watched. */
    private void poll() {
        long now = System.currentTimeMillis();
        synchronized (this) {
            for (Entry e : new ArrayList<>(entries.values())) {
                boolean unwatched = watcher == null || watcher.polled(e.root);
                if (unwatched && e.snap != null && now - e.lastRead < ACTIVE_MS && !e.refreshing()) {
                    request(e, 0);
                }
            }
        }
    }

    synchronized List<Entry> entriesOf(String root) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (e.root.equals(root)) {
                out.add(e);
            }
        }
        return out;
    }

    int watchedDirs() {
        return watcher == null ? 0 : watcher.watchedDirs();
    }

    /** Runs {@code task} on the worker (after the scans queued before it). */
    void onWorker(Runnable task) {
        worker.execute(task);
    }

    @Override
    public void close() {
        closed = true;
        if (watcher != null) {
            watcher.close();
        }
        worker.shutdownNow();
        try {
            worker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.artuditu.operator.internal;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.home.SocketLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Keeps the bundles installed from {@code <home>/bundles} in step with the files there:
 * a new jar is installed and started, a changed jar updates its bundle, a deleted jar
 * uninstalls it; each update or uninstall refreshes only the affected bundles.
 *
 * <p>A file is taken only when it is complete: its size and modification time are the
 * same on two looks at least {@link #SETTLE_MS} apart, and it then opens as a jar whose
 * manifest has a Bundle-SymbolicName. A file that stays unreadable for
 * {@link #MAX_PROBES} looks, is not a bundle, or that the framework refuses is logged
 * once and left alone until it changes again.
 *
 * <p>On activation the folder is reconciled with the framework: drop-in bundles whose
 * file is gone are uninstalled, files without a bundle are installed, and files newer
 * than their bundle are updated.
 *
 * <p>One daemon thread ({@value #THREAD_NAME}) owns all state but {@link #phase}; it is
 * stopped and joined on deactivation.
 */
@Component(service = {})
public final class DropInWatcher {
    static final String THREAD_NAME = "artuditu-dropin";
    static final long SETTLE_MS = 500;
    /** Looks at a stable file that is still no complete zip before giving up (about ten seconds). */
    static final int MAX_PROBES = 20;
    /** A full rescan even without file events, in case the platform's watch service misses one. */
    static final long IDLE_RESCAN_MS = 30_000;
    static final long JOIN_MS = 5_000;
    private static final Logger LOG = System.getLogger(DropInWatcher.class.getName());

    /** Where a file in the folder stands; readable from any thread. */
    enum Phase {
        /** The name is not a candidate ({@link DropInFolder#considered}). */
        IGNORED,
        /** Seen; waiting for its size and modification time to hold still. */
        SETTLING,
        /** Still, but not yet a complete jar; looked at again shortly. */
        INCOMPLETE,
        /** Installed or updated from this version of the file. */
        TAKEN,
        /** Refused and logged; looked at again only when the file changes. */
        REJECTED
    }

    /** One version of a file, as far as the watcher can tell versions apart. */
    private record Stamp(long size, FileTime modified) {
        static final Stamp UNKNOWN = new Stamp(-1, FileTime.fromMillis(0));
    }

    /** A file version on its way to being taken. */
    private static final class Candidate {
        final Stamp stamp;
        final long seenNanos;
        int probes;

        Candidate(Stamp stamp, long seenNanos) {
            this.stamp = stamp;
            this.seenNanos = seenNanos;
        }
    }

    private final BundleAdmin admin;
    private final Path folder;
    private final long settleMs;
    private final int maxProbes;
    private final WatchService watch;
    private final Thread thread;
    private final Map<String, Phase> phases = new ConcurrentHashMap<>();
    private volatile boolean closed;

    // Confined to the watcher thread.
    /** The file version each name was last acted on (taken or rejected); absent when never. */
    private final Map<String, Stamp> handled = new HashMap<>();
    private final Map<String, Candidate> candidates = new HashMap<>();
    /** Drop-in bundles installed but not yet started, tried again after every change. */
    private final Set<String> awaitingStart = new HashSet<>();
    /** The key of the folder as it is now; a key of a removed folder may still report. */
    private WatchKey current;
    private boolean watching;
    private boolean folderTrouble;

    @Activate
    public DropInWatcher(BundleContext context) {
        this(new BundleAdmin(context, DropInFolder.of(context)), SETTLE_MS, MAX_PROBES);
    }

    DropInWatcher(BundleAdmin admin, long settleMs, int maxProbes) {
        this.admin = admin;
        this.folder = admin.dropIn();
        this.settleMs = settleMs;
        this.maxProbes = maxProbes;
        try {
            this.watch = folder.getFileSystem().newWatchService();
            try {
                watchFolder();
            } catch (IOException e) {
                watch.close();
                throw e;
            }
        } catch (IOException e) {
            LOG.log(Level.ERROR, "drop-in folder " + folder + " cannot be watched: " + e.getMessage());
            throw new UncheckedIOException(e);
        }
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    @Deactivate
    void close() {
        closed = true;
        try {
            watch.close();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing the drop-in watch service failed", e);
        }
        try {
            thread.join(JOIN_MS);
            if (thread.isAlive()) {
                // Only a framework call that does not return gets here.
                thread.interrupt();
                thread.join(JOIN_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.log(Level.ERROR, THREAD_NAME + " did not stop within " + 2 * JOIN_MS + " ms");
        }
    }

    /** Where {@code fileName} stands, or null when the watcher has not seen it. */
    Phase phase(String fileName) {
        return phases.get(fileName);
    }

    private void watchFolder() throws IOException {
        SocketLocation.ensureOwnerOnlyDirectory(folder, SocketLocation.currentUid());
        current = folder.register(watch, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY);
        watching = true;
    }

    private void run() {
        try {
            seed();
            watchLoop();
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "the drop-in watcher stopped; drop-ins are not picked up until the server restarts", e);
        }
    }

    private void watchLoop() {
        boolean settling = scanLogged();
        while (!closed) {
            try {
                WatchKey key = watch.poll(settling ? settleMs : IDLE_RESCAN_MS, TimeUnit.MILLISECONDS);
                if (key != null) {
                    // Which names changed does not matter: every wake compares the whole folder.
                    key.pollEvents();
                    if (!key.reset() && key == current) {
                        watching = false;
                    }
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            }
            if (!watching) {
                rewatch();
            }
            settling = scanLogged();
        }
    }

    /** The folder itself was removed: creates it again and watches the new one. */
    private void rewatch() {
        try {
            watchFolder();
            LOG.log(Level.WARNING, "drop-in folder " + folder + " was removed; created it again");
        } catch (IOException e) {
            if (!folderTrouble) {
                LOG.log(Level.ERROR, "drop-in folder " + folder + " was removed and cannot be created again: " + e
                        + "; trying again until it can");
            }
            folderTrouble = true;
        }
    }

    /**
     * Starts from what the framework has: a file no newer than its drop-in bundle is the
     * one that bundle came from; any other file, or a missing one, is acted on by the
     * first scan.
     */
    private void seed() {
        for (Bundle b : admin.bundles()) {
            Optional<String> name = DropInFolder.fileName(b.getLocation());
            if (name.isPresent()) {
                Stamp now = stamp(folder.resolve(name.get()));
                boolean same = now != null && now.modified().toMillis() <= b.getLastModified();
                handled.put(name.get(), same ? now : Stamp.UNKNOWN);
                if (same) {
                    set(name.get(), Phase.TAKEN);
                }
            }
        }
    }

    /** One scan, never throwing; returns whether a file is still settling. */
    private boolean scanLogged() {
        try {
            boolean settling = scan();
            folderTrouble = false;
            return settling;
        } catch (IOException e) {
            if (!Files.isDirectory(folder)) {
                // Removed while watched: the loop creates it again before the next scan.
                watching = false;
                return true;
            }
            if (!folderTrouble) {
                LOG.log(Level.ERROR, "cannot list drop-in folder " + folder + ": " + e);
            }
            folderTrouble = true;
            return false;
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "drop-in scan of " + folder + " failed", e);
            return false;
        }
    }

    private boolean scan() throws IOException {
        Map<String, Stamp> present = list();
        boolean changed = false;
        boolean settling = false;
        for (String name : new ArrayList<>(handled.keySet())) {
            if (!present.containsKey(name)) {
                removed(name);
                changed = true;
            }
        }
        candidates.keySet().retainAll(present.keySet());
        phases.keySet().retainAll(present.keySet());
        for (Map.Entry<String, Stamp> e : present.entrySet()) {
            if (closed) {
                return false;
            }
            String name = e.getKey();
            Stamp stamp = e.getValue();
            if (!DropInFolder.considered(name)) {
                set(name, Phase.IGNORED);
            } else if (!stamp.equals(handled.get(name))) {
                Phase p = look(name, stamp);
                settling |= p == Phase.SETTLING || p == Phase.INCOMPLETE;
                changed |= p == Phase.TAKEN;
            }
        }
        if (changed) {
            retryStarts();
        }
        return settling;
    }

    /** Moves a file version not yet acted on one step along; returns where it now stands. */
    private Phase look(String name, Stamp stamp) {
        long now = System.nanoTime();
        Candidate c = candidates.get(name);
        if (c == null || !c.stamp.equals(stamp)) {
            candidates.put(name, new Candidate(stamp, now));
            return set(name, Phase.SETTLING);
        }
        if (now - c.seenNanos < TimeUnit.MILLISECONDS.toNanos(settleMs)) {
            return Phase.SETTLING;
        }
        Path file = folder.resolve(name);
        BundleJar jar;
        try {
            jar = BundleJar.read(file);
        } catch (IOException e) {
            if (++c.probes < maxProbes) {
                return set(name, Phase.INCOMPLETE);
            }
            return reject(name, stamp, "still not a readable jar after " + c.probes + " looks (" + e.getMessage() + ")");
        } catch (BundleJar.NotABundle e) {
            return reject(name, stamp, "not an OSGi bundle: " + e.getMessage());
        }
        candidates.remove(name);
        return take(name, stamp, new BundleAdmin.Source(file, jar));
    }

    private Phase take(String name, Stamp stamp, BundleAdmin.Source src) {
        handled.put(name, stamp);
        String location = DropInFolder.location(name);
        try {
            Optional<Bundle> existing = admin.byLocation(location);
            if (existing.isPresent()) {
                List<String> refreshed = admin.update(existing.get(), src);
                LOG.log(Level.INFO, "drop-in " + name + " changed: updated " + BundleAdmin.describe(existing.get())
                        + ", refreshed " + refreshed);
            } else {
                Optional<Bundle> other = admin.bundles().stream()
                        .filter(b -> src.jar().symbolicName().equals(b.getSymbolicName())).findFirst();
                if (other.isPresent()) {
                    return reject(name, stamp, src.jar().symbolicName() + " is already installed from "
                            + other.get().getLocation() + " (bundle " + other.get().getBundleId() + ")");
                }
                Bundle b = admin.install(src, location);
                if (!BundleAdmin.isFragment(b)) {
                    startOrWait(name, b);
                }
            }
        } catch (UhpException e) {
            return reject(name, stamp, e.getMessage());
        }
        return set(name, Phase.TAKEN);
    }

    private Phase set(String name, Phase p) {
        phases.put(name, p);
        return p;
    }

    private void startOrWait(String name, Bundle b) {
        try {
            admin.start(b);
        } catch (UhpException e) {
            awaitingStart.add(name);
            LOG.log(Level.WARNING, "drop-in " + name + " is installed but did not start: " + e.getMessage()
                    + "; trying again after the next drop-in change");
        }
    }

    /** Starts drop-in bundles that could not start before, now that something changed. */
    private void retryStarts() {
        for (Iterator<String> it = awaitingStart.iterator(); it.hasNext();) {
            String name = it.next();
            Optional<Bundle> b = admin.byLocation(DropInFolder.location(name));
            if (b.isEmpty() || b.get().getState() == Bundle.ACTIVE) {
                it.remove();
                continue;
            }
            try {
                admin.start(b.get());
                it.remove();
                LOG.log(Level.INFO, "drop-in " + name + " started now that its requirements are met");
            } catch (UhpException e) {
                // Still waiting; its first failure was logged.
            }
        }
    }

    private void removed(String name) {
        handled.remove(name);
        awaitingStart.remove(name);
        Optional<Bundle> b = admin.byLocation(DropInFolder.location(name));
        if (b.isEmpty()) {
            return;
        }
        try {
            List<String> refreshed = admin.uninstall(b.get());
            LOG.log(Level.INFO, "drop-in " + name + " deleted: uninstalled " + BundleAdmin.describe(b.get())
                    + ", refreshed " + refreshed);
        } catch (UhpException e) {
            LOG.log(Level.ERROR, "drop-in " + name + " deleted, but its bundle stays: " + e.getMessage());
        }
    }

    private Phase reject(String name, Stamp stamp, String reason) {
        handled.put(name, stamp);
        candidates.remove(name);
        LOG.log(Level.ERROR, "drop-in " + folder.resolve(name) + " skipped: " + reason
                + "; replace the file to try again");
        return set(name, Phase.REJECTED);
    }

    private Map<String, Stamp> list() throws IOException {
        Map<String, Stamp> out = new TreeMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(folder)) {
            for (Path p : dir) {
                Stamp s = stamp(p);
                if (s != null) {
                    out.put(p.getFileName().toString(), s);
                }
            }
        }
        return out;
    }

    /** The file's version, or null when it is not a regular file (or vanished meanwhile). */
    private static Stamp stamp(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return a.isRegularFile() ? new Stamp(a.size(), a.lastModifiedTime()) : null;
        } catch (IOException e) {
            return null;
        }
    }
}

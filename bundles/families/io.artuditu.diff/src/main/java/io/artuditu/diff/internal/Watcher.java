package io.artuditu.diff.internal;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Tells the family when a watched working tree changed, so a file an agent saves shows in
 * the snapshot without a poll: every folder of the tree (not {@code .git}, whose own folder is
 * watched for the index and HEAD), at most {@link #MAX_DIRS} folders over all trees; a tree
 * that does not fit is reported {@code polled} and the family rescans it on a cadence instead.
 * One daemon thread, {@code diff-watch}, stopped by {@link #close}. Folders made later are
 * added as they appear.
 */
final class Watcher implements AutoCloseable {
    static final int MAX_DIRS = 4_096;
    private final WatchService ws;
    private final Consumer<String> changed;
    private final Thread thread;
    private final Map<WatchKey, String> keys = new HashMap<>();
    private final Map<String, Set<WatchKey>> byRoot = new HashMap<>();
    private final Set<String> polled = new HashSet<>();

    Watcher(Consumer<String> changed) throws IOException {
        this.ws = FileSystems.getDefault().newWatchService();
        this.changed = changed;
        this.thread = new Thread(this::run, "diff-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts watching {@code root}; false when it did not fit (it is then to be polled). */
    synchronized boolean watch(String root) {
        if (byRoot.containsKey(root)) {
            return !polled.contains(root);
        }
        byRoot.put(root, new HashSet<>());
        Path r = Path.of(root);
        Path git = r.resolve(".git");
        if (Files.isDirectory(git, LinkOption.NOFOLLOW_LINKS) && !register(root, git)) {
            return false;
        }
        boolean[] fits = {true};
        try {
            Files.walkFileTree(r, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (dir.getFileName() != null && dir.getFileName().toString().equals(".git")) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    if (!register(root, dir)) {
                        fits[0] = false;
                        return FileVisitResult.TERMINATE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            fits[0] = false;
        }
        if (!fits[0]) {
            polled.add(root);
        }
        return fits[0];
    }

    synchronized boolean polled(String root) {
        return polled.contains(root);
    }

    /** Stops watching {@code root}. */
    synchronized void forget(String root) {
        Set<WatchKey> ks = byRoot.remove(root);
        polled.remove(root);
        if (ks != null) {
            for (WatchKey k : ks) {
                k.cancel();
                keys.remove(k);
            }
        }
    }

    synchronized int watchedDirs() {
        return keys.size();
    }

    private boolean register(String root, Path dir) {
        if (keys.size() >= MAX_DIRS) {
            return false;
        }
        try {
            WatchKey k = dir.register(ws, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                    StandardWatchEventKinds.ENTRY_MODIFY);
            if (keys.put(k, root) == null) {
                byRoot.get(root).add(k);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return true; // a folder that vanished or cannot be read: nothing to watch there
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey k = ws.take();
                String root;
                synchronized (this) {
                    root = keys.get(k);
                    if (root != null) {
                        Path dir = (Path) k.watchable();
                        for (WatchEvent<?> ev : k.pollEvents()) {
                            if (ev.kind() == StandardWatchEventKinds.ENTRY_CREATE && ev.context() instanceof Path p) {
                                Path made = dir.resolve(p);
                                if (Files.isDirectory(made, LinkOption.NOFOLLOW_LINKS) && !p.toString().equals(".git")
                                        && !dir.getFileName().toString().equals(".git") && !register(root, made)) {
                                    polled.add(root);
                                }
                            }
                        }
                    } else {
                        k.pollEvents();
                    }
                    k.reset();
                }
                if (root != null) {
                    changed.accept(root);
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closing
        }
    }

    @Override
    public void close() {
        try {
            ws.close();
        } catch (IOException ignored) {
            // the thread ends on the closed service all the same
        }
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

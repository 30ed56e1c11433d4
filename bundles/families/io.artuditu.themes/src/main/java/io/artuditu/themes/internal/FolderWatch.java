package io.artuditu.themes.internal;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import io.artuditu.themes.ThemeFolder;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;

/**
 * Watches the home's {@code themes/} folder (and the home itself, for the folder being made
 * again after it was removed) on one thread, {@code themes-watch}. Only changes to theme files
 * ({@link ThemeFolder#isThemeFile}) count. A burst of changes (an
 * editor's save is several) is coalesced: the folder is read again once nothing has changed
 * for {@link #QUIET_MS}, or at the latest {@link #MAX_DELAY_MS} after the first change of a
 * continuous stream. It sleeps while nothing changes.
 */
final class FolderWatch implements AutoCloseable {
    static final long QUIET_MS = 150;
    static final long MAX_DELAY_MS = 1_000;
    private static final Logger LOG = System.getLogger(FolderWatch.class.getName());

    private final Themes themes;
    private final WatchService watch;
    private final Thread thread;
    private WatchKey folderKey;

    FolderWatch(Themes themes) throws IOException {
        this.themes = themes;
        this.watch = FileSystems.getDefault().newWatchService();
        Path folder = themes.folder();
        folder.getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE);
        register();
        this.thread = new Thread(this::run, "themes-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void register() {
        try {
            if (Files.isDirectory(themes.folder())) {
                folderKey = themes.folder().register(watch, StandardWatchEventKinds.ENTRY_CREATE,
                        StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "themes: cannot watch " + themes.folder() + ": " + e.getMessage());
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey k = watch.take();
                long first = System.nanoTime();
                boolean relevant = drain(k);
                // coalesce: wait for a quiet spell, bounded
                while (true) {
                    long left = MAX_DELAY_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - first);
                    if (left <= 0) {
                        break;
                    }
                    WatchKey more = watch.poll(Math.min(QUIET_MS, left), TimeUnit.MILLISECONDS);
                    if (more == null) {
                        break;
                    }
                    relevant |= drain(more);
                }
                if (relevant) {
                    try {
                        themes.reload("watch");
                    } catch (RuntimeException e) {
                        LOG.log(Level.ERROR, "themes: reading " + themes.folder() + " failed", e);
                    }
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed: the component is going
        }
    }

    /** Takes a key's events; true when they may change what the folder holds. */
    private boolean drain(WatchKey k) {
        boolean relevant = false;
        boolean isFolder = k == folderKey;
        for (var e : k.pollEvents()) {
            if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
                relevant = true;
            } else if (isFolder) {
                // an editor's swap file or a download's .part is not read: only theme files count
                relevant |= ThemeFolder.isThemeFile(e.context().toString());
            } else if (themes.folder().getFileName().equals(e.context())) {
                register(); // the folder is back
                relevant = true;
            }
        }
        if (!k.reset() && isFolder) {
            folderKey = null; // the folder went: its themes are gone
            relevant = true;
        }
        return relevant;
    }

    @Override
    public void close() {
        try {
            watch.close();
        } catch (IOException e) {
            // nothing to release
        }
        thread.interrupt();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

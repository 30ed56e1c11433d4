package io.artuditu.files.internal;

import java.util.List;

/**
 * One folder as it was read: its entries, folders first, then by name (case-insensitive,
 * then exact), at most {@link FolderReader#MAX_ENTRIES}; {@code truncated} when the folder
 * held more (the ones kept are the first the file system gave, then sorted). Immutable.
 */
record Listing(List<Entry> entries, boolean truncated) {
    Listing {
        entries = List.copyOf(entries);
    }

    /** What an entry is, without following a symbolic link. */
    enum Kind {
        DIR("dir"), FILE("file"), SYMLINK("symlink"), OTHER("other");

        final String wire;

        Kind(String wire) {
            this.wire = wire;
        }
    }

    /**
     * @param size    bytes, for a file; 0 otherwise
     * @param mtimeMs last modification, ms since the epoch (the link's own for a symlink)
     * @param ignored whether git ignores it (false outside a repository or without git)
     */
    record Entry(String name, Kind kind, long size, long mtimeMs, boolean ignored) {
        boolean hidden() {
            return name.startsWith(".");
        }
    }
}

package io.artuditu.terminal.internal.pane;

import java.util.List;

/**
 * Which processes run under a pane, by executable name only: never an argument vector or an
 * environment, which can hold prompts, credentials or tokens.
 *
 * <p>TODO(merge wt-proc): the PTY bundle's {@code io.artuditu.pty.proc.ProcessScan} (a shared,
 * cached scan off the caller's thread) answers the same question with the same shape; once it
 * is in the tree, {@link PaneFamily} takes it as a reference and this interface and
 * {@link ProcFs} go.
 */
interface ProcessSource {
    /** Most descendants listed. */
    int MAX_DESCENDANTS = 256;
    /** Deepest level below the root listed (children are level 1). */
    int MAX_DEPTH = 32;

    /** One process: {@code name} is the kernel's {@code comm} (at most 15 bytes). */
    record Entry(long pid, long ppid, String name) {
    }

    /**
     * @param ok whether the scan completed and found the root; when false the scan cannot
     *     say (no /proc, the root is gone) and {@code root} is null, {@code descendants} empty
     * @param sampledMillis when the scan started, epoch milliseconds
     * @param descendants breadth first, siblings by pid, bounded by {@link #MAX_DESCENDANTS}
     *     and {@link #MAX_DEPTH}
     */
    record Tree(boolean ok, long sampledMillis, Entry root, List<Entry> descendants) {
        public Tree {
            descendants = List.copyOf(descendants);
        }
    }

    Tree tree(long rootPid);
}

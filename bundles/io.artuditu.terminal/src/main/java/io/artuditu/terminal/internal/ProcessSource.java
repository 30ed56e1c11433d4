package io.artuditu.terminal.internal;

import java.util.List;

/**
 * Which processes run under a PTY, by name only. The seam between terminal.backend.processes
 * and the shared process scan.
 *
 * <p>TODO(merge): the pty bundle gains {@code io.artuditu.pty.proc.ProcessScan} (a cached
 * scan on its own thread) in a parallel change. Once it is in the tree, replace
 * {@link ProcScan} with an adapter over it ({@code ProcessScan.tree(pid)} maps one to one onto
 * {@link Tree}: OK/UNAVAILABLE, sampledAtMillis, root plus descendants) and wire it in
 * {@link TerminalFamily}'s constructor as a {@code @Reference}.
 */
interface ProcessSource {
    /** Most descendants listed, and the deepest level, as the shared scan bounds them. */
    int MAX_DESCENDANTS = 256;
    int MAX_DEPTH = 32;

    /** One process: its executable's name only, never its arguments. */
    record Entry(long pid, long ppid, String name, int depth) {
    }

    /**
     * @param ok false when the scan cannot say (no /proc, root not seen); entries are empty then
     * @param sampledAtMillis when the scan behind it started, epoch milliseconds
     * @param entries the root (depth 0), then its descendants breadth first
     */
    record Tree(boolean ok, long sampledAtMillis, List<Entry> entries) {
    }

    Tree tree(long rootPid);
}

package io.artuditu.pty.proc;

import java.util.List;

/**
 * A root process and its descendants as the last completed scan saw them.
 *
 * <p>The rule for {@link Status}:
 * <ul>
 *   <li>{@link Status#OK}: the last scan completed and found {@code rootPid}; {@code root}
 *       is its entry and {@code descendants} lists what runs under it.
 *   <li>{@link Status#UNAVAILABLE}: the scan cannot say. {@code root} is {@code null} and
 *       {@code descendants} is empty. This happens before the first scan has completed,
 *       when {@code /proc} cannot be read or the host is not Linux, when the last scan
 *       failed, and when the pid is not in the last scan: the process may have exited, or
 *       may have started after that scan. It is uncertainty, never proof that the root has
 *       no children.
 * </ul>
 *
 * <p>Bounds: {@code descendants} is in breadth-first order (siblings by ascending pid), holds
 * at most {@value #MAX_DESCENDANTS} entries and goes at most {@value #MAX_DEPTH} levels below
 * the root; anything past either bound is left out without notice.
 *
 * @param scan whether the entries can be trusted
 * @param sampledAtMillis when the scan behind this answer started (epoch milliseconds of the
 *     scan's clock), 0 if no scan has been attempted yet
 * @param root the root's entry (depth 0), {@code null} when {@code UNAVAILABLE}
 * @param descendants the root's descendants, breadth first, bounded as above
 */
public record ProcessTree(Status scan, long sampledAtMillis, ProcessEntry root, List<ProcessEntry> descendants) {
    /** Most descendants a tree lists. */
    public static final int MAX_DESCENDANTS = 256;
    /** Deepest level below the root a tree lists (children are level 1). */
    public static final int MAX_DEPTH = 32;

    /** Whether a {@link ProcessTree}'s entries can be trusted. */
    public enum Status {
        /** The last scan completed and found the root. */
        OK,
        /** The scan cannot say; see {@link ProcessTree} for when. */
        UNAVAILABLE
    }

    public ProcessTree {
        if (scan == null) {
            throw new IllegalArgumentException("scan is missing");
        }
        descendants = List.copyOf(descendants);
        if (scan == Status.OK && root == null) {
            throw new IllegalArgumentException("an OK tree needs a root");
        }
        if (scan == Status.UNAVAILABLE && (root != null || !descendants.isEmpty())) {
            throw new IllegalArgumentException("an UNAVAILABLE tree has no entries");
        }
        if (descendants.size() > MAX_DESCENDANTS) {
            throw new IllegalArgumentException(descendants.size() + " descendants, more than " + MAX_DESCENDANTS);
        }
    }

    /** The answer when the scan cannot say, for a scan started at {@code sampledAtMillis}. */
    public static ProcessTree unavailable(long sampledAtMillis) {
        return new ProcessTree(Status.UNAVAILABLE, sampledAtMillis, null, List.of());
    }
}

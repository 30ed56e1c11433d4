package io.artuditu.pty.proc;

/**
 * One process seen by the scan.
 *
 * @param pid its process id
 * @param ppid its parent's process id at the time of the scan (0 for the kernel's roots)
 * @param name the executable's base name only, never its arguments: the kernel's
 *     {@code comm} (at most 15 bytes), or the base name of {@code /proc/<pid>/exe} when
 *     {@code comm} is cut at 15 bytes and that name starts with it; control characters are
 *     shown as {@code ?}
 * @param depth 0 for the root of a {@link ProcessTree}, 1 for its children, and so on
 */
public record ProcessEntry(long pid, long ppid, String name, int depth) {
    public ProcessEntry {
        if (name == null) {
            throw new IllegalArgumentException("name is missing");
        }
        if (depth < 0) {
            throw new IllegalArgumentException("depth " + depth + " is negative");
        }
    }
}

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
 * @param script for an interpreter ({@code node}, {@code nodejs}, {@code bun}, {@code deno},
 *     {@code python}, {@code python3*}, {@code ruby}) the base name of the script it runs,
 *     without folder or extension ({@code node /usr/lib/node_modules/.bin/claude} gives
 *     {@code claude}; a generic name such as {@code index} or {@code cli} gives the nearest
 *     meaningful folder instead, such as {@code gemini-cli}), at most 128 characters,
 *     control characters as {@code ?}; null for every other process and when there is no
 *     script (code given inline) or it cannot be read. No other argument is kept.
 */
public record ProcessEntry(long pid, long ppid, String name, int depth, String script) {
    public ProcessEntry {
        if (name == null) {
            throw new IllegalArgumentException("name is missing");
        }
        if (depth < 0) {
            throw new IllegalArgumentException("depth " + depth + " is negative");
        }
        if (script != null && script.isEmpty()) {
            throw new IllegalArgumentException("script is empty (null means none)");
        }
    }

    /** An entry without a script: a process that is not an interpreter, or one whose script is not known. */
    public ProcessEntry(long pid, long ppid, String name, int depth) {
        this(pid, ppid, name, depth, null);
    }
}

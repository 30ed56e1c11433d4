package io.artuditu.pty.proc;

import org.osgi.annotation.versioning.ProviderType;

/**
 * One shared, cached view of the host's processes, refreshed off the caller's thread.
 *
 * <p>A background thread reads {@code /proc/<pid>/stat} for every process (and
 * {@code /proc/<pid>/exe} for names cut at 15 bytes), at most once per minimum interval
 * (500 ms by default) and only when someone asked. For interpreter processes only
 * ({@link ProcessEntry#script()}) it reads the first 4 KiB of the argument vector
 * ({@code cmdline}) and keeps the script's base name, nothing else of it; it never reads an
 * environment. Every method is safe to call from any thread; {@link #tree(long)} never
 * waits for the file system.
 */
@ProviderType
public interface ProcessScan {
    /**
     * The tree under {@code rootPid} from the cached scan, returned at once. When the cache
     * is older than the minimum interval (or there is none yet) this also asks the
     * background thread for a new scan, which later calls will see.
     *
     * @return the cached answer; see {@link ProcessTree} for when it is {@code UNAVAILABLE}
     */
    ProcessTree tree(long rootPid);

    /**
     * Like {@link #tree(long)}, but first waits, at most {@code timeoutMillis}, for a scan that
     * started less than {@code maxAgeMillis} before this call ({@code 0}: a scan that
     * started after it). Meant for tests and for a first call that would otherwise see no
     * scan at all. On timeout, or when the scan is stopped, it returns what is cached; if
     * the thread is interrupted it returns at once with the interrupt flag set again.
     */
    ProcessTree awaitFresh(long rootPid, long maxAgeMillis, long timeoutMillis);

    /** When the cached scan started (epoch milliseconds), 0 if none has been attempted yet. */
    long sampledAtMillis();

    /**
     * What the scan has done since it started, by the names {@code pane.list} gives them in
     * {@code detection_performance} ({@code docs/protocol/panes.md} says what moves each), in
     * a fixed order: {@code panes_considered} (trees asked for), {@code panes_extracted}
     * (trees built from a scan rather than served from the one built before),
     * {@code full_fleet_audits} (complete passes over {@code /proc}), {@code audit_recoveries}
     * (trees a pass found changed: a root gone, or its descendants different),
     * {@code detection_extractions} (asks that found the cache stale and asked for a pass)
     * and {@code detection_skips} (asks the fresh cache answered without one). Every value
     * is a non-negative count; nothing names a process, a path or a caller.
     */
    java.util.Map<String, Long> counters();
}

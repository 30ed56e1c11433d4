package io.artuditu.pty.proc;

import org.osgi.annotation.versioning.ProviderType;

/**
 * One shared, cached view of the host's processes, refreshed off the caller's thread.
 *
 * <p>A background thread reads {@code /proc/<pid>/stat} for every process (and
 * {@code /proc/<pid>/exe} for names cut at 15 bytes), at most once per minimum interval
 * (500 ms by default) and only when someone asked. Nothing here ever reads a process's
 * argument vector ({@code cmdline}) or environment. Every method is safe to call from any
 * thread; {@link #tree(long)} never waits for the file system.
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
}

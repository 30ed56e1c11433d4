package io.artuditu.pty.internal.proc;

import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.pty.proc.ProcessTree;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The shared scan: a cached {@link Snapshot} and one daemon thread, {@code process-scan}, that
 * replaces it. Requests only set a flag, so any number of callers cause at most one scan in
 * flight and never a queue; a request is served once the last scan is at least the minimum
 * interval old. Every failure becomes an {@code UNAVAILABLE} snapshot and a log line.
 *
 * <p>{@link #start()} begins the thread and asks for a first scan; {@link #stop()} ends it.
 */
final class ProcessScanner implements ProcessScan {
    private static final System.Logger LOG = System.getLogger(ProcessScanner.class.getName());
    static final long DEFAULT_MIN_INTERVAL_MILLIS = 500;
    static final long STOP_WAIT_MILLIS = 2000;
    private static final long STOPPED = Long.MIN_VALUE;

    private final LongSupplier clock;
    private final long minIntervalMillis;
    private final ProcFs procFs;
    private final boolean supported;
    private final Object lock = new Object();
    private volatile Snapshot snapshot = Snapshot.NONE;
    /** Written under {@link #lock}; volatile so {@link #tree} can skip the lock. */
    private volatile boolean requested;
    /** Written under {@link #lock}; volatile so {@link #tree} can skip the lock. */
    private volatile boolean stopped;
    /** Guarded by {@link #lock}. */
    private Thread thread;
    /** Written under {@link #lock}: whether a scan is running, and its start (its sampledAt). */
    private volatile boolean scanning;
    private long scanningSince;
    /** Only touched by the scan thread. */
    private boolean failing;

    // detection_performance: what the scan did for its callers, since it was made.
    private final LongAdder considered = new LongAdder();
    private final LongAdder extracted = new LongAdder();
    private final LongAdder audits = new LongAdder();
    private final LongAdder recoveries = new LongAdder();
    private final LongAdder staleAsks = new LongAdder();
    private final LongAdder freshAsks = new LongAdder();
    private final Runnable onExtract = extracted::increment;

    // For tests: how many scans ran, and the most that ever ran at once.
    private final AtomicInteger scans = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    /** The host's {@code /proc}, the wall clock, 500 ms; unavailable unless the OS is Linux. */
    ProcessScanner() {
        this(Path.of("/proc"), System::currentTimeMillis, DEFAULT_MIN_INTERVAL_MILLIS, ProcFs.MAX_PROCESSES,
                "Linux".equals(System.getProperty("os.name")));
    }

    ProcessScanner(Path procRoot, LongSupplier clockMillis, long minIntervalMillis) {
        this(procRoot, clockMillis, minIntervalMillis, ProcFs.MAX_PROCESSES, true);
    }

    ProcessScanner(Path procRoot, LongSupplier clockMillis, long minIntervalMillis, int maxProcesses, boolean supported) {
        if (minIntervalMillis < 1) {
            throw new IllegalArgumentException("minimum interval " + minIntervalMillis + " ms");
        }
        this.clock = clockMillis;
        this.minIntervalMillis = minIntervalMillis;
        this.procFs = new ProcFs(procRoot, maxProcesses);
        this.supported = supported;
    }

    /** Starts the thread and asks for a first scan; does nothing once started or stopped. */
    void start() {
        synchronized (lock) {
            if (thread != null || stopped) {
                return;
            }
            thread = new Thread(this::loop, "process-scan");
            thread.setDaemon(true);
            thread.start();
            requested = true;
            lock.notifyAll();
        }
    }

    /** Ends the thread, waiting up to {@value #STOP_WAIT_MILLIS} ms for a scan in progress. */
    void stop() {
        Thread t;
        synchronized (lock) {
            stopped = true;
            t = thread;
            lock.notifyAll();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(STOP_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public ProcessTree tree(long rootPid) {
        Snapshot s = snapshot;
        considered.increment();
        if (stale(s)) {
            staleAsks.increment();
            request();
        } else {
            freshAsks.increment();
        }
        return s.tree(rootPid, onExtract);
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("panes_considered", count(considered));
        c.put("panes_extracted", count(extracted));
        c.put("full_fleet_audits", count(audits));
        c.put("audit_recoveries", count(recoveries));
        c.put("detection_extractions", count(staleAsks));
        c.put("detection_skips", count(freshAsks));
        return c;
    }

    /** A counter's value; one that wrapped past 2^63 − 1 (centuries away) reads as that maximum. */
    static long count(LongAdder a) {
        long n = a.sum();
        return n < 0 ? Long.MAX_VALUE : n;
    }

    @Override
    public ProcessTree awaitFresh(long rootPid, long maxAgeMillis, long timeoutMillis) {
        long notBefore = clock.getAsLong() - Math.max(0, maxAgeMillis);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMillis));
        synchronized (lock) {
            while ((snapshot == Snapshot.NONE || snapshot.sampledAtMillis <= notBefore) && !stopped) {
                if (!requested && !(scanning && scanningSince > notBefore)) {
                    // The scan in flight, if any, is too old to do. Only the first waiter rings:
                    // waiters that all rang on every wake-up kept the monitor so busy that the
                    // scan thread could go a whole second without getting it back.
                    requested = true;
                    lock.notifyAll();
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    break;
                }
                try {
                    lock.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return tree(rootPid);
    }

    @Override
    public long sampledAtMillis() {
        return snapshot.sampledAtMillis;
    }

    int scans() {
        return scans.get();
    }

    int maxConcurrentScans() {
        return maxInFlight.get();
    }

    /** Whether the scan thread is alive. */
    boolean running() {
        synchronized (lock) {
            return thread != null && thread.isAlive();
        }
    }

    /** No scan yet, older than the interval, or from the future (the clock went back). */
    private boolean stale(Snapshot s) {
        long age = clock.getAsLong() - s.sampledAtMillis;
        return s == Snapshot.NONE || age < 0 || age >= minIntervalMillis;
    }

    /**
     * Asks for a scan unless one is asked for or running (it is newer than the cache). The
     * unlocked check keeps busy callers off the lock, so they cannot starve the scan thread
     * of it.
     */
    private void request() {
        if (requested || scanning || stopped) {
            return;
        }
        synchronized (lock) {
            if (!requested && !scanning && !stopped) {
                requested = true;
                lock.notifyAll();
            }
        }
    }

    private void loop() {
        try {
            for (long at = awaitTurn(); at != STOPPED; at = awaitTurn()) {
                Snapshot next = scanOnce(at);
                if (next.available) {
                    audits.increment();
                    // Re-extracts every pane asked about since the last scan, so the next ask is a
                    // lookup, and counts the answers this scan corrected.
                    Snapshot last = snapshot;
                    if (last.available) {
                        recoveries.add(next.audit(last, onExtract));
                    }
                }
                synchronized (lock) {
                    snapshot = next;
                    scanning = false;
                    lock.notifyAll();
                }
            }
        } catch (InterruptedException e) {
            // stop() does not interrupt; someone else did, so end like stop() would.
            LOG.log(Level.DEBUG, "process-scan interrupted; scanning stops");
            halt();
        } catch (Throwable t) {
            LOG.log(Level.ERROR, "process-scan failed; every answer is UNAVAILABLE from now on", t);
            halt();
        }
    }

    /** Ends for good with an UNAVAILABLE snapshot, so callers are not left with stale data. */
    private void halt() {
        synchronized (lock) {
            stopped = true;
            scanning = false;
            snapshot = Snapshot.unavailable(clock.getAsLong());
            lock.notifyAll();
        }
    }

    /**
     * Waits until a scan is requested and due, then marks it running and returns its start
     * time; {@link #STOPPED} once stopped.
     */
    private long awaitTurn() throws InterruptedException {
        synchronized (lock) {
            while (!stopped) {
                if (!requested) {
                    lock.wait();
                    continue;
                }
                Snapshot last = snapshot;
                long wait = last == Snapshot.NONE ? 0 : last.sampledAtMillis + minIntervalMillis - clock.getAsLong();
                if (wait <= 0 || wait > minIntervalMillis) {
                    requested = false;
                    scanning = true;
                    scanningSince = clock.getAsLong();
                    return scanningSince;
                }
                lock.wait(wait);
            }
            return STOPPED;
        }
    }

    private Snapshot scanOnce(long at) {
        scans.incrementAndGet();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            if (!supported) {
                if (!failing) {
                    LOG.log(Level.INFO, "not Linux ({0}): every process tree is UNAVAILABLE", System.getProperty("os.name"));
                    failing = true;
                }
                return Snapshot.unavailable(at);
            }
            Snapshot s = procFs.scan(at);
            if (failing) {
                LOG.log(Level.INFO, "process scan works again ({0} processes)", s.size());
                failing = false;
            }
            return s;
        } catch (Exception e) {
            // Logged in full once per outage, then quietly while it lasts.
            LOG.log(failing ? Level.DEBUG : Level.WARNING, "process scan failed; trees are UNAVAILABLE", e);
            failing = true;
            return Snapshot.unavailable(at);
        } finally {
            inFlight.decrementAndGet();
        }
    }
}

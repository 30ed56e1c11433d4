package io.artuditu.pty.internal;

import com.pty4j.unix.PtyHelpers;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.PtyTracker;
import io.artuditu.pty.SpawnRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/** The PTY host without OSGi: tests build it with {@code new}; the component wraps it. */
public final class Host implements PtyHost, AutoCloseable {
    /** Every child gets these; a request's {@code env} cannot replace them. */
    static final Map<String, String> TERMINAL_ENV = Map.of("TERM", "xterm-256color", "COLORTERM", "truecolor");
    /** On close: SIGHUP, then SIGKILL after this long. */
    static final long CLOSE_GRACE_MILLIS = 1000;

    private final Map<String, UnixPty> ptys = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    /** Distinguishes this host's ids from an earlier server's: 6 hex digits of the start time. */
    private final String boot = String.format("%06x", (System.currentTimeMillis() / 1000) & 0xFFFFFF);
    private final List<PtyTracker> trackers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Path nativeFolder;
    /** Reads every child's output: one thread for all of them. */
    private final Reader reader;
    private volatile boolean closed;

    /** @param nativeRoot folder for native libraries, normally {@code <home>/native} */
    public Host(Path nativeRoot) throws IOException {
        this.nativeFolder = NativeLibs.install(nativeRoot);
        this.reader = new Reader();
    }

    /** Where pty4j loads {@code libpty} from. */
    public Path nativeFolder() {
        return nativeFolder;
    }

    @Override
    public Pty spawn(SpawnRequest request, PtyListener listener) throws IOException {
        if (closed) {
            throw new IOException("PTY host is stopped");
        }
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(request.env());
        env.putAll(TERMINAL_ENV);
        // The window size goes on the master before the child exists: pty4j's builder sets it
        // only after exec, so a child that asks at once (stty size, an agent CLI) could see 0x0.
        Posix.Master master = Posix.openMaster();
        int err = Posix.windowSize(master.fd(), request.cols(), request.rows());
        if (err != 0) {
            Posix.closeFd(master.fd());
            throw new IOException("cannot size the PTY: errno " + -err);
        }
        String[] envp = env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        String[] argv = request.command().toArray(String[]::new);
        int pid;
        try {
            pid = start(argv, envp, env.get("PATH"), request.cwd(), master);
        } catch (IOException | RuntimeException e) {
            Posix.closeFd(master.fd());
            throw e;
        }
        String id = "term-" + boot + "-" + sequence.incrementAndGet();
        UnixPty[] self = new UnixPty[1];
        UnixPty pty = new UnixPty(id, master.fd(), pid, request, listener, reader, status -> exited(self[0], status));
        self[0] = pty;
        synchronized (trackers) { // so a tracker registering now sees this PTY exactly once
            ptys.put(id, pty);
            for (PtyTracker t : trackers) {
                notify(t, pty, -1, true);
            }
        }
        pty.start();
        if (closed) { // lost a race with close(): do not leave an orphan
            pty.terminate(0);
        }
        return pty;
    }

    /**
     * Starts the child on the PTY's slave: posix_spawn ({@link Spawn}) unless it is unavailable
     * or {@link #FORK_PROPERTY} is set, else pty4j's native fork. Either way the child is a
     * session leader with the slave as controlling terminal and stdio, no other fd of ours,
     * the request's cwd and environment, and argv[0] looked up as pty4j always did.
     */
    private int start(String[] argv, String[] envp, String path, Path cwd, Posix.Master master) throws IOException {
        if (!forceFork && spawnAvailable()) {
            String exe = find(argv[0], path, cwd);
            if (exe == null) {
                throw new IOException("cannot start " + argv[0] + ": not found on PATH or not executable");
            }
            // A missing or unreadable cwd was ignored by the fork path (its chdir result was
            // not checked): keep that rather than failing the whole spawn.
            String dir = Files.isDirectory(cwd) ? cwd.toString() : null;
            try {
                int pid = Spawn.spawn(exe, argv, envp, dir, master.slave());
                if (pid <= 0) {
                    throw new IOException("cannot start " + argv[0] + ": " + errnoName(-pid));
                }
                return pid;
            } catch (Spawn.SetupException e) {
                spawnUnusable(e); // not the child's fault: use the fork for this one
            }
        }
        // pty4j's own fork (setsid, the slave as controlling terminal and stdio, every other fd
        // closed, exec), called on this thread. Its UnixPtyProcess would do the same from a new
        // "Reaper" thread that then waits for the child: a thread and two hand-offs per spawn
        // that our reader thread makes redundant, since it reaps the child itself (UnixPty).
        int pid = PtyHelpers.execPty(argv[0], argv, envp, cwd.toString(), master.slave(), master.fd(), null, -1, false);
        if (pid <= 0) {
            throw new IOException("cannot start " + argv[0] + ": not found on PATH, not executable, or fork failed");
        }
        return pid;
    }

    /**
     * argv[0] as pty4j's {@code pfind} finds it: a name starting with {@code /} or {@code .}
     * is taken as it is (a relative one from the child's cwd, where the exec resolves it),
     * anything else is tried in each non-empty entry of the child's {@code PATH}; the first
     * that access(2) finds executable wins. Null when none is.
     */
    static String find(String name, String path, Path cwd) {
        if (name.startsWith("/") || name.startsWith(".")) {
            try {
                Path p = name.startsWith("/") ? Path.of(name) : cwd.resolve(name);
                return Files.isExecutable(p) ? p.toString() : null;
            } catch (java.nio.file.InvalidPathException e) {
                return null; // a NUL in the name: nothing by that name can be executed
            }
        }
        if (path == null) {
            return null;
        }
        for (String dir : path.split(":")) {
            if (!dir.isEmpty()) {
                String full = dir + "/" + name;
                try {
                    if (Files.isExecutable(Path.of(full))) {
                        return full;
                    }
                } catch (java.nio.file.InvalidPathException e) {
                    // an unusable PATH entry (a NUL): skip it as access(2) would fail on it
                }
            }
        }
        return null;
    }

    private static String errnoName(int errno) {
        return switch (errno) {
            case 2 -> "not found (ENOENT)";
            case 8 -> "not an executable format (ENOEXEC)";
            case 11 -> "too many processes (EAGAIN)";
            case 12 -> "out of memory (ENOMEM)";
            case 13 -> "permission denied (EACCES)";
            default -> "errno " + errno;
        };
    }

    /** Set to {@code true} to start children with pty4j's fork instead of posix_spawn. */
    static final String FORK_PROPERTY = "artuditu.pty.fork";
    private final boolean forceFork = Boolean.getBoolean(FORK_PROPERTY);
    /** Null until the first spawn tried to load {@link Spawn}. */
    private static volatile Boolean spawnLoaded;
    private static final java.util.concurrent.atomic.AtomicBoolean SPAWN_WARNED = new java.util.concurrent.atomic.AtomicBoolean();

    /** Whether posix_spawn is usable; the first failure to load it is logged, once. */
    static boolean spawnAvailable() {
        Boolean loaded = spawnLoaded;
        if (loaded == null) {
            if (!System.getProperty("os.name", "").startsWith("Linux")) {
                // Spawn's flag and O_RDWR values are Linux's (glibc, musl); elsewhere keep the fork.
                spawnLoaded = false;
                return false;
            }
            try {
                Class.forName(Spawn.class.getName(), true, Spawn.class.getClassLoader());
                loaded = true;
            } catch (LinkageError | ClassNotFoundException e) {
                spawnUnusable(e);
                loaded = false;
            }
            spawnLoaded = loaded;
        }
        return loaded;
    }

    private static void spawnUnusable(Throwable why) {
        if (SPAWN_WARNED.compareAndSet(false, true)) {
            System.getLogger(Host.class.getName()).log(System.Logger.Level.WARNING,
                    "posix_spawn is not usable, children are started with fork (slower with a large heap)", why);
        }
    }

    /** Runs on the PTY's wait thread before anyone waiting on {@code exit()} wakes. */
    private void exited(UnixPty pty, int status) {
        ptys.remove(pty.id());
        for (PtyTracker t : trackers) {
            notify(t, pty, status, false);
        }
    }

    private static void notify(PtyTracker t, Pty pty, int status, boolean added) {
        try {
            if (added) {
                t.added(pty);
            } else {
                t.exited(pty, status);
            }
        } catch (RuntimeException e) {
            System.getLogger(Host.class.getName()).log(System.Logger.Level.WARNING, "a PTY tracker failed", e);
        }
    }

    @Override
    public AutoCloseable track(PtyTracker tracker) {
        synchronized (trackers) {
            trackers.add(tracker);
            for (Pty p : list()) {
                notify(tracker, p, -1, true);
            }
        }
        return () -> trackers.remove(tracker);
    }

    @Override
    public Optional<Pty> find(String id) {
        return Optional.ofNullable(ptys.get(id));
    }

    @Override
    public List<Pty> list() {
        return ptys.values().stream()
                .sorted((a, b) -> Long.compare(seq(a), seq(b)))
                .map(p -> (Pty) p)
                .toList();
    }

    private static long seq(UnixPty p) {
        return Long.parseLong(p.id().substring(p.id().lastIndexOf('-') + 1));
    }

    /** Terminates every child (SIGHUP, SIGKILL after {@value #CLOSE_GRACE_MILLIS} ms) and waits for them. */
    @Override
    public void close() {
        closed = true;
        List<UnixPty> all = List.copyOf(ptys.values());
        for (UnixPty p : all) {
            p.terminate(CLOSE_GRACE_MILLIS);
        }
        CompletableFuture<?>[] exits = all.stream().map(UnixPty::exitInternal).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(CLOSE_GRACE_MILLIS + 2L * UnixPty.IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Reported per PTY by its own future; nothing more to do here.
        }
        reader.close(); // a child that outlived the grace gets its end now (exit status -1)
    }

    /** Whether the reader thread runs (tests: it ends with the host). */
    boolean readerAlive() {
        return reader.alive();
    }
}

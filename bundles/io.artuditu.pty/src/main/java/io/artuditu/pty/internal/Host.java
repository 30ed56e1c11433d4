package io.artuditu.pty.internal;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.SpawnRequest;
import java.io.IOException;
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
    private final Path nativeFolder;
    private volatile boolean closed;

    /** @param nativeRoot folder for native libraries, normally {@code <home>/native} */
    public Host(Path nativeRoot) throws IOException {
        this.nativeFolder = NativeLibs.install(nativeRoot);
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
        PtyProcess process = new PtyProcessBuilder(request.command().toArray(String[]::new))
                .setEnvironment(env)
                .setDirectory(request.cwd().toString())
                .setInitialColumns(request.cols())
                .setInitialRows(request.rows())
                .setRedirectErrorStream(true)
                .start();
        String id = "term-" + sequence.incrementAndGet();
        UnixPty pty = new UnixPty(id, process, listener, request.cols(), request.rows());
        ptys.put(id, pty);
        pty.exitInternal().whenComplete((status, error) -> ptys.remove(id));
        pty.start();
        if (closed) { // lost a race with close(): do not leave an orphan
            pty.terminate(0);
        }
        return pty;
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
        return Long.parseLong(p.id().substring("term-".length()));
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
            CompletableFuture.allOf(exits).get(CLOSE_GRACE_MILLIS + 2 * UnixPty.DRAIN_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Reported per PTY by its own future; nothing more to do here.
        }
    }
}

package io.artuditu.server.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.platform.ServerControl;
import io.artuditu.uhp.platform.StatsContributor;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.nio.file.Path;
import java.time.Instant;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.Version;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * Runs the {@link SocketServer} for the session this process was started for.
 *
 * <p>Framework properties: {@code artuditu.home} (else {@code $ARTUDITU_HOME}, else
 * {@code ~/.artuditu}), {@code artuditu.session} (else the default session) and
 * {@code artuditu.standalone}: when true (the distribution sets it) this process exists
 * to serve the socket, so failing to bind it and {@link #stop} both end the process;
 * otherwise (an embedding or test framework) they only stop the framework.
 */
@Component(service = {ServerControl.class, StatsContributor.class}, immediate = true)
public final class ServerComponent implements ServerControl, StatsContributor {
    private static final Logger LOG = System.getLogger(ServerComponent.class.getName());
    /** Exit status when another live server owns the socket path. */
    static final int EXIT_ALREADY_RUNNING = 3;

    private final SocketServer server;
    private final BundleContext context;
    private final boolean standalone;
    private final String version;
    private final Instant startedAt = Instant.now();
    /** How long a standalone server waits for the launcher's ready signal before serving anyway. */
    static final long READY_TIMEOUT_MS = 10_000;
    private Thread shutdownHook;
    private ServiceListener readyListener;
    private Thread fallback;

    @Activate
    public ServerComponent(@Reference UhpDispatcher dispatcher, BundleContext context) {
        this.context = context;
        this.standalone = Boolean.parseBoolean(context.getProperty("artuditu.standalone"));
        this.version = display(context.getBundle().getVersion());
        Path home = SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv());
        long uid = SocketLocation.currentUid();
        SocketLocation location = SocketLocation.resolve(home, context.getProperty("artuditu.session"), uid);
        this.server = new SocketServer(location, uid, dispatcher, Limits.MAX_CONNECTIONS, Limits.INITIAL_FRAME_TIMEOUT_MS);
        try {
            server.bind();
        } catch (SocketServer.AlreadyRunningException e) {
            LOG.log(Level.ERROR, e.getMessage());
            if (standalone) {
                exitSoon(EXIT_ALREADY_RUNNING);
            }
            throw new IllegalStateException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + location.logical() + ": " + e.getMessage(), e);
        }
        if (standalone) {
            // SIGTERM/SIGINT end the JVM without stopping the framework first; the socket
            // file must still go. The hook lives only while this component is active.
            shutdownHook = new Thread(server::close, "artuditu-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            serveWhenLaunched();
        } else {
            server.accept();
        }
    }

    /**
     * The distribution's launcher starts the framework first and the bundles after it, then
     * registers a service with {@code launcher.ready=true}. Serving from then on means the
     * first client meets every family of the runtime, never a registry still filling up;
     * meanwhile clients wait in the listen backlog. If the signal never comes (another
     * launcher), serve after {@link #READY_TIMEOUT_MS} anyway.
     */
    private void serveWhenLaunched() {
        fallback = new Thread(() -> {
            try {
                Thread.sleep(READY_TIMEOUT_MS);
                if (server.accept()) {
                    LOG.log(Level.WARNING, "no launcher.ready signal after " + READY_TIMEOUT_MS + " ms; serving anyway");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "artuditu-ready-fallback");
        fallback.setDaemon(true);
        fallback.start();
        String filter = "(launcher.ready=true)";
        readyListener = event -> {
            if (event.getType() == ServiceEvent.REGISTERED || event.getType() == ServiceEvent.MODIFIED) {
                serveNow();
            }
        };
        try {
            context.addServiceListener(readyListener, filter);
            if (context.getServiceReferences((String) null, filter) != null) {
                serveNow();
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private synchronized void serveNow() {
        server.accept();
        if (fallback != null) {
            fallback.interrupt();
        }
    }

    private static String display(Version v) {
        String base = v.getMajor() + "." + v.getMinor() + "." + v.getMicro();
        return v.getQualifier().isEmpty() ? base : base + "-" + v.getQualifier();
    }

    @Deactivate
    void deactivate() {
        if (readyListener != null) {
            context.removeServiceListener(readyListener);
        }
        if (fallback != null) {
            fallback.interrupt();
        }
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it closes the server too
            }
        }
        server.close();
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public String session() {
        return server.location().session();
    }

    @Override
    public Path socketPath() {
        return server.location().logical();
    }

    @Override
    public Instant startedAt() {
        return startedAt;
    }

    @Override
    public void stop(String reason) {
        Thread t = new Thread(() -> {
            LOG.log(Level.INFO, "stopping: " + reason);
            server.close();
            if (standalone) {
                // Exit first: the launcher's shutdown hook then stops the framework, and
                // this status (0) is the one the process ends with.
                System.exit(0);
            }
            try {
                context.getBundle(0).stop();
            } catch (BundleException | IllegalStateException e) {
                LOG.log(Level.WARNING, "framework stop failed", e);
            }
        }, "artuditu-stop");
        t.start();
    }

    private static void exitSoon(int status) {
        Thread t = new Thread(() -> System.exit(status), "artuditu-exit");
        t.start();
    }

    @Override
    public void contribute(ObjectNode stats) {
        server.stats().writeTo(stats);
        stats.put("uptime_ms", Math.max(0, Instant.now().toEpochMilli() - startedAt.toEpochMilli()));
    }
}

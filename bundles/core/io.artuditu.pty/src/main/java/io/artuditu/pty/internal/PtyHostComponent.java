package io.artuditu.pty.internal;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.SpawnRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * The {@link PtyHost} service. It has no references, so it stays active while other
 * bundles are updated; only stopping or updating this bundle deactivates it, and that
 * terminates every child it owns (SIGHUP, then SIGKILL after 1 s).
 *
 * <p>Native libraries live in {@code <home>/native}; home is the framework property
 * {@code artuditu.home}, else {@code $ARTUDITU_HOME}, else {@code ~/.artuditu} (the same
 * rule as the socket server's; repeated here so this core bundle needs no other bundle).
 */
@Component(service = PtyHost.class, immediate = true)
public final class PtyHostComponent implements PtyHost {
    private final Host host;

    @Activate
    public PtyHostComponent(BundleContext context) throws IOException {
        this.host = new Host(home(context.getProperty("artuditu.home"), System.getenv("ARTUDITU_HOME")).resolve("native"));
    }

    static Path home(String property, String env) {
        if (property != null && !property.isBlank()) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath().normalize();
        }
        return Path.of(System.getProperty("user.home"), ".artuditu");
    }

    @Deactivate
    void deactivate() {
        host.close();
    }

    @Override
    public Pty spawn(SpawnRequest request, PtyListener listener) throws IOException {
        return host.spawn(request, listener);
    }

    @Override
    public Optional<Pty> find(String id) {
        return host.find(id);
    }

    @Override
    public List<Pty> list() {
        return host.list();
    }

    @Override
    public AutoCloseable track(io.artuditu.pty.PtyTracker tracker) {
        return host.track(tracker);
    }
}

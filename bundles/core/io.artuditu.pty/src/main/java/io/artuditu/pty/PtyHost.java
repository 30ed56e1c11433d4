package io.artuditu.pty;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Spawns children on real PTYs and owns them. The host's component stays active while
 * other bundles come and go; deactivating it terminates every child it still owns.
 */
@ProviderType
public interface PtyHost {
    /**
     * Starts {@code request.command()} on a new PTY. Output is retained from the first byte
     * and goes to {@code listener} when not null (see {@link Pty#listen}).
     *
     * @throws IOException when the PTY or the process cannot be created
     */
    Pty spawn(SpawnRequest request, PtyListener listener) throws IOException;

    Optional<Pty> find(String id);

    /** PTYs whose child has not yet been reaped, in spawn order. */
    List<Pty> list();

    /**
     * Calls {@code tracker.added} for every live PTY now, then for each new one, and
     * {@code exited} as they end, until the returned handle is closed. Callbacks for one PTY
     * come in order; {@code added} runs on the spawning thread.
     */
    AutoCloseable track(PtyTracker tracker);
}

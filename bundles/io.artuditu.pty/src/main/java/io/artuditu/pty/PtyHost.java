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
     * Starts {@code request.command()} on a new PTY. Output goes to {@code listener} on a
     * reader thread of this PTY, from the first byte.
     *
     * @throws IOException when the PTY or the process cannot be created
     */
    Pty spawn(SpawnRequest request, PtyListener listener) throws IOException;

    Optional<Pty> find(String id);

    /** PTYs whose child has not yet been reaped, in spawn order. */
    List<Pty> list();
}

package io.artuditu.uhp.platform;

import java.nio.file.Path;
import java.time.Instant;

/**
 * The running server as other bundles see it: identity for {@code ping} and the one
 * way to stop it. Provided by the socket-server bundle.
 */
@org.osgi.annotation.versioning.ProviderType
public interface ServerControl {
    /** The Artuditu release, for example {@code 0.1.0}. */
    String version();

    /** The selected session name; {@code default} for the unnamed server. */
    String session();

    /** The logical socket path clients use (what {@code $ARTUDITU_SOCKET_PATH} holds). */
    Path socketPath();

    Instant startedAt();

    /**
     * Stops accepting connections, removes the socket file and exits the process with
     * status 0 once the framework has stopped. Returns immediately; the stop runs on its
     * own thread.
     */
    void stop(String reason);
}

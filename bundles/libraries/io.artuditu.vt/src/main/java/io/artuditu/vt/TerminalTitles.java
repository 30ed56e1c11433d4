package io.artuditu.vt;

import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The window titles programs set on their terminals (OSC 0 and 2), by {@code terminal_id}.
 * Registered by the bundle that runs the terminal emulators (beside {@link TerminalScreens}); readers such as
 * {@code session.snapshot} treat it as optional, so that bundle can be updated while they
 * keep serving (titles read as unknown meanwhile).
 */
@ProviderType
public interface TerminalTitles {
    /**
     * The title to show for {@code terminalId}: one set through the API, else the one its
     * program set last; empty when there is none, or the terminal is unknown or has exited. Safe to call from any thread; never blocks on I/O.
     */
    Optional<String> title(String terminalId);
}

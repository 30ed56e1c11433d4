package io.artuditu.modules.internal;

import java.util.Collection;
import java.util.Optional;

/** What the ui store asks the module manager: which modules are enabled and what they declare. */
interface Directory {
    /** The manifest of an enabled module. */
    Optional<Manifest> enabled(String moduleId);

    /** Every enabled module's manifest. */
    Collection<Manifest> enabledManifests();

    /** Whether a module of that id is known at all (enabled or not). */
    boolean known(String moduleId);
}

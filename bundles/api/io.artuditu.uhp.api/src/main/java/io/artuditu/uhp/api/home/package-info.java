/**
 * Where a server lives: the Artuditu home, named sessions and the socket path rules
 * shared by the server and every client. Plain Java, no JSON: the thin CLI loads it
 * without pulling anything else in.
 */
@Export
@Version("1.4.0")
package io.artuditu.uhp.api.home;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * Delegated authority: the service that turns a request's {@code auth} token into the
 * scopes it grants. The tokens bundle provides it; the dispatcher consults it before a
 * method runs.
 */
@Export
@Version("1.0.0")
package io.artuditu.uhp.api.auth;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * The workspace path rule every family applies to a path a request names
 * ({@link io.artuditu.uhp.api.paths.WorkspacePath}).
 */
@Export
@Version("1.0.0")
package io.artuditu.uhp.api.paths;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

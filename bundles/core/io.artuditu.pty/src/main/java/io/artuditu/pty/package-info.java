/**
 * Real pseudo-terminals. {@link io.artuditu.pty.PtyHost} spawns a child on a new PTY and
 * returns a {@link io.artuditu.pty.Pty} handle; the host owns the child until it exits or
 * the host is deactivated. See {@code docs/pty.md}.
 */
@Export
@Version("0.2.0")
package io.artuditu.pty;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

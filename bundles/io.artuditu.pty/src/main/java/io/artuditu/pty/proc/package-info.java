/**
 * Which processes run under a PTY, by executable name only. {@link io.artuditu.pty.proc.ProcessScan}
 * answers from one shared scan of {@code /proc} made on a background thread, so callers on
 * an event loop never touch the file system. Argument vectors and environments are never
 * read, because they can hold prompts, credentials or tokens. See {@code docs/pty.md}.
 */
@Export
@Version("1.1.0")
package io.artuditu.pty.proc;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

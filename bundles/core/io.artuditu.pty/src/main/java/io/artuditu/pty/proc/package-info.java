/**
 * Which processes run under a PTY, by executable name, and for interpreters the script's
 * base name. {@link io.artuditu.pty.proc.ProcessScan} answers from one shared scan of
 * {@code /proc} made on a background thread, so callers on an event loop never touch the
 * file system. Environments are never read, and argument vectors only for interpreters
 * ({@code node}, {@code python3}, …), of which only the script's base name is kept, because
 * they can hold prompts, credentials or tokens. See {@code docs/pty.md}.
 */
@Export
@Version("1.2.0")
package io.artuditu.pty.proc;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

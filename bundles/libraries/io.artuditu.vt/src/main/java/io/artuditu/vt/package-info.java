/**
 * A headless VT/xterm terminal emulator: feed it the bytes a program writes to its PTY and
 * read back the screen, the scrollback, the cursor, the title and the input modes; and turn
 * what the user does (keys with {@link io.artuditu.vt.Keys}, pastes, mouse and focus with
 * {@link io.artuditu.vt.Input}) into the bytes the program expects in those modes.
 *
 * <p>Start with {@link io.artuditu.vt.Terminal#create(int, int, io.artuditu.vt.Limits)}. The
 * package has no dependency on OSGi or on any PTY: it is a plain library.
 *
 * <p>It also holds the services the bundle that runs the emulators provides about them
 * ({@link io.artuditu.vt.TerminalScreens}, {@link io.artuditu.vt.TerminalTitles},
 * {@link io.artuditu.vt.TerminalMetrics}), so their readers depend on this library rather
 * than on that bundle, which can then be updated on its own.
 */
@Export
@Version("0.6.0")
package io.artuditu.vt;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

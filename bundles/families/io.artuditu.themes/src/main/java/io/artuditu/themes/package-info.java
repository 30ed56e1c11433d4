/**
 * The Artuditu theme format: {@link io.artuditu.themes.ThemeFormat} reads one theme file
 * (TOML) and checks it whole, filling the workbench colours a file leaves out from its
 * palette; {@link io.artuditu.themes.ThemeFolder} reads a folder of them with its bounds;
 * {@link io.artuditu.themes.ThemeImport} converts the palettes people already have (base16
 * YAML, Alacritty TOML, kitty {@code .conf}, Windows Terminal JSON). A plain library: no
 * OSGi, no I/O beyond the files it is handed. See {@code docs/themes.md}.
 */
@Export
@Version("1.0.0")
package io.artuditu.themes;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * Configuration sections: the whiteboard through which any bundle adds keys to
 * {@code <home>/config.toml} without editing a central class.
 *
 * <p>A bundle registers one {@link io.artuditu.uhp.api.config.ConfigSection} service per
 * top-level table it owns. The config bundle tracks those services, validates the file
 * and every {@code config.patch} against each section's schema, and hands the section its
 * values through {@link io.artuditu.uhp.api.config.ConfigSection#apply}. A section whose
 * values must agree with state its bundle owns (the theme id with the theme registry)
 * implements {@link io.artuditu.uhp.api.config.CheckedSection}; a bundle that changes the
 * config on a user's behalf ({@code theme.use}) does it through the
 * {@link io.artuditu.uhp.api.config.ConfigEditor} service, the same path as {@code config.patch}.
 */
@Export
@Version("1.2.0")
package io.artuditu.uhp.api.config;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * Configuration sections: the whiteboard through which any bundle adds keys to
 * {@code <home>/config.toml} without editing a central class.
 *
 * <p>A bundle registers one {@link io.artuditu.uhp.api.config.ConfigSection} service per
 * top-level table it owns. The config bundle tracks those services, validates the file
 * and every {@code config.patch} against each section's schema, and hands the section its
 * values through {@link io.artuditu.uhp.api.config.ConfigSection#apply}.
 */
@Export
@Version("1.0.0")
package io.artuditu.uhp.api.config;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

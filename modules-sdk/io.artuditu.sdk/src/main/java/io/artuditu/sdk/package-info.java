/**
 * The modules SDK: what a bundle module uses besides the UHP method SPI
 * ({@code io.artuditu.uhp.api}). A module's components take a {@link io.artuditu.sdk.ModuleContext}
 * by service reference; each module bundle gets its own, and everything acquired through
 * it (bar widgets, docks, notifications, action handlers, panes it opened, event
 * subscriptions, threads and timers) is revoked when the module is disabled, updated or
 * unlinked.
 */
@Export
@Version("1.0.0")
package io.artuditu.sdk;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

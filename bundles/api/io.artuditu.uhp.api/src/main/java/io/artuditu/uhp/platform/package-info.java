/**
 * The platform's own wiring between its bundles: the dispatcher as a service
 * ({@link io.artuditu.uhp.platform.UhpDispatcher}) and what it hands transports
 * ({@link io.artuditu.uhp.platform.Reply}), the plain call it builds
 * ({@link io.artuditu.uhp.platform.BasicCall}), the live registry's rows
 * ({@link io.artuditu.uhp.platform.MethodInfo}, {@link io.artuditu.uhp.platform.ClaimConflict},
 * {@link io.artuditu.uhp.platform.FamilyFailure}), the running server
 * ({@link io.artuditu.uhp.platform.ServerControl}) and the {@code uhp.stats} whiteboard
 * ({@link io.artuditu.uhp.platform.StatsContributor}).
 *
 * <p><strong>Modules must not use this package.</strong> It is exported only because the
 * platform is several bundles; it changes whenever the platform needs it to, and a module
 * that imports it ties itself to one platform release. Everything a module needs is in
 * {@code io.artuditu.uhp.api} (the family SPI), {@code io.artuditu.uhp.api.schema} (its
 * contract) and {@code io.artuditu.uhp.api.events} (the event bus).
 */
@Export
@Version("1.2.0")
package io.artuditu.uhp.platform;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * What a module builds against: the SPI a method family implements and the request, reply
 * and error model its handlers see.
 *
 * <p>A family bundle registers one {@link io.artuditu.uhp.api.UhpFamily} service; the
 * dispatcher tracks those services (whiteboard) and routes each request by exact method
 * name. A family's methods, schemas and events are data, a file in its own bundle read
 * with {@link io.artuditu.uhp.api.schema.FamilyContract}. Everything in this package is
 * safe to share between threads.
 *
 * <p>The platform's own wiring (the dispatcher service, replies, the live registry,
 * {@code uhp.stats} contributors) is in {@code io.artuditu.uhp.platform}, which modules do
 * not use. 2.0.0: those types left this package.
 */
@Export
@Version("2.1.0")
package io.artuditu.uhp.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

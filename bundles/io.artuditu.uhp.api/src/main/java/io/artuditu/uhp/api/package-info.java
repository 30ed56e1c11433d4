/**
 * The UHP request/reply/error model and the SPI a method family implements.
 *
 * <p>A family bundle registers one {@link io.artuditu.uhp.api.UhpFamily} service; the
 * dispatcher tracks those services (whiteboard) and routes each request by exact method
 * name. Everything in this package is safe to share between threads.
 */
@Export
@Version("1.3.0")
package io.artuditu.uhp.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * The one UHP client: how the {@code artu} CLI, the workbench, the benchmarks and the tests
 * reach a server over its Unix socket. {@link io.artuditu.uhp.client.UhpClient} connects
 * (the socket rules of {@link io.artuditu.uhp.api.home.SocketLocation}), sends one request
 * and reads its one reply line, or opens a {@link io.artuditu.uhp.client.UhpConnection} that
 * stays open for a stream; every line read is bounded, waits can be bounded in time, and a
 * server that cannot be reached is told apart from one that failed.
 *
 * <p>It works on raw lines (JSON text, never parsed here) and needs nothing beyond the JDK,
 * so the thin CLI loads it without Jackson; each caller keeps its own JSON handling.
 */
@Export
@Version("1.0.0")
package io.artuditu.uhp.client;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * The event bus as a service: one monotonic sequence for every event, a bounded replay
 * window, bounded subscriber queues and one-shot waiters. Provided by the
 * {@code io.artuditu.events} bundle; families publish through {@link io.artuditu.uhp.api.events.EventBus}.
 */
@Export
@Version("1.3.0")
package io.artuditu.uhp.api.events;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

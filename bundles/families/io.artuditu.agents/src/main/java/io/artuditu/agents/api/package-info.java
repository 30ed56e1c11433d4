/**
 * What the agents family tells other bundles about the agents it detects: each pane's
 * agent and its state ({@link io.artuditu.agents.api.AgentStates}, a service the family
 * registers), for {@code session.snapshot} and {@code pane.list}. Readers treat the service
 * as optional and dynamic.
 */
@Export
@Version("1.0.0")
package io.artuditu.agents.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * The workspace topology as plain immutable data and pure operations: workspaces, tabs,
 * binary split trees of panes, focus, zoom, names and purposes, and the normalized
 * geometry. Every operation validates the whole request against one {@link Topology} and
 * returns a {@link Change} (the next state plus the events to publish) or throws a
 * {@link TopologyException}; nothing here touches processes, threads or the event bus.
 * {@link Targets} resolves what a request names (its declared target) with one wording;
 * the operations are {@link TopologyOps} and one class per family. See
 * {@code docs/topology.md}.
 */
@Export
@Version("0.4.0")
package io.artuditu.model.topology;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

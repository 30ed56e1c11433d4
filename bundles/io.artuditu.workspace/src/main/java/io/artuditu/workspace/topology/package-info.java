/**
 * The workspace topology as plain immutable data and pure operations: workspaces, tabs,
 * binary split trees of panes, focus, zoom, names and purposes, and the normalized
 * geometry. Every operation validates the whole request against one {@link Topology} and
 * returns a {@link Change} (the next state plus the events to publish) or throws a
 * {@link TopologyException}; nothing here touches processes, threads or the event bus.
 * See {@code docs/topology.md}.
 */
@Export
@Version("0.3.0")
package io.artuditu.workspace.topology;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * The workspace topology as plain immutable data: workspaces, tabs, binary split trees of
 * panes, focus, zoom, names and purposes ({@link Topology} and its records); a change as
 * data ({@link Change}: the next state, the events to publish, the answer); what a change
 * gets from the model ({@link Spawner}: a pane's process, fresh ids); a resolved target
 * ({@link Target}); and what every path shares: the tree's JSON form and bounds
 * ({@link Layouts}) and how objects enter and leave ({@link Lifecycle}: naming, limits,
 * the lifecycle events). The rules of each method family live with the family, in the
 * topology bundle. Nothing here touches processes, threads or the event bus.
 * See {@code docs/topology.md}.
 */
@Export
@Version("1.2.0")
package io.artuditu.model.topology;


import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

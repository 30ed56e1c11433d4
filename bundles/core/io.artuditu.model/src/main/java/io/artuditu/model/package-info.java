/**
 * The workspace model: workspaces and their panes, each pane on a PTY of the host. One
 * writer changes it; readers get immutable records. See {@code docs/ARCHITECTURE.md}.
 */
@Export
@Version("1.0.0")
package io.artuditu.model;


import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

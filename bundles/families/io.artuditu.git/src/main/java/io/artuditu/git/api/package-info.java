/**
 * The git write engine as a service: {@link io.artuditu.git.api.GitOperations} runs the
 * write operations of the git family (stage, commit, checkout, branches, fetch/pull/push,
 * adding a remote) with the real {@code git} binary, one writer per worktree root, and says
 * whether each finished within a short grace window or still runs. The UHP methods
 * {@code git.stage} … {@code git.remote.add} are one client of it; the HTTP surface is meant
 * to be another (200 for a finished operation, 202 for a running one). See
 * {@code docs/protocol/git.md}.
 */
@Export
@Version("1.0.0")
package io.artuditu.git.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

package io.artuditu.git.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Runs git write operations on the repository containing a folder. Thread safe.
 *
 * <p>One writer per worktree root: while an operation runs on a root, {@link #submit} for the
 * same root is refused with {@code authority_conflict} (details: {@code reason:
 * git_operation_running}, {@code op}, {@code kind}, {@code root}); reads of the repository
 * (JGit) are not affected. Operations on different roots run side by side.
 *
 * <p>Every request is validated whole before any process starts; a refusal is an
 * {@link io.artuditu.uhp.api.UhpException} and changes nothing.
 */
@ProviderType
public interface GitOperations {
    /**
     * The operation kinds and their params, as the UHP methods {@code git.<kind>} take them
     * (without {@code workspace}/{@code workspace_id}): {@code stage}, {@code unstage},
     * {@code discard} ({@code paths} or {@code patch}), {@code commit} ({@code message},
     * {@code amend}, {@code allow_empty}), {@code checkout} ({@code branch} or {@code ref},
     * {@code create}), {@code branch.create} ({@code name}, {@code start_point}),
     * {@code branch.delete} ({@code name}, {@code force}), {@code branch.rename}
     * ({@code from}, {@code to}), {@code fetch} ({@code remote}), {@code pull} ({@code remote},
     * {@code branch}, {@code ff_only}), {@code push} ({@code remote}, {@code branch},
     * {@code set_upstream}), {@code remote.add} ({@code name}, {@code url}).
     */
    List<String> KINDS = List.of("stage", "unstage", "discard", "commit", "checkout", "branch.create",
            "branch.delete", "branch.rename", "fetch", "pull", "push", "remote.add");

    /**
     * Validates and starts one operation on the repository containing {@code folder}, then
     * waits for it at most the grace window.
     *
     * @param folder the workspace folder: paths in {@code params} are joined against it
     * @return the operation: {@link GitOpResult.State#SUCCEEDED} or {@code FAILED} when it
     *     ended within the grace window, else {@code RUNNING} (its end is published as the
     *     event {@code git.op} and readable with {@link #get})
     * @throws io.artuditu.uhp.api.UhpException {@code invalid_request} for bad params (nothing
     *     ran; a patch that does not apply is reason {@code patch_does_not_apply}),
     *     {@code authority_conflict} while another operation runs on the same root
     */
    GitOpResult submit(Path folder, String kind, ObjectNode params);

    /** A running or recently ended operation by id ({@code op-<n>}); empty once forgotten. */
    Optional<GitOpResult> get(String op);

    /** The running operations and the most recent ended ones, newest first (bounded). */
    List<GitOpResult> recent();
}

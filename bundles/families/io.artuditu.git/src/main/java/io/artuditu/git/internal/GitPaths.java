package io.artuditu.git.internal;

import io.artuditu.uhp.api.paths.WorkspacePath;
import java.nio.file.Path;

/**
 * The paths a git write names: the workspace path rule ({@link WorkspacePath}, the same the
 * files family applies), then made relative to the worktree root, which is what git is given.
 */
final class GitPaths {
    private final WorkspacePath rule;
    private final Path realRoot;

    /**
     * @param folder the workspace folder (absolute)
     * @param root   the worktree root containing it (real path)
     */
    GitPaths(Path folder, Path root) {
        this.rule = new WorkspacePath(folder);
        this.realRoot = root;
    }

    /**
     * {@code raw} as a path relative to the worktree root ({@code .} for the root itself).
     *
     * @throws io.artuditu.uhp.api.UhpException {@code invalid_request} with {@code field},
     *     {@code reason} ({@code control_character}, {@code bad_percent_encoding},
     *     {@code invalid_path}, {@code escapes_workspace}, {@code symlink_escapes_workspace})
     *     and {@code path}
     */
    String relative(String field, String raw) {
        if (raw.isEmpty()) {
            throw WorkspacePath.refuse(field, "invalid_path", raw, field + " is empty");
        }
        Path abs = rule.resolve(field, raw).abs();
        if (!abs.startsWith(realRoot)) {
            throw WorkspacePath.refuse(field, "escapes_workspace", raw, field + " " + WorkspacePath.quoted(raw)
                    + " escapes workspace");
        }
        String rel = realRoot.relativize(abs).toString();
        return rel.isEmpty() ? "." : rel;
    }
}

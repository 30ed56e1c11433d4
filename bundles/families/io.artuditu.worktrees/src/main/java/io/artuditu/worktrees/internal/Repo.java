package io.artuditu.worktrees.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One repository as {@code git} sees it from a workspace folder: its common git dir (the
 * repository's identity, shared by all its worktrees), and its worktrees from
 * {@code git worktree list --porcelain -z}, the main checkout first. Everything here runs git
 * and so belongs on the family's worker.
 */
final class Repo {
    /** Most worktrees one answer lists. */
    static final int MAX_WORKTREES = 200;

    final GitRunner git;
    /** Canonical common git dir: {@code worktree_group} and the key of approvals. */
    final Path commonDir;
    final List<Worktree> worktrees;
    final boolean truncated;

    /** One entry of {@code git worktree list --porcelain}. */
    record Worktree(Path path, String head, String branch, boolean detached, boolean bare, boolean locked,
            boolean prunable, boolean main) {
        /** The short branch name (refs/heads/ removed), or null when detached. */
        String shortBranch() {
            return branch == null ? null : branch.startsWith("refs/heads/") ? branch.substring(11) : branch;
        }
    }

    private Repo(GitRunner git, Path commonDir, List<Worktree> worktrees, boolean truncated) {
        this.git = git;
        this.commonDir = commonDir;
        this.worktrees = worktrees;
        this.truncated = truncated;
    }

    /**
     * The repository containing {@code folder}.
     *
     * @throws UhpException {@code invalid_request} {@code field: workspace}, reason
     *     {@code no_folder}, {@code not_a_repository} or {@code bare_repository}
     */
    static Repo of(GitRunner git, Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw refusal("no_folder", "the workspace folder " + folder + " does not exist", folder);
        }
        GitRunner.Result r = git.run(folder, "rev-parse", "--path-format=absolute", "--git-common-dir",
                "--is-bare-repository", "--is-inside-work-tree");
        if (!r.ok()) {
            throw refusal("not_a_repository", "the workspace folder " + folder + " is not in a git repository", folder);
        }
        String[] lines = r.out().split("\n");
        if (lines.length < 3 || "true".equals(lines[1].trim()) || !"true".equals(lines[2].trim())) {
            throw refusal("bare_repository", "the workspace folder " + folder + " is a bare repository or inside a git dir",
                    folder);
        }
        Path common = Path.of(lines[0].trim()).toRealPath();
        return new Repo(git, common, List.of(), false).reload();
    }

    /** This repository with its worktrees read again. */
    Repo reload() throws IOException {
        GitRunner.Result r = git.run(commonDir, "worktree", "list", "--porcelain", "-z");
        if (!r.ok()) {
            throw new IOException("git worktree list failed: " + r.err().trim());
        }
        List<Worktree> out = new ArrayList<>();
        boolean cut = false;
        Map<String, String> rec = new LinkedHashMap<>();
        for (String field : r.out().split("\0", -1)) {
            if (field.isEmpty()) {
                if (rec.containsKey("worktree")) {
                    if (out.size() >= MAX_WORKTREES) {
                        cut = true;
                    } else {
                        out.add(worktree(rec, out.isEmpty()));
                    }
                }
                rec = new LinkedHashMap<>();
                continue;
            }
            int sp = field.indexOf(' ');
            rec.put(sp < 0 ? field : field.substring(0, sp), sp < 0 ? "" : field.substring(sp + 1));
        }
        return new Repo(git, commonDir, List.copyOf(out), cut);
    }

    private static Worktree worktree(Map<String, String> rec, boolean main) {
        Path p = Path.of(rec.get("worktree"));
        try {
            p = p.toRealPath();
        } catch (IOException gone) {
            p = p.toAbsolutePath().normalize(); // a prunable worktree: its folder is gone
        }
        return new Worktree(p, rec.get("HEAD"), rec.get("branch"), rec.containsKey("detached"), rec.containsKey("bare"),
                rec.containsKey("locked"), rec.containsKey("prunable"), main);
    }

    Worktree main() {
        return worktrees.get(0);
    }

    /** The worktree whose folder is {@code real} (canonical), or null. */
    Worktree at(Path real) {
        for (Worktree w : worktrees) {
            if (w.path().equals(real)) {
                return w;
            }
        }
        return null;
    }

    /** The worktree whose folder or branch is called {@code name}, or null. */
    Worktree named(String name) {
        for (Worktree w : worktrees) {
            if (name.equals(w.shortBranch())) {
                return w;
            }
        }
        for (Worktree w : worktrees) {
            if (w.path().getFileName() != null && name.equals(w.path().getFileName().toString())) {
                return w;
            }
        }
        return null;
    }

    /** The worktree a path lies in (itself or below), or null. */
    Worktree containing(Path real) {
        for (Worktree w : worktrees) {
            if (real.startsWith(w.path())) {
                return w;
            }
        }
        return null;
    }

    /** Whether {@code git rev-parse --verify} knows {@code ref} as a commit; its id or null. */
    String commit(String ref) throws IOException {
        GitRunner.Result r = git.run(commonDir, "rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}");
        return r.ok() ? r.out().trim() : null;
    }

    boolean localBranchExists(String branch) throws IOException {
        return git.run(commonDir, "show-ref", "--verify", "--quiet", "refs/heads/" + branch).ok();
    }

    /** Whether {@code git check-ref-format --branch} accepts the name. */
    boolean validBranchName(String branch) throws IOException {
        return git.run(commonDir, "check-ref-format", "--branch", branch).ok();
    }

    /** Whether {@code ancestor} is reachable from {@code tip}; null when git cannot say. */
    Boolean isAncestor(String ancestor, String tip) throws IOException {
        GitRunner.Result r = git.run(commonDir, "merge-base", "--is-ancestor", ancestor, tip);
        return r.status() == 0 ? Boolean.TRUE : r.status() == 1 ? Boolean.FALSE : null;
    }

    /**
     * Whether the branch's commits are all reachable from some other local branch or
     * remote-tracking ref: deleting it then loses no commit.
     */
    boolean mergedSomewhere(String branch) throws IOException {
        String tip = commit("refs/heads/" + branch);
        if (tip == null) {
            return true;
        }
        GitRunner.Result r = git.run(commonDir, "for-each-ref", "--contains", tip, "--format=%(refname)",
                "refs/heads", "refs/remotes");
        if (!r.ok()) {
            return false;
        }
        for (String ref : r.out().split("\n")) {
            String t = ref.trim();
            if (!t.isEmpty() && !t.equals("refs/heads/" + branch) && !t.endsWith("/HEAD")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the worktree has uncommitted changes (staged, unstaged or untracked). */
    boolean dirty(Worktree w) throws IOException {
        if (!Files.isDirectory(w.path())) {
            return false;
        }
        GitRunner.Result r = git.run(w.path(), "status", "--porcelain", "-z", "--untracked-files=normal");
        return !r.ok() || !r.out().isEmpty();
    }

    /** The current branch of the main checkout (short), or null when it is detached. */
    String mainBranch() {
        return main().shortBranch();
    }

    static UhpException refusal(String reason, String message, Path folder) {
        Map<String, Object> d = new LinkedHashMap<>(UhpException.invalid("workspace", reason, message).details());
        d.put("path", folder.toString());
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }
}

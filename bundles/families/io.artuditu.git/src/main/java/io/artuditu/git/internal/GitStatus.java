package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.BranchTrackingStatus;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryState;

/**
 * {@code git.status}: HEAD, its upstream and ahead/behind, the operation in progress and the
 * number of changed paths in each layer. Reads only; never writes the index (JGit's status does
 * not refresh it).
 */
final class GitStatus {
    /** Largest count reported; a count that reaches it stops there and sets {@code truncated}. */
    static final int MAX_COUNT = 100_000;

    private GitStatus() {
    }

    /** The spec's state word for JGit's repository state; {@code unknown} for anything it does not model. */
    static String state(RepositoryState s) {
        switch (s) {
            case SAFE:
                return "clean";
            case MERGING:
            case MERGING_RESOLVED:
                return "merge";
            case REBASING:
            case REBASING_REBASING:
            case REBASING_MERGE:
            case REBASING_INTERACTIVE:
                return "rebase";
            case CHERRY_PICKING:
            case CHERRY_PICKING_RESOLVED:
                return "cherry_pick";
            case REVERTING:
            case REVERTING_RESOLVED:
                return "revert";
            case BISECTING:
                return "bisect";
            default:
                // APPLY (git am) and anything a later JGit adds: in progress, not modelled, never clean
                return "unknown";
        }
    }

    /** Adds the status fields to {@code r}. */
    static void read(Repository repo, ObjectNode r) throws IOException, GitAPIException {
        head(repo, r);
        r.put("state", state(repo.getRepositoryState()));
        Status st = Git.wrap(repo).status().call();
        Set<String> conflicted = st.getConflicting();
        Set<String> staged = new HashSet<>(st.getAdded());
        staged.addAll(st.getChanged());
        staged.addAll(st.getRemoved());
        staged.removeAll(conflicted);
        Set<String> unstaged = new HashSet<>(st.getModified());
        unstaged.addAll(st.getMissing());
        unstaged.removeAll(conflicted);
        int[] counts = {staged.size(), unstaged.size(), st.getUntracked().size(), conflicted.size()};
        boolean dirty = false;
        boolean truncated = false;
        for (int i = 0; i < counts.length; i++) {
            dirty |= counts[i] > 0;
            if (counts[i] >= MAX_COUNT) {
                counts[i] = MAX_COUNT;
                truncated = true;
            }
        }
        r.put("dirty", dirty);
        ObjectNode c = r.putObject("counts");
        c.put("staged", counts[0]).put("unstaged", counts[1]).put("untracked", counts[2]).put("conflicted", counts[3]);
        r.put("truncated", truncated);
    }

    /** branch, head, detached, upstream, ahead, behind. */
    static void head(Repository repo, ObjectNode r) throws IOException {
        Ref head = repo.exactRef(Constants.HEAD);
        boolean detached = head != null && !head.isSymbolic();
        String branch = null;
        if (head != null && head.isSymbolic() && head.getTarget().getName().startsWith(Constants.R_HEADS)) {
            branch = Repository.shortenRefName(head.getTarget().getName());
        }
        r.put("branch", branch == null ? null : Repos.text(branch));
        r.put("head", head == null || head.getObjectId() == null ? null : head.getObjectId().name());
        r.put("detached", detached);
        BranchTrackingStatus t = branch == null ? null : BranchTrackingStatus.of(repo, branch);
        r.put("upstream", t == null ? null : Repos.text(Repository.shortenRefName(t.getRemoteTrackingBranch())));
        if (t == null) {
            r.putNull("ahead");
            r.putNull("behind");
        } else {
            r.put("ahead", t.getAheadCount()).put("behind", t.getBehindCount());
        }
    }
}

package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.errors.StopWalkException;
import org.eclipse.jgit.lib.BranchTrackingStatus;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.IndexDiff;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryState;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * {@code git.status}: HEAD, its upstream and ahead/behind, the operation in progress and the
 * number of changed paths in each layer. Reads only; never writes the index (JGit's index diff
 * does not refresh it). The walk stops after {@link #MAX_WALK_NANOS}.
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

    /** Longest a status walk runs; past it the counts so far are sent with {@code truncated}. */
    static final long MAX_WALK_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Adds the status fields to {@code r}. */
    static void read(Repository repo, ObjectNode r) throws IOException {
        read(repo, r, System.nanoTime() + MAX_WALK_NANOS);
    }

    /** Adds the status fields to {@code r}, walking the tree until {@code deadline} ({@link System#nanoTime}). */
    static void read(Repository repo, ObjectNode r, long deadline) throws IOException {
        head(repo, r);
        r.put("state", state(repo.getRepositoryState()));
        IndexDiff st = new IndexDiff(repo, Constants.HEAD, new FileTreeIterator(repo));
        Deadline stop = new Deadline(deadline);
        st.setFilter(stop);
        st.diff();
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
        boolean truncated = stop.passed;
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

    /**
     * Ends the status walk at a deadline: asked for every folder and changed entry the walk
     * reaches, it stops the walk (JGit then returns what it found) once the time has passed.
     */
    static final class Deadline extends TreeFilter {
        private final long deadline;
        volatile boolean passed;

        Deadline(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public boolean include(TreeWalk walker) {
            if (System.nanoTime() - deadline > 0) {
                passed = true;
                throw StopWalkException.INSTANCE;
            }
            return true;
        }

        @Override
        public boolean shouldBeRecursive() {
            return false;
        }

        @Override
        public TreeFilter clone() {
            return this;
        }
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

package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.lib.BranchTrackingStatus;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * {@code git.branches}: local branches (with upstream and ahead/behind) and remote-tracking
 * branches, each with its last commit, sorted by name, at most {@link #MAX_BRANCHES} of each.
 * A symbolic remote ref ({@code origin/HEAD}) is an alias of another and is left out.
 */
final class GitBranches {
    static final int MAX_BRANCHES = 500;

    private GitBranches() {
    }

    static void read(Repository repo, ObjectNode r) throws IOException {
        ObjectNode head = r.objectNode();
        GitStatus.head(repo, head);
        String current = head.path("branch").textValue();
        r.set("current", head.get("branch"));
        r.put("detached", head.path("detached").booleanValue());
        boolean truncated = false;
        try (RevWalk walk = new RevWalk(repo); ObjectReader reader = repo.newObjectReader()) {
            ArrayNode local = r.putArray("local");
            List<Ref> refs = sorted(repo.getRefDatabase().getRefsByPrefix(Constants.R_HEADS));
            truncated |= refs.size() > MAX_BRANCHES;
            for (Ref ref : refs.subList(0, Math.min(refs.size(), MAX_BRANCHES))) {
                String name = Repository.shortenRefName(ref.getName());
                ObjectNode row = local.addObject().put("name", Repos.text(name)).put("current", name.equals(current));
                BranchTrackingStatus t = BranchTrackingStatus.of(repo, name);
                if (t == null) {
                    row.putNull("upstream").putNull("ahead").putNull("behind");
                } else {
                    row.put("upstream", Repos.text(Repository.shortenRefName(t.getRemoteTrackingBranch())))
                            .put("ahead", t.getAheadCount()).put("behind", t.getBehindCount());
                }
                commit(walk, reader, ref, row);
            }
            ArrayNode remote = r.putArray("remote");
            List<Ref> remotes = sorted(repo.getRefDatabase().getRefsByPrefix(Constants.R_REMOTES).stream()
                    .filter(x -> !x.isSymbolic()).toList());
            truncated |= remotes.size() > MAX_BRANCHES;
            for (Ref ref : remotes.subList(0, Math.min(remotes.size(), MAX_BRANCHES))) {
                ObjectNode row = remote.addObject().put("name", Repos.text(Repository.shortenRefName(ref.getName())));
                commit(walk, reader, ref, row);
            }
        }
        r.put("truncated", truncated);
    }

    private static List<Ref> sorted(List<Ref> refs) {
        return refs.stream().sorted(Comparator.comparing(Ref::getName)).toList();
    }

    /** The branch's last commit: id, short_id, subject, time_ms (author time). */
    private static void commit(RevWalk walk, ObjectReader reader, Ref ref, ObjectNode row) throws IOException {
        ObjectNode c = row.putObject("commit");
        try {
            RevCommit commit = walk.parseCommit(ref.getObjectId());
            c.put("id", commit.name()).put("short_id", Repos.shortId(reader, commit))
                    .put("subject", Repos.text(commit.getShortMessage()))
                    .put("time_ms", commit.getAuthorIdent().getWhenAsInstant().toEpochMilli());
        } catch (MissingObjectException | IncorrectObjectTypeException e) {
            // a branch pointing at a missing or non-commit object: named, with what is known
            String id = ref.getObjectId() == null ? "" : ref.getObjectId().name();
            c.put("id", id).put("short_id", id.length() > 7 ? id.substring(0, 7) : id).put("subject", "").put("time_ms", 0);
        }
    }
}

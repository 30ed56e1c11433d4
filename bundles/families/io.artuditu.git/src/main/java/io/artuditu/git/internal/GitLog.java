package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import org.eclipse.jgit.errors.AmbiguousObjectException;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.errors.RevisionSyntaxException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * {@code git.log}: one page of the commits reachable from a ref, newest first (commit time,
 * as {@code git log} orders them). A page is {@code skip} commits passed over, then at most
 * {@code limit} commits; {@code next_skip} is where the next page starts.
 */
final class GitLog {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private GitLog() {
    }

    static void read(Repository repo, String ref, int skip, int limit, ObjectNode r) throws IOException {
        String asked = ref == null ? Constants.HEAD : ref;
        r.put("ref", Repos.text(asked));
        ArrayNode commits = r.putArray("commits");
        ObjectId start = resolve(repo, ref, asked);
        if (start == null) {
            // HEAD of a repository with no commit yet: an empty history, not an error
            r.putNull("next_skip");
            return;
        }
        try (RevWalk walk = new RevWalk(repo); ObjectReader reader = repo.newObjectReader()) {
            walk.markStart(walk.parseCommit(start));
            for (int i = 0; i < skip; i++) {
                if (walk.next() == null) {
                    r.putNull("next_skip");
                    return;
                }
            }
            int n = 0;
            RevCommit c;
            while (n < limit && (c = walk.next()) != null) {
                PersonIdent a = c.getAuthorIdent();
                ObjectNode row = commits.addObject().put("id", c.name()).put("short_id", Repos.shortId(reader, c))
                        .put("subject", Repos.text(c.getShortMessage()))
                        .put("author_name", Repos.text(a.getName())).put("author_email", Repos.text(a.getEmailAddress()))
                        .put("time_ms", a.getWhenAsInstant().toEpochMilli());
                ArrayNode parents = row.putArray("parents");
                for (RevCommit p : c.getParents()) {
                    parents.add(p.name());
                }
                n++;
            }
            // one more look tells whether a next page exists, so the last page says so itself
            if (n == limit && walk.next() != null) {
                r.put("next_skip", skip + n);
            } else {
                r.putNull("next_skip");
            }
        } catch (IncorrectObjectTypeException e) {
            throw UhpException.invalid("ref", "not_a_commit", "ref " + asked + " does not name a commit");
        }
    }

    /** The commit {@code ref} names; null for an unborn HEAD asked for by omission. */
    private static ObjectId resolve(Repository repo, String ref, String asked) throws IOException {
        ObjectId id;
        try {
            id = repo.resolve(asked);
        } catch (AmbiguousObjectException e) {
            throw UhpException.invalid("ref", "ambiguous", "ref " + asked + " matches more than one object");
        } catch (RevisionSyntaxException | IncorrectObjectTypeException e) {
            throw UhpException.invalid("ref", "malformed", "ref " + asked + " is not a revision");
        } catch (MissingObjectException e) {
            id = null;
        }
        if (id == null && ref != null) {
            throw UhpException.notFound("ref", ref, "ref", "no such ref: " + Repos.text(ref));
        }
        return id;
    }
}

package io.artuditu.diff.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;

/**
 * What a diff is taken against. {@code index}: the spec's layers (staged = HEAD..index,
 * worktree = index..working tree). {@code branch}: the merge base of HEAD and that branch
 * ..working tree. {@code ref}: any commit-ish (a checkpoint ref, a commit id)..working tree.
 * A spec is what the request said; {@link #resolve} finds its commit for one scan or read.
 */
record Base(String kind, String ref) {
    static final Base INDEX = new Base("index", null);
    /** Longest branch or ref text a request may give (the contract says the same). */
    static final int MAX_REF = 256;

    boolean index() {
        return kind.equals("index");
    }

    String key() {
        return index() ? "index" : kind + ":" + ref;
    }

    /**
     * The request's {@code base}: absent = the workspace's {@code worktree_base} metadata when
     * it names a branch, else the index.
     */
    static Base of(JsonNode param, Map<String, Object> metadata) {
        if (param == null || param.isNull()) {
            Object wb = metadata == null ? null : metadata.get("worktree_base");
            if (wb instanceof String s && !s.isBlank()) {
                return new Base("branch", s);
            }
            return INDEX;
        }
        int given = (param.has("branch") ? 1 : 0) + (param.has("ref") ? 1 : 0) + (param.has("index") ? 1 : 0);
        if (given != 1) {
            throw Text.refuse("base", "bad_base", null, "base names exactly one of branch, ref or index");
        }
        if (param.has("index")) {
            return INDEX;
        }
        String kind = param.has("branch") ? "branch" : "ref";
        String v = param.get(kind).asText();
        for (int i = 0; i < v.length(); i++) {
            if (Text.control(v.charAt(i)) || v.charAt(i) == ' ') {
                throw Text.refuse("base", "bad_ref", null, "base." + kind + " holds a space or a control character");
            }
        }
        if (v.isEmpty() || v.startsWith("-") || v.contains("..") || v.contains(":")) {
            throw Text.refuse("base", "bad_ref", null, "base." + kind + " must be a branch name or a commit-ish, not a"
                    + " range, a path or an option");
        }
        return new Base(kind, v);
    }

    /** The commit the diff's old side is taken from; null for the index base. */
    ObjectId commit(Repository repo) throws IOException {
        if (index()) {
            return null;
        }
        try (RevWalk walk = new RevWalk(repo)) {
            if (kind.equals("ref")) {
                ObjectId id = repo.resolve(ref + "^{commit}");
                if (id == null) {
                    throw Text.refuse("base", "unknown_base", null, "base.ref " + Text.name(ref) + " names no commit");
                }
                return id;
            }
            Ref b = repo.exactRef(Constants.R_HEADS + ref);
            if (b == null) {
                b = repo.findRef(ref);
            }
            if (b == null || b.getObjectId() == null) {
                throw Text.refuse("base", "unknown_base", null, "base.branch " + Text.name(ref) + " is no branch here");
            }
            ObjectId head = repo.resolve(Constants.HEAD + "^{commit}");
            if (head == null) {
                return walk.parseCommit(b.getObjectId()).getId();
            }
            walk.setRevFilter(RevFilter.MERGE_BASE);
            walk.markStart(walk.parseCommit(head));
            walk.markStart(walk.parseCommit(b.getObjectId()));
            RevCommit mb = walk.next();
            if (mb == null) {
                throw Text.refuse("base", "no_merge_base", null, "HEAD and " + Text.name(ref) + " share no history");
            }
            return mb.getId();
        } catch (org.eclipse.jgit.errors.RevisionSyntaxException | org.eclipse.jgit.errors.AmbiguousObjectException e) {
            throw Text.refuse("base", "unknown_base", null, "base." + kind + " " + Text.name(ref) + " cannot be resolved: "
                    + e.getMessage());
        }
    }

    /** The {@code base} object of a result. */
    void into(ObjectNode o, ObjectId commit) {
        ObjectNode b = o.putObject("base").put("kind", kind);
        b.put("ref", ref == null ? null : Text.name(ref));
        b.put("commit", commit == null ? null : commit.name());
    }
}

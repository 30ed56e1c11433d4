package io.artuditu.diff.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.IndexDiff;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.FileTreeIterator;

/**
 * One status scan: JGit's index diff of HEAD (or the base commit), the index and the working
 * tree, as rows by layer. Reads only (the index is never written). For a file whose sides are
 * both at most {@link #COUNT_MAX_BYTES} the scan diffs it to fill the counts and a content
 * fingerprint; bigger files get null counts and a fingerprint of size and modification time.
 * At most {@link #MAX_FILES} rows; more set {@code truncated}.
 */
final class Scan {
    static final int MAX_FILES = 20_000;
    /** Largest side the scan reads to count lines. */
    static final int COUNT_MAX_BYTES = 256 * 1024;
    /** Most files the scan counts; the rest have null counts until a diff.get. */
    static final int MAX_COUNTED = 2_000;

    record Row(String path, String rawPath, String layer, String status, Integer additions, Integer deletions,
            boolean binary, String fingerprint) {
        String key() {
            return layer + "\u0000" + path;
        }
    }

    record Snapshot(long generation, Base base, ObjectId commit, List<Row> rows, boolean truncated, long scannedAtMillis,
            long scanNanos) {
        /** The rows of {@code path} (its escaped name), one per layer it is in. */
        List<Row> rowsOf(String path) {
            List<Row> out = new ArrayList<>(2);
            for (Row r : rows) {
                if (r.path().equals(path)) {
                    out.add(r);
                }
            }
            return out;
        }

        /** Whether the files and their fingerprints equal another scan's. */
        boolean same(Snapshot o) {
            if (o == null || rows.size() != o.rows.size() || truncated != o.truncated
                    || !java.util.Objects.equals(commit, o.commit)) {
                return false;
            }
            for (int i = 0; i < rows.size(); i++) {
                Row a = rows.get(i);
                Row b = o.rows.get(i);
                if (!a.key().equals(b.key()) || !a.fingerprint().equals(b.fingerprint())) {
                    return false;
                }
            }
            return true;
        }
    }

    private Scan() {
    }

    static Snapshot scan(Repository repo, Base base, long generation) throws IOException {
        long t0 = System.nanoTime();
        ObjectId commit = base.commit(repo);
        IndexDiff d;
        if (base.index()) {
            d = new IndexDiff(repo, Constants.HEAD, new FileTreeIterator(repo));
        } else {
            ObjectId tree;
            try (RevWalk w = new RevWalk(repo)) {
                tree = w.parseCommit(commit).getTree().getId();
            }
            d = new IndexDiff(repo, tree, new FileTreeIterator(repo));
        }
        d.diff();
        DirCache dc = base.index() ? repo.readDirCache() : null;
        Set<String> conflict = new TreeSet<>(d.getConflicting());
        List<Row> rows = new ArrayList<>();
        int[] counted = {0};
        if (base.index()) {
            Set<String> staged = new TreeSet<>(d.getAdded());
            staged.addAll(d.getChanged());
            staged.addAll(d.getRemoved());
            staged.removeAll(conflict);
            for (String p : staged) {
                String st = d.getAdded().contains(p) ? "added" : d.getRemoved().contains(p) ? "deleted" : "modified";
                rows.add(row(repo, dc, base, commit, p, "staged", st, counted));
            }
            Set<String> work = new TreeSet<>(d.getModified());
            work.addAll(d.getMissing());
            work.removeAll(conflict);
            for (String p : work) {
                rows.add(row(repo, dc, base, commit, p, "worktree", d.getMissing().contains(p) ? "deleted" : "modified", counted));
            }
            for (String p : new TreeSet<>(d.getUntracked())) {
                rows.add(row(repo, dc, base, commit, p, "untracked", "untracked", counted));
            }
            for (String p : conflict) {
                Row r = row(repo, dc, base, commit, p, "conflict", "unmerged", counted);
                rows.add(new Row(r.path(), p, "conflict", "unmerged", null, null, r.binary(), r.fingerprint()));
            }
        } else {
            Set<String> all = new TreeSet<>(d.getAdded());
            all.addAll(d.getChanged());
            all.addAll(d.getRemoved());
            all.addAll(d.getModified());
            all.addAll(d.getMissing());
            all.addAll(d.getUntracked());
            all.addAll(conflict);
            for (String p : all) {
                Row r = baseRow(repo, base, commit, p, counted);
                if (r != null) {
                    rows.add(r);
                }
            }
        }
        rows.sort((a, b) -> {
            int c = a.path().compareTo(b.path());
            return c != 0 ? c : order(a.layer()) - order(b.layer());
        });
        boolean truncated = rows.size() > MAX_FILES;
        if (truncated) {
            rows = new ArrayList<>(rows.subList(0, MAX_FILES));
        }
        return new Snapshot(generation, base, commit, List.copyOf(rows), truncated, System.currentTimeMillis(),
                System.nanoTime() - t0);
    }

    private static int order(String layer) {
        switch (layer) {
            case "staged":
                return 0;
            case "worktree":
                return 1;
            case "untracked":
                return 2;
            default:
                return 3;
        }
    }

    private static Row row(Repository repo, DirCache dc, Base base, ObjectId commit, String p, String layer, String status,
            int[] counted) throws IOException {
        int cap = counted[0] < MAX_COUNTED ? COUNT_MAX_BYTES : 0;
        Sides.Content[] s = Sides.read(repo, dc, layer, base, commit, p, cap);
        return counted(p, layer, status, s, counted);
    }

    /** A file against a commit base: both sides from the commit and the working tree; null when they are equal. */
    private static Row baseRow(Repository repo, Base base, ObjectId commit, String p, int[] counted) throws IOException {
        int cap = counted[0] < MAX_COUNTED ? COUNT_MAX_BYTES : 0;
        Sides.Content[] s = Sides.read(repo, "worktree", base, commit, p, cap);
        if (!s[0].exists() && !s[1].exists()) {
            return null;
        }
        if (s[0].bytes() != null && s[1].bytes() != null && java.util.Arrays.equals(s[0].bytes(), s[1].bytes())) {
            return null;
        }
        String status = !s[0].exists() ? "added" : !s[1].exists() ? "deleted" : "modified";
        return counted(p, "worktree", status, s, counted);
    }

    private static Row counted(String p, String layer, String status, Sides.Content[] s, int[] counted) throws IOException {
        Integer adds = null;
        Integer dels = null;
        boolean binary = FileDiff.binary(s[0].bytes()) || FileDiff.binary(s[1].bytes());
        if (!s[0].tooBig() && !s[1].tooBig() && !binary) {
            FileDiff.Result r = FileDiff.compute(s[0], s[1]);
            adds = r.additions();
            dels = r.deletions();
            counted[0]++;
        }
        return new Row(Text.name(p), p, layer, status, adds, dels, binary,
                fingerprint(layer, p, sideId(s[0]) + "/" + sideId(s[1])));
    }

    /** A side's identity: its blob id, else a digest of its bytes, else its size (a too-big working file). */
    static String sideId(Sides.Content c) {
        if (!c.exists()) {
            return "-";
        }
        if (c.id() != null) {
            return c.id();
        }
        if (c.bytes() != null) {
            return digest(c.bytes());
        }
        return "size:" + c.size();
    }

    static String fingerprint(String layer, String path, String sides) {
        return digest((layer + "\u0000" + path + "\u0000" + sides).getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    }

    static String digest(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Paths of a snapshot's rows, for tests. */
    static Set<String> paths(Snapshot s) {
        Set<String> out = new HashSet<>();
        s.rows().forEach(r -> out.add(r.path()));
        return out;
    }
}

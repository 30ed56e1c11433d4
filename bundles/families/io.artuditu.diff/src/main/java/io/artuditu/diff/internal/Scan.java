package io.artuditu.diff.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.lib.IndexDiff;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.FileTreeIterator;

/**
 * One status scan, in two passes. The status pass lists the changed files by layer: against
 * the index from {@code git status} ({@link GitStatus}), against a commit from JGit's index
 * diff. Reads only (the index is never written). The counts pass ({@link #count}) then diffs
 * files whose sides are both at most {@link #COUNT_MAX_BYTES} to fill the counts; bigger
 * files keep null counts. A row's fingerprint is a digest of its layer, path and both sides'
 * identities: blob ids for the commit and index sides, the working file's size, time and
 * inode ({@link Sides#stat}) for the working side. At most {@link #MAX_FILES} rows; more set
 * {@code truncated}.
 */
final class Scan {
    static final int MAX_FILES = 20_000;
    /** Largest side the scan reads to count lines. */
    static final int COUNT_MAX_BYTES = 256 * 1024;
    /** Most files the scan counts; the rest have null counts until a diff.get. */
    static final int MAX_COUNTED = 2_000;

    /**
     * One changed file in one layer. {@code rawOldPath}: the path it was renamed or copied from
     * (null otherwise). {@code counted}: the counts pass has looked at it (its counts may still be
     * null: too big, binary, a conflict, or past {@link #MAX_COUNTED}).
     */
    record Row(String path, String rawPath, String rawOldPath, String layer, String status, Integer additions,
            Integer deletions, boolean binary, String fingerprint, boolean counted) {
        String key() {
            return layer + "\u0000" + path;
        }

        /** The escaped old path, or null. */
        String oldPath() {
            return rawOldPath == null ? null : Text.name(rawOldPath);
        }

        Row withCounts(Integer adds, Integer dels, boolean bin) {
            return new Row(path, rawPath, rawOldPath, layer, status, adds, dels, bin, fingerprint, true);
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

    /**
     * The status pass. Against the index: {@code git status} (see {@link GitStatus}), no file
     * read, rows without counts except those carried over from {@code before} where the file's
     * fingerprint did not change; {@link #count} fills the rest. Against a commit: JGit's index
     * diff with the counts filled here, as the sides must be read to drop unchanged files.
     */
    static Snapshot scan(Repository repo, Base base, Snapshot before) throws IOException {
        if (base.index()) {
            return status(repo.getWorkTree().toPath(), base, before);
        }
        return commitScan(repo, base);
    }

    /** The status pass against the index: {@code git status} in the working tree {@code top}; JGit is not opened. */
    static Snapshot status(Path top, Base base, Snapshot before) throws IOException {
        long t0 = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        boolean cut;
        {
            GitStatus.Result st = GitStatus.run(top);
            cut = st.truncated();
            for (GitStatus.Entry en : st.entries()) {
                String p = en.path();
                switch (en.kind()) {
                    case '1':
                    case '2':
                        if (en.x() != '.') {
                            rows.add(statusRow(p, en.kind() == '2' ? en.origPath() : null, "staged", GitStatus.status(en.x()),
                                    side(en.id(0)), side(en.id(1))));
                        }
                        if (en.y() != '.') {
                            rows.add(statusRow(p, null, "worktree", GitStatus.status(en.y()), side(en.id(1)),
                                    en.y() == 'D' ? "-" : side(Sides.stat(top.resolve(p)))));
                        }
                        break;
                    case 'u':
                        rows.add(statusRow(p, null, "conflict", "unmerged", side(en.id(1)), side(Sides.stat(top.resolve(p)))));
                        break;
                    default:
                        rows.add(statusRow(p, null, "untracked", "untracked", "-", side(Sides.stat(top.resolve(p)))));
                        break;
                }
            }
            if (before != null) {
                java.util.Map<String, Row> old = new java.util.HashMap<>();
                before.rows().forEach(r -> old.put(r.key(), r));
                for (int i = 0; i < rows.size(); i++) {
                    Row r = rows.get(i);
                    Row o = old.get(r.key());
                    if (o != null && o.counted() && o.fingerprint().equals(r.fingerprint())) {
                        rows.set(i, r.withCounts(o.additions(), o.deletions(), o.binary()));
                    }
                }
            }
        }
        return finish(base, null, rows, cut, t0);
    }

    /** Against a commit: JGit's index diff, counts filled here. */
    private static Snapshot commitScan(Repository repo, Base base) throws IOException {
        long t0 = System.nanoTime();
        ObjectId commit = base.commit(repo);
        List<Row> rows = new ArrayList<>();
        {
            ObjectId tree;
            try (RevWalk w = new RevWalk(repo)) {
                tree = w.parseCommit(commit).getTree().getId();
            }
            IndexDiff d = new IndexDiff(repo, tree, new FileTreeIterator(repo));
            d.diff();
            Set<String> all = new TreeSet<>(d.getAdded());
            all.addAll(d.getChanged());
            all.addAll(d.getRemoved());
            all.addAll(d.getModified());
            all.addAll(d.getMissing());
            all.addAll(d.getUntracked());
            all.addAll(d.getConflicting());
            int[] counted = {0};
            for (String p : all) {
                Row r = baseRow(repo, base, commit, p, counted);
                if (r != null) {
                    rows.add(r);
                }
            }
        }
        return finish(base, commit, rows, false, t0);
    }

    /** Sorts (path, then layer) and caps the rows into a snapshot (its generation set by the caller). */
    private static Snapshot finish(Base base, ObjectId commit, List<Row> rows, boolean cut, long t0) {
        rows.sort((a, b) -> {
            int c = a.path().compareTo(b.path());
            return c != 0 ? c : order(a.layer()) - order(b.layer());
        });
        boolean truncated = cut || rows.size() > MAX_FILES;
        if (rows.size() > MAX_FILES) {
            rows = new ArrayList<>(rows.subList(0, MAX_FILES));
        }
        return new Snapshot(0, base, commit, List.copyOf(rows), truncated, System.currentTimeMillis(),
                System.nanoTime() - t0);
    }

    private static String side(String id) {
        return id == null ? "-" : id;
    }

    private static Row statusRow(String p, String old, String layer, String status, String oldSide, String newSide) {
        return new Row(Text.name(p), p, old, layer, status, null, null, false,
                fingerprint(layer, p, oldSide + "/" + newSide), false);
    }

    /**
     * The counts pass: reads and diffs the rows not yet counted, at most {@link #MAX_COUNTED}
     * counted rows in all and sides of at most {@link #COUNT_MAX_BYTES}. Returns the snapshot
     * with those rows filled (and marked counted), or {@code s} itself when nothing was left.
     */
    static Snapshot count(Repository repo, Snapshot s) throws IOException {
        if (s.rows().stream().allMatch(Row::counted)) {
            return s;
        }
        DirCache dc = s.base().index() ? repo.readDirCache() : null;
        int[] counted = {(int) s.rows().stream().filter(r -> r.counted() && r.additions() != null).count()};
        List<Row> rows = new ArrayList<>(s.rows().size());
        for (Row r : s.rows()) {
            if (r.counted()) {
                rows.add(r);
                continue;
            }
            int cap = counted[0] < MAX_COUNTED ? COUNT_MAX_BYTES : 0;
            Sides.Content[] sd = Sides.read(repo, dc, r.layer(), s.base(), s.commit(), r.rawPath(), r.rawOldPath(), cap);
            Row c = counted(r.rawPath(), r.layer(), r.status(), sd, counted);
            rows.add(r.layer().equals("conflict") ? r.withCounts(null, null, c.binary())
                    : r.withCounts(c.additions(), c.deletions(), c.binary()));
        }
        return new Snapshot(s.generation(), s.base(), s.commit(), List.copyOf(rows), s.truncated(), s.scannedAtMillis(),
                s.scanNanos());
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
        return new Row(Text.name(p), p, null, layer, status, adds, dels, binary,
                fingerprint(layer, p, sideId(s[0]) + "/" + sideId(s[1])), true);
    }

    /** A side's identity: its blob id or the working file's stat ({@link Sides#stat}), else a digest of its bytes. */
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

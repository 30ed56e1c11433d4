package io.artuditu.diff.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The two sides of one file's diff, read bounded: a blob from a commit or the index, or the
 * file in the working tree (a symbolic link is its target text, as Git stores it; it is never
 * followed). At most {@link #MAX_SIDE_BYTES} of a side are read; a bigger side is reported
 * {@code tooBig} with its size and no content.
 */
final class Sides {
    /** Largest side loaded for a diff: 4 MiB, the raw patch limit. */
    static final int MAX_SIDE_BYTES = 4 * 1024 * 1024;

    private Sides() {
    }

    /** One side: absent (the file is not there), too big (size known, bytes null), or its bytes. */
    record Content(boolean exists, long size, byte[] bytes, String id) {
        static final Content ABSENT = new Content(false, 0, null, null);

        boolean tooBig() {
            return exists && bytes == null;
        }
    }

    /** The old and new side of {@code path} in {@code layer} against {@code base} (its commit given). */
    static Content[] read(Repository repo, String layer, Base base, ObjectId baseCommit, String path, int cap)
            throws IOException {
        return read(repo, null, layer, base, baseCommit, path, null, cap);
    }

    /**
     * As above, with the index already read ({@code dc}; null: read it here) and the old side
     * read at {@code oldPath} when the file was renamed or copied (null: at {@code path}).
     */
    static Content[] read(Repository repo, DirCache dc, String layer, Base base, ObjectId baseCommit, String path,
            String oldPath, int cap) throws IOException {
        DirCache index = dc != null || !base.index() || layer.equals("untracked") ? dc : repo.readDirCache();
        return new Content[] {side(repo, index, layer, base, baseCommit, oldPath != null ? oldPath : path, true, cap),
            side(repo, index, layer, base, baseCommit, path, false, cap)};
    }

    static Content side(Repository repo, String layer, Base base, ObjectId baseCommit, String path, boolean old, int cap)
            throws IOException {
        return side(repo, null, layer, base, baseCommit, path, old, cap);
    }

    static Content side(Repository repo, DirCache dc, String layer, Base base, ObjectId baseCommit, String path, boolean old,
            int cap) throws IOException {
        if (!base.index()) {
            return old ? commit(repo, baseCommit, path, cap) : work(repo, path, cap);
        }
        switch (layer) {
            case "staged":
                return old ? commit(repo, repo.resolve(Constants.HEAD + "^{commit}"), path, cap)
                        : index(repo, dc, path, 0, cap);
            case "worktree":
                return old ? index(repo, dc, path, 0, cap) : work(repo, path, cap);
            case "untracked":
                return old ? Content.ABSENT : work(repo, path, cap);
            default: // conflict: ours (stage 2) against the working tree with its markers
                return old ? index(repo, dc, path, 2, cap) : work(repo, path, cap);
        }
    }

    static Content commit(Repository repo, ObjectId commit, String path, int cap) throws IOException {
        if (commit == null) {
            return Content.ABSENT;
        }
        try (RevWalk w = new RevWalk(repo); TreeWalk tw = TreeWalk.forPath(repo, path, w.parseCommit(commit).getTree())) {
            if (tw == null || tw.getFileMode(0).getObjectType() != Constants.OBJ_BLOB) {
                return Content.ABSENT;
            }
            return blob(repo, tw.getObjectId(0), cap);
        }
    }

    static Content index(Repository repo, DirCache given, String path, int stage, int cap) throws IOException {
        DirCache dc = given != null ? given : repo.readDirCache();
        int i = dc.findEntry(path);
        if (i < 0) {
            return Content.ABSENT;
        }
        for (; i < dc.getEntryCount(); i++) {
            DirCacheEntry e = dc.getEntry(i);
            if (!e.getPathString().equals(path)) {
                break;
            }
            if (e.getStage() == stage || (stage == 0 && e.getStage() != 0)) {
                if (e.getFileMode() == FileMode.GITLINK) {
                    return gitlink(e.getObjectId());
                }
                return blob(repo, e.getObjectId(), cap);
            }
        }
        return Content.ABSENT;
    }

    static Content blob(Repository repo, ObjectId id, int cap) throws IOException {
        try (ObjectReader r = repo.newObjectReader()) {
            ObjectLoader l = r.open(id, Constants.OBJ_BLOB);
            long size = l.getSize();
            if (size > cap) {
                return new Content(true, size, null, id.name());
            }
            return new Content(true, size, l.getCachedBytes(cap), id.name());
        }
    }

    private static Content gitlink(ObjectId id) {
        byte[] b = ("Subproject commit " + id.name() + "\n").getBytes(StandardCharsets.UTF_8);
        return new Content(true, b.length, b, id.name());
    }

    /**
     * A working file's identity without reading it: its size, modification time (ns) and inode,
     * not following a link; null when it is absent or not a file or link (a folder, a submodule).
     */
    static String stat(Path f) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException gone) {
            return null;
        }
        return stat(a);
    }

    private static String stat(BasicFileAttributes a) {
        if (!a.isSymbolicLink() && !a.isRegularFile()) {
            return null;
        }
        return "stat:" + a.size() + ":" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS) + ":" + a.fileKey();
    }

    /** The working-tree file, never following a link; a folder (a submodule) reads as absent. Its id is its {@link #stat}. */
    static Content work(Repository repo, String path, int cap) throws IOException {
        Path f = repo.getWorkTree().toPath().resolve(path);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException gone) {
            return Content.ABSENT;
        }
        String stat = stat(a);
        if (stat == null) {
            return Content.ABSENT;
        }
        if (a.isSymbolicLink()) {
            byte[] b = Files.readSymbolicLink(f).toString().getBytes(StandardCharsets.UTF_8);
            return new Content(true, b.length, b, stat);
        }
        if (a.size() > cap) {
            return new Content(true, a.size(), null, stat);
        }
        try (InputStream in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
            byte[] b = in.readNBytes(cap + 1);
            if (b.length > cap) {
                return new Content(true, Math.max(a.size(), b.length), null, stat);
            }
            return new Content(true, b.length, b, stat);
        } catch (IOException gone) {
            return Content.ABSENT;
        }
    }
}

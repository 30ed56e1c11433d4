package io.artuditu.checkpoints.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The snapshot engine: checkpoints of a worktree kept as commits under the hidden refs
 * {@code refs/artuditu/checkpoints/<pane>/<seq>}, made and read with the real git binary.
 *
 * <p>A snapshot never touches HEAD, the index or the working tree: the worktree's files go
 * through a temporary index (a copy of the real one, so git's stat cache spares rehashing
 * unchanged files) with {@code git add -A} (tracked and untracked, never ignored),
 * {@code git write-tree}, {@code git commit-tree -p HEAD} and a create-only
 * {@code git update-ref}. Not thread safe: the family calls it from its one worker.
 */
final class Checkpoints {
    static final String NAMESPACE = "refs/artuditu/checkpoints/";
    /** A checkpoint id: the full ref name, or its last two parts ({@code <pane>/<seq>}). */
    static final Pattern ID = Pattern.compile("(?:refs/artuditu/checkpoints/)?([0-9A-Za-z_-]{1,64})/([0-9]{1,9})");
    /** A pane id as it may appear in a ref name. */
    static final Pattern PANE = Pattern.compile("[0-9A-Za-z_-]{1,64}");
    /** Most checkpoint refs read from one repository for one answer. */
    static final int MAX_REFS = 2000;
    /** Most paths one diff or restore result lists (the counts are always whole). */
    static final int MAX_FILES = 1000;
    /** Most paths a refusal lists as changed since the newest checkpoint. */
    static final int MAX_REFUSAL_PATHS = 50;
    /** Longest agent name written into a commit message. */
    static final int MAX_AGENT = 64;
    private static final String GITLINK = "160000";
    /** The identity of checkpoint commits: fixed, so no user configuration is needed and none is implied. */
    private static final Map<String, String> IDENTITY = Map.of("GIT_AUTHOR_NAME", "Artuditu checkpoint",
            "GIT_AUTHOR_EMAIL", "checkpoints@artuditu.invalid", "GIT_COMMITTER_NAME", "Artuditu checkpoint",
            "GIT_COMMITTER_EMAIL", "checkpoints@artuditu.invalid");

    private final GitProcess git;
    private final Path scratch;
    private long temps;

    Checkpoints(Path scratch) {
        this.scratch = scratch;
        this.git = new GitProcess(scratch);
    }

    /** A worktree: its top folder, its git dir (absolute), and its HEAD commit (null when unborn). */
    record Repo(Path top, Path gitDir, String head) {
    }

    /** One checkpoint as its ref and commit tell it. */
    record Entry(String ref, String pane, long seq, String commit, String tree, String parent, String agent,
            String transition, String createdAt, int filesChanged, String worktree) {
        String shortId() {
            return pane + "/" + seq;
        }
    }

    /** One changed path between two trees ({@code status}: git's A, M, D, T letter). */
    record Change(char status, String path, String oldMode, String newMode) {
    }

    /**
     * The worktree containing {@code folder}.
     *
     * @throws UhpException {@code invalid_request} reason {@code no_folder}, {@code not_a_repository}
     *     or {@code bare_repository}
     */
    Repo repo(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw refusal("no_folder", "the folder " + folder + " does not exist", folder);
        }
        GitProcess.Result r = git.run(folder, Map.of(), null, "rev-parse", "--is-bare-repository", "--is-inside-work-tree");
        if (!r.ok()) {
            throw refusal("not_a_repository", "the folder " + folder + " is not in a git repository", folder);
        }
        String[] lines = r.text().split("\n");
        if (lines.length < 2 || "true".equals(lines[0].strip()) || !"true".equals(lines[1].strip())) {
            throw refusal("bare_repository", "the folder " + folder + " is not in a git working tree", folder);
        }
        String[] where = git.check(folder, Map.of(), null, "rev-parse", "--show-toplevel", "--absolute-git-dir")
                .text().split("\n");
        Path top = Path.of(where[0].strip());
        Path gitDir = Path.of(where[1].strip());
        GitProcess.Result head = git.run(top, Map.of(), null, "rev-parse", "--verify", "-q", "HEAD^{commit}");
        return new Repo(top, gitDir, head.ok() ? head.text() : null);
    }

    static UhpException refusal(String reason, String message, Path folder) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", "workspace");
        d.put("reason", reason);
        d.put("path", folder.toString());
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }

    // ------------------------------------------------------------------ reading

    /**
     * The checkpoints of {@code pane} (every pane when null) taken in this worktree, each pane's
     * newest first, panes by id. The refs are shared by a repository's linked worktrees; each
     * checkpoint names the worktree it was taken in, and only this one's are answered.
     */
    List<Entry> entries(Repo r, String pane) throws IOException {
        String here = clean(r.top().toString(), Integer.MAX_VALUE);
        return allEntries(r, pane).stream().filter(e -> e.worktree() == null || e.worktree().equals(here)).toList();
    }

    /** {@link #entries} of every worktree of the repository. */
    List<Entry> allEntries(Repo r, String pane) throws IOException {
        String pattern = pane == null ? NAMESPACE : NAMESPACE + pane + "/";
        GitProcess.Result out = git.check(r.top(), Map.of(), null, "for-each-ref", "--count=" + MAX_REFS,
                "--sort=-committerdate",
                "--format=%(refname)%00%(objectname)%00%(tree)%00%(parent)%00%(contents)%00", pattern);
        List<Entry> list = new ArrayList<>();
        String[] f = new String(out.out(), StandardCharsets.UTF_8).split("\0", -1);
        for (int i = 0; i + 4 < f.length; i += 5) {
            String ref = f[i].strip();
            Matcher m = ID.matcher(ref);
            if (!ref.startsWith(NAMESPACE) || !m.matches() || f[i + 2].isEmpty()) {
                continue; // not one of ours (a tag or a hand-made ref in the namespace)
            }
            Map<String, String> t = trailers(f[i + 4]);
            String parent = f[i + 3].isBlank() ? null : f[i + 3].strip().split(" ")[0];
            int files = -1;
            try {
                files = Integer.parseInt(t.getOrDefault("Files-Changed", "-1"));
            } catch (NumberFormatException e) {
                // stays unknown
            }
            list.add(new Entry(ref, m.group(1), Long.parseLong(m.group(2)), f[i + 1].strip(), f[i + 2].strip(), parent,
                    t.get("Agent"), t.get("Transition"), t.get("Time"), files, t.get("Worktree")));
        }
        list.sort(Comparator.comparing(Entry::pane).thenComparing(Comparator.comparingLong(Entry::seq).reversed()));
        return list;
    }

    /** The checkpoint {@code id} names, or empty. */
    Optional<Entry> find(Repo r, String id) throws IOException {
        Matcher m = ID.matcher(id);
        if (!m.matches()) {
            return Optional.empty();
        }
        long seq = Long.parseLong(m.group(2));
        return entries(r, m.group(1)).stream().filter(e -> e.seq() == seq).findFirst();
    }

    private static Map<String, String> trailers(String message) {
        Map<String, String> t = new LinkedHashMap<>();
        for (String line : message.split("\n")) {
            if (line.startsWith("Artuditu-Checkpoint-")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    t.put(line.substring("Artuditu-Checkpoint-".length(), colon), line.substring(colon + 1).strip());
                }
            }
        }
        return t;
    }

    /**
     * The tree the worktree holds now (tracked and untracked files, not ignored ones), written
     * to the object store through a temporary index; HEAD, the index and the files are not touched.
     */
    String worktreeTree(Repo r) throws IOException {
        Path index = scratch.resolve("index-" + (++temps));
        Map<String, String> env = Map.of("GIT_INDEX_FILE", index.toString());
        try {
            Path real = r.gitDir().resolve("index");
            boolean copied = false;
            try {
                Files.copy(real, index);
                copied = true;
            } catch (NoSuchFileException e) {
                // a repository with no index yet: start empty
            }
            GitProcess.Result add = git.run(r.top(), env, null, "add", "-A");
            if (!add.ok() && copied) {
                // the copied index could not be used here (a split index names files beside
                // the real one): start from HEAD's tree instead, and hash every file
                Files.deleteIfExists(index);
                if (r.head() != null) {
                    git.check(r.top(), env, null, "read-tree", r.head());
                }
                add = git.run(r.top(), env, null, "add", "-A");
            }
            if (!add.ok()) {
                throw new GitProcess.Failed("git add failed (exit " + add.exit() + "): " + add.err(), add.exit());
            }
            return git.check(r.top(), env, null, "write-tree").text();
        } finally {
            Files.deleteIfExists(index);
            Files.deleteIfExists(scratch.resolve(index.getFileName() + ".lock"));
        }
    }

    /** The paths that differ between two trees (or commits), renames not detected, submodules as entries. */
    List<Change> diff(Repo r, String from, String to) throws IOException {
        GitProcess.Result out = git.check(r.top(), Map.of(), null, "diff-tree", "-r", "-z", "--no-renames",
                "--no-commit-id", from, to);
        List<Change> list = new ArrayList<>();
        String[] f = new String(out.out(), StandardCharsets.UTF_8).split("\0", -1);
        for (int i = 0; i + 1 < f.length; i += 2) {
            String head = f[i].strip();
            if (!head.startsWith(":")) {
                break;
            }
            String[] parts = head.substring(1).split(" ");
            if (parts.length < 5) {
                break;
            }
            list.add(new Change(parts[4].charAt(0), f[i + 1], parts[0], parts[1]));
        }
        return list;
    }

    /** The empty tree of the repository's hash (sha-1 or sha-256). */
    String emptyTree(Repo r) throws IOException {
        return git.check(r.top(), Map.of(), new byte[0], "mktree").text();
    }

    // ------------------------------------------------------------------ writing

    /** What a snapshot did: the new checkpoint, or null when the tree equals the newest one's; refs pruned. */
    record Made(Entry entry, Entry newest, List<String> pruned) {
    }

    /**
     * Snapshots the worktree for {@code pane}: skipped (entry null) when its tree equals the
     * pane's newest checkpoint's; otherwise a new commit (parent HEAD) under the next
     * sequence, and every checkpoint of the pane beyond the newest {@code keep} deleted.
     */
    Made snapshot(Repo r, String pane, String agent, String transition, int keep, Instant now) throws IOException {
        if (!PANE.matcher(pane).matches()) {
            throw new IllegalArgumentException("not a pane id for a ref name: " + pane);
        }
        String tree = worktreeTree(r);
        List<Entry> mine = entries(r, pane);
        Entry newest = mine.isEmpty() ? null : mine.get(0);
        if (newest != null && newest.tree().equals(tree)) {
            return new Made(null, newest, List.of());
        }
        // the sequence counts over every worktree's refs of this pane id, so no ref is reused
        long last = allEntries(r, pane).stream().mapToLong(Entry::seq).max().orElse(0);
        String base = newest != null ? newest.tree() : r.head() != null ? r.head() : emptyTree(r);
        int files = diff(r, base, tree).size();
        long seq = last + 1;
        String who = clean(agent);
        String what = clean(transition);
        Instant at = now.truncatedTo(ChronoUnit.SECONDS);
        String message = "Artuditu checkpoint: pane " + pane + (who.isEmpty() ? "" : " (" + who + ")")
                + (what.isEmpty() ? "" : " " + what) + "\n\n"
                + "Artuditu-Checkpoint-Pane: " + pane + "\n"
                + "Artuditu-Checkpoint-Agent: " + who + "\n"
                + "Artuditu-Checkpoint-Transition: " + what + "\n"
                + "Artuditu-Checkpoint-Time: " + at + "\n"
                + "Artuditu-Checkpoint-Files-Changed: " + files + "\n"
                + "Artuditu-Checkpoint-Worktree: " + clean(r.top().toString(), Integer.MAX_VALUE) + "\n";
        Map<String, String> env = new LinkedHashMap<>(IDENTITY);
        String date = "@" + at.getEpochSecond() + " +0000";
        env.put("GIT_AUTHOR_DATE", date);
        env.put("GIT_COMMITTER_DATE", date);
        List<String> args = new ArrayList<>(List.of("commit-tree", "--no-gpg-sign", tree));
        if (r.head() != null) {
            args.addAll(List.of("-p", r.head()));
        }
        String commit = git.check(r.top(), env, message.getBytes(StandardCharsets.UTF_8), args.toArray(String[]::new))
                .text();
        String ref = NAMESPACE + pane + "/" + seq;
        // create-only: an empty old value refuses a ref that already exists
        git.check(r.top(), Map.of(), null, "update-ref", "-m", "checkpoint", ref, commit, "");
        Entry made = new Entry(ref, pane, seq, commit, tree, r.head(), who.isEmpty() ? null : who,
                what.isEmpty() ? null : what, at.toString(), files, clean(r.top().toString(), Integer.MAX_VALUE));
        List<Entry> all = new ArrayList<>();
        all.add(made);
        all.addAll(mine);
        return new Made(made, made, prune(r, all, keep));
    }

    /** Deletes every checkpoint of {@code newestFirst} past the first {@code keep}; returns their refs. */
    List<String> prune(Repo r, List<Entry> newestFirst, int keep) throws IOException {
        if (newestFirst.size() <= keep) {
            return List.of();
        }
        StringBuilder stdin = new StringBuilder();
        List<String> gone = new ArrayList<>();
        for (Entry e : newestFirst.subList(keep, newestFirst.size())) {
            stdin.append("delete ").append(e.ref()).append(' ').append(e.commit()).append('\n');
            gone.add(e.ref());
        }
        git.check(r.top(), Map.of(), stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin");
        return gone;
    }

    /** What a restore did. */
    record Restored(Entry target, Entry undo, List<Made> snapshots, List<String> written, List<String> removed) {
    }

    /**
     * Restores the working tree to {@code target}'s tree: files that differ are written back
     * from it, files it does not hold are deleted (only paths of the current snapshot, which
     * never holds an ignored file), submodules left alone. HEAD and the index do not move.
     * Refused ({@code invalid_request}, reason {@code changed_since_checkpoint}) when the
     * worktree differs from the pane's newest checkpoint, unless {@code force}; before
     * writing, the current state is itself checkpointed (the undo point), and after, the
     * restored state, so the pane's newest checkpoint is again what the worktree holds.
     */
    Restored restore(Repo r, Entry target, boolean force, int keep, Instant now) throws IOException {
        String current = worktreeTree(r);
        List<Entry> mine = entries(r, target.pane());
        Entry newest = mine.get(0);
        List<Change> since = diff(r, newest.tree(), current);
        if (!since.isEmpty() && !force) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("field", "force");
            d.put("reason", "changed_since_checkpoint");
            d.put("checkpoint", newest.ref());
            d.put("changed_count", since.size());
            d.put("changed", since.stream().limit(MAX_REFUSAL_PATHS).map(Change::path).toList());
            throw new UhpException(ErrorCode.INVALID_REQUEST, since.size() + " file(s) changed in the worktree since "
                    + "the pane's newest checkpoint " + newest.ref() + "; nothing was restored (force restores anyway, "
                    + "after checkpointing the current state)", d);
        }
        List<Change> changes = diff(r, current, target.tree());
        // refuse before anything changes when a folder is where a file comes back and would stay
        TreeSet<String> deleted = new TreeSet<>();
        changes.stream().filter(c -> c.status() == 'D' && !GITLINK.equals(c.oldMode())).forEach(c -> deleted.add(c.path()));
        for (Change c : changes) {
            if (c.status() == 'D' || GITLINK.equals(c.newMode())) {
                continue;
            }
            Path f = inside(r.top(), c.path());
            if (Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS)) {
                String prefix = c.path() + "/";
                String next = deleted.ceiling(prefix);
                if (next == null || !next.startsWith(prefix) || !onlyThese(f, c.path(), deleted)) {
                    throw UhpException.invalid("id", "directory_in_the_way", "the checkpoint holds a file "
                            + c.path() + " where the worktree now has a folder with other contents; nothing was restored");
                }
            }
        }
        Entry undo = newest;
        List<Made> made = new ArrayList<>();
        if (!since.isEmpty()) {
            Made before = snapshot(r, target.pane(), null, "before restore of " + target.shortId(), keep, now);
            made.add(before);
            undo = before.newest();
        }
        List<String> removed = new ArrayList<>();
        for (String p : deleted) {
            Path f = inside(r.top(), p);
            if (Files.deleteIfExists(f)) {
                removed.add(p);
            }
            for (Path dir = f.getParent(); dir != null && !dir.equals(r.top()) && dir.startsWith(r.top());
                    dir = dir.getParent()) {
                if (!emptyFolder(dir)) {
                    break;
                }
                Files.delete(dir);
            }
        }
        List<String> written = new ArrayList<>();
        StringBuilder paths = new StringBuilder();
        for (Change c : changes) {
            if (c.status() != 'D' && !GITLINK.equals(c.newMode())) {
                written.add(c.path());
                paths.append(c.path()).append('\0');
            }
        }
        if (!written.isEmpty()) {
            Path index = scratch.resolve("index-" + (++temps));
            Map<String, String> env = Map.of("GIT_INDEX_FILE", index.toString());
            try {
                git.check(r.top(), env, null, "read-tree", target.tree());
                git.check(r.top(), env, paths.toString().getBytes(StandardCharsets.UTF_8), "checkout-index", "-f", "-z",
                        "--stdin");
            } finally {
                Files.deleteIfExists(index);
                Files.deleteIfExists(scratch.resolve(index.getFileName() + ".lock"));
            }
        }
        made.add(snapshot(r, target.pane(), null, "restored " + target.shortId(), keep, now));
        return new Restored(target, undo, made, written, removed);
    }

    /** Whether every file under folder {@code f} ({@code rel}) is in {@code deleted}. */
    private static boolean onlyThese(Path f, String rel, TreeSet<String> deleted) throws IOException {
        try (var walk = Files.walk(f)) {
            return walk.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .allMatch(p -> deleted.contains(rel + "/" + f.relativize(p).toString().replace('\\', '/')));
        }
    }

    private static boolean emptyFolder(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            return !s.iterator().hasNext();
        }
    }

    /** {@code rel} under {@code top}, refused when it leaves it or passes through a symbolic link. */
    static Path inside(Path top, String rel) throws IOException {
        Path f = top.resolve(rel).normalize();
        if (!f.startsWith(top) || f.equals(top)) {
            throw new IOException("a path from git leaves the worktree: " + rel);
        }
        for (Path p = f.getParent(); p != null && !p.equals(top); p = p.getParent()) {
            if (Files.isSymbolicLink(p)) {
                throw new IOException("a path from git passes through a symbolic link: " + rel);
            }
        }
        return f;
    }

    /** An agent name or transition made fit for one message line: no control characters, bounded. */
    static String clean(String s) {
        return clean(s, MAX_AGENT);
    }

    static String clean(String s, int max) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        s.codePoints().filter(c -> !Character.isISOControl(c)).limit(max).forEach(b::appendCodePoint);
        return b.toString().strip();
    }
}

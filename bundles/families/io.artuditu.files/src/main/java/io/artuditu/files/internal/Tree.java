package io.artuditu.files.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.paths.WorkspacePath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tree state of every workspace: its expanded folders, its selection and the listings
 * read for them. Confined to the files worker (the one thread that reads folders and the
 * one writer of this state); every method runs there. A request is validated whole — every
 * path, every folder it needs read — before its state changes, so a refusal changes nothing.
 *
 * <p>Bounds: {@link #MAX_EXPANDED} expanded folders per workspace, a folder nested at most
 * {@link #MAX_DEPTH} deep, {@link #MAX_ROWS} rows per answer, {@link FolderReader#MAX_ENTRIES}
 * entries per folder, listings kept only for the root and the expanded folders that show;
 * state only for workspaces the topology still has.
 */
final class Tree {
    /** Most expanded folders one workspace keeps. */
    static final int MAX_EXPANDED = 256;
    /** Deepest folder that can be expanded, in path segments below the root. */
    static final int MAX_DEPTH = 32;
    /** Most rows one answer carries. */
    static final int MAX_ROWS = 10_000;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** What the [files] config table says to list. */
    record Visibility(boolean showHidden, boolean showIgnored) {
        static final Visibility DEFAULT = new Visibility(false, false);
    }

    /** One view request: folders to expand and collapse, the folder to answer for, a path to reveal. */
    record Request(List<String> expand, List<String> collapse, String path, String reveal) {
        static Request plain() {
            return new Request(List.of(), List.of(), null, null);
        }
    }

    /** What a refresh did: the workspace's generation after it, and whether any listing changed. */
    record Refreshed(long generation, boolean changed) {
    }

    private static final class State {
        final Path root;
        final WorkspacePath rule;
        Set<String> expanded = new LinkedHashSet<>();
        String selected;
        Map<String, Listing> listings = new HashMap<>();
        long generation;

        State(Path root) {
            this.root = root;
            this.rule = new WorkspacePath(root);
        }
    }

    private final Map<String, State> states = new LinkedHashMap<>();
    private final boolean checkIgnored;

    Tree(boolean checkIgnored) {
        this.checkIgnored = checkIgnored;
    }

    /** Ids of the workspaces whose root has been read. */
    List<String> loaded() {
        List<String> out = new ArrayList<>();
        states.forEach((id, s) -> {
            if (s.listings.containsKey("")) {
                out.add(id);
            }
        });
        return out;
    }

    /** The workspace's state (fresh when its folder changed); forgets workspaces no longer in {@code live}. */
    private State state(String id, Path root, Set<String> live) {
        states.keySet().retainAll(live);
        Path r = root.toAbsolutePath().normalize();
        State s = states.get(id);
        if (s == null || !s.root.equals(r)) {
            s = new State(r);
            states.put(id, s);
        }
        return s;
    }

    /**
     * Applies {@code req} to the workspace's view and answers its rows (starting at
     * {@code req.path()}, else the root). Reads the root the first time and every folder
     * that shows without a listing.
     */
    ObjectNode view(String id, Path root, Set<String> live, Request req, Visibility v) {
        State st = state(id, root, live);
        // 1. validate everything the request names, reading nothing but metadata
        Set<String> next = new LinkedHashSet<>(st.expanded);
        for (int i = 0; i < req.collapse().size(); i++) {
            next.remove(st.rule.resolve("collapse[" + i + "]", req.collapse().get(i)).rel());
        }
        Set<String> asked = new LinkedHashSet<>();
        for (int i = 0; i < req.expand().size(); i++) {
            String rel = folder(st, "expand[" + i + "]", req.expand().get(i));
            addWithAncestors(next, rel);
            asked.add(rel);
        }
        String from = "";
        if (req.path() != null) {
            from = folder(st, "path", req.path());
            addWithAncestors(next, from);
            asked.add(from);
        }
        String selected = st.selected;
        if (req.reveal() != null) {
            selected = revealed(st, req.reveal());
            int cut = selected.lastIndexOf('/');
            if (cut > 0) {
                addWithAncestors(next, selected.substring(0, cut));
            }
        }
        next.remove("");
        if (next.size() > MAX_EXPANDED) {
            throw UhpException.invalid(req.expand().isEmpty() ? "path" : "expand", "too_many_expanded",
                    "a workspace keeps at most " + MAX_EXPANDED + " expanded folders; collapse some first");
        }
        // 2. read what shows and has no listing yet; a folder the request asked for must read
        Map<String, Listing> listings = new HashMap<>();
        for (String dir : showing(next)) {
            Listing l = st.listings.get(dir);
            if (l == null) {
                try {
                    l = FolderReader.read(st.rule.realRoot().resolve(dir), checkIgnored);
                } catch (IOException e) {
                    if (dir.isEmpty()) {
                        throw rootUnreadable(st, e);
                    }
                    if (asked.contains(dir)) {
                        throw UhpException.notFound("directory", dir, "path", "cannot list " + dir + ": " + e.getMessage());
                    }
                    next.remove(dir); // gone since it was expanded
                    continue;
                }
            }
            listings.put(dir, l);
        }
        // 3. commit
        if (!st.listings.containsKey("")) {
            st.generation++;
        }
        st.expanded = next;
        st.listings = listings;
        st.selected = selected;
        return render(id, st, from, v);
    }

    /** Re-reads the root and every expanded folder that shows; the generation moves when anything differs. */
    Refreshed refresh(String id, Path root, Set<String> live) {
        State st = state(id, root, live);
        Set<String> next = new LinkedHashSet<>(st.expanded);
        Map<String, Listing> fresh = new HashMap<>();
        for (String dir : showing(next)) {
            try {
                fresh.put(dir, FolderReader.read(st.rule.realRoot().resolve(dir), checkIgnored));
            } catch (IOException e) {
                if (dir.isEmpty()) {
                    throw rootUnreadable(st, e);
                }
                next.remove(dir);
            }
        }
        boolean first = !st.listings.containsKey("");
        boolean changed = !first && !fresh.equals(st.listings);
        if (first || changed) {
            st.generation++;
        }
        st.expanded = next;
        st.listings = fresh;
        return new Refreshed(st.generation, changed);
    }

    /** The generation of a workspace's listings (0: never read). */
    long generation(String id) {
        State s = states.get(id);
        return s == null ? 0 : s.generation;
    }

    private static UhpException rootUnreadable(State st, IOException e) {
        return UhpException.notFound("directory", st.root.toString(), null,
                "the workspace folder " + st.root + " cannot be listed: " + e.getMessage());
    }

    /** The root and every expanded folder whose ancestors are all expanded, parents first. */
    private static List<String> showing(Set<String> expanded) {
        List<String> out = new ArrayList<>();
        Set<String> shown = new HashSet<>();
        out.add("");
        shown.add("");
        List<String> sorted = new ArrayList<>(expanded);
        sorted.sort((a, b) -> Integer.compare(segments(a), segments(b)));
        for (String d : sorted) {
            int cut = d.lastIndexOf('/');
            if (shown.contains(cut < 0 ? "" : d.substring(0, cut))) {
                out.add(d);
                shown.add(d);
            }
        }
        return out;
    }

    private static void addWithAncestors(Set<String> set, String rel) {
        for (int i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) {
            set.add(rel.substring(0, i));
        }
        set.add(rel);
    }

    private static int segments(String rel) {
        if (rel.isEmpty()) {
            return 0;
        }
        int n = 1;
        for (int i = 0; i < rel.length(); i++) {
            if (rel.charAt(i) == '/') {
                n++;
            }
        }
        return n;
    }

    /** A folder the request names, as a real path relative to the root. */
    private static String folder(State st, String field, String raw) {
        WorkspacePath.Resolved r = st.rule.resolve(field, raw);
        if (!r.exists()) {
            throw UhpException.notFound("directory", raw, field, "no such folder in the workspace: " + WorkspacePath.quoted(raw));
        }
        if (Files.isSymbolicLink(r.abs())) {
            throw WorkspacePath.refuse(field, "symlink", raw, field + " " + WorkspacePath.quoted(raw)
                    + " is a symbolic link; a link is listed, never expanded");
        }
        if (!Files.isDirectory(r.real())) {
            throw WorkspacePath.refuse(field, "not_a_directory", raw, field + " " + WorkspacePath.quoted(raw) + " is not a folder");
        }
        String rel = st.rule.realRoot().relativize(r.real()).toString();
        if (segments(rel) > MAX_DEPTH) {
            throw WorkspacePath.refuse(field, "too_deep", raw, field + " is more than " + MAX_DEPTH + " folders deep");
        }
        return rel;
    }

    /** The path to select: the entry itself (a link is not followed), its folder by its real path. */
    private static String revealed(State st, String raw) {
        WorkspacePath.Resolved r = st.rule.resolve("path", raw);
        if (!Files.exists(r.abs(), LinkOption.NOFOLLOW_LINKS)) {
            throw UhpException.notFound("file", raw, "path", "no such file in the workspace: " + WorkspacePath.quoted(raw));
        }
        if (r.rel().isEmpty()) {
            return "";
        }
        Path parent;
        try {
            parent = r.abs().getParent().toRealPath();
        } catch (IOException e) {
            throw UhpException.notFound("file", raw, "path", "cannot read the folder of " + WorkspacePath.quoted(raw));
        }
        String dir = st.rule.realRoot().relativize(parent).toString();
        String rel = dir.isEmpty() ? r.abs().getFileName().toString() : dir + "/" + r.abs().getFileName();
        if (segments(rel) > MAX_DEPTH + 1) {
            throw WorkspacePath.refuse("path", "too_deep", raw, "path is more than " + MAX_DEPTH + " folders deep");
        }
        return rel;
    }

    private ObjectNode render(String id, State st, String from, Visibility v) {
        ObjectNode out = JSON.objectNode();
        out.put("workspace_id", id);
        out.put("root", st.root.toString());
        out.put("path", from);
        out.put("generation", st.generation);
        if (st.selected == null) {
            out.putNull("selected");
        } else {
            out.put("selected", st.selected);
        }
        out.put("show_hidden", v.showHidden());
        out.put("show_ignored", v.showIgnored());
        Set<String> pinned = new HashSet<>();
        if (st.selected != null) {
            addWithAncestors(pinned, st.selected);
        }
        ArrayNode rows = JSON.arrayNode();
        ArrayNode cut = JSON.arrayNode();
        boolean complete = walk(st, from, v, pinned, rows, cut);
        out.put("truncated", !complete);
        out.set("truncated_folders", cut);
        out.set("rows", rows);
        return out;
    }

    /** Adds the rows of {@code dir}'s listing, depth first; false when {@link #MAX_ROWS} cut it short. */
    private boolean walk(State st, String dir, Visibility v, Set<String> pinned, ArrayNode rows, ArrayNode cut) {
        Listing l = st.listings.get(dir);
        if (l == null) {
            return true;
        }
        if (l.truncated()) {
            cut.add(dir);
        }
        int depth = segments(dir);
        for (Listing.Entry e : l.entries()) {
            String rel = dir.isEmpty() ? e.name() : dir + "/" + e.name();
            if (!pinned.contains(rel) && (e.hidden() && !v.showHidden() || e.ignored() && !v.showIgnored())) {
                continue;
            }
            if (rows.size() >= MAX_ROWS) {
                return false;
            }
            boolean open = e.kind() == Listing.Kind.DIR && st.expanded.contains(rel);
            ObjectNode row = rows.addObject();
            row.put("path", rel);
            row.put("name", e.name());
            row.put("kind", e.kind().wire);
            row.put("depth", depth);
            row.put("expanded", open);
            row.put("size", e.size());
            row.put("mtime_ms", e.mtimeMs());
            row.put("hidden", e.hidden());
            row.put("ignored", e.ignored());
            row.put("selected", rel.equals(st.selected));
            if (open && !walk(st, rel, v, pinned, rows, cut)) {
                return false;
            }
        }
        return true;
    }
}

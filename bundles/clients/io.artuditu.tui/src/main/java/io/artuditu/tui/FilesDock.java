package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The FILES dock: the active workspace's tree ({@code files.tree}) at the top of the right
 * sidebar, each file with its change mark from {@code diff.list} ({@code M}, {@code A},
 * {@code D}, {@code ?} untracked, {@code U} conflicted; {@code S} when only its staged copy
 * differs) and each folder holding a changed file marked {@code •}. {@code C-b e} shows it and
 * moves the keys into it ({@link App.Mode#FILES}): up/down move, Enter or right opens a
 * folder or opens a file in an editor pane ({@code files.open}), left closes a folder (or
 * goes to its parent), {@code r} refreshes, Escape gives the keys back to the pane and
 * {@code C-b e} again hides it. The tree state (which folders are open) is the server's.
 * Requests run on the workbench's worker; answers land on the UI thread.
 */
final class FilesDock {
    /** A tree row as files.tree sends it (the fields the dock uses). */
    record Entry(String path, String name, String kind, int depth, boolean expanded) {
        boolean dir() {
            return "dir".equals(kind);
        }
    }

    private final App app;
    boolean visible;
    String workspace;
    List<Entry> rows = List.of();
    /** Change marks by path (files and the folders above them). */
    Map<String, String> marks = Map.of();
    int cursor;
    String error;
    private boolean fetching;

    FilesDock(App app) {
        this.app = app;
    }

    /** C-b e: show it and take the keys; when it had them already ({@code hadKeys}), hide it. */
    void toggle(String ws, boolean hadKeys) {
        if (visible && hadKeys) {
            visible = false;
            app.mode = App.Mode.NORMAL;
        } else {
            visible = true;
            app.mode = App.Mode.FILES;
            if (ws != null && !ws.equals(workspace)) {
                rows = List.of();
                cursor = 0;
            }
            load(ws, null, null, false);
        }
        app.panes.syncViews();
        app.chrome = true;
    }

    /** The tree or the changes may have moved ({@code files.changed}, {@code diff.changed}): read again while shown. */
    void invalidate(String ws) {
        if (visible && ws != null) {
            load(ws, null, null, false);
        }
    }

    /** files.tree (with an expand or collapse) and diff.list, on the worker. */
    void load(String ws, String expand, String collapse, boolean refresh) {
        if (ws == null || fetching && expand == null && collapse == null && !refresh) {
            return;
        }
        fetching = true;
        workspace = ws;
        app.requests.execute(() -> {
            JsonUhp uhp = app.requests.uhp();
            List<Entry> tree = null;
            Map<String, String> m = Map.of();
            String err = null;
            try {
                if (refresh) {
                    uhp.call("files.refresh", JsonUhp.params().put("workspace_id", ws));
                }
                ObjectNode p = JsonUhp.params().put("workspace_id", ws);
                if (expand != null) {
                    p.putArray("expand").add(expand);
                }
                if (collapse != null) {
                    p.putArray("collapse").add(collapse);
                }
                tree = entries(uhp.call("files.tree", p));
            } catch (JsonUhp.Failure f) {
                err = f.code.equals("unknown_method") ? "no files family on this server" : f.getMessage();
            } catch (IOException e) {
                err = e.getMessage();
            }
            try {
                m = marks(uhp.call("diff.list", JsonUhp.params().put("workspace_id", ws)));
            } catch (IOException e) {
                // no diff family yet, or not a repository: the tree without marks
            }
            List<Entry> t = tree;
            Map<String, String> m0 = m;
            String e0 = err;
            app.post(() -> {
                fetching = false;
                if (!ws.equals(workspace)) {
                    return;
                }
                if (t != null) {
                    String at = cursor < rows.size() ? rows.get(cursor).path() : null;
                    rows = t;
                    cursor = Math.max(0, Math.min(indexOf(at, cursor), rows.size() - 1));
                }
                marks = m0;
                error = e0;
                app.chrome = true;
            });
        });
    }

    private int indexOf(String path, int fallback) {
        for (int i = 0; path != null && i < rows.size(); i++) {
            if (rows.get(i).path().equals(path)) {
                return i;
            }
        }
        return fallback;
    }

    static List<Entry> entries(JsonNode tree) {
        List<Entry> out = new ArrayList<>();
        for (JsonNode r : tree.path("rows")) {
            out.add(new Entry(r.path("path").asText(), r.path("name").asText(), r.path("kind").asText("file"),
                    r.path("depth").asInt(), r.path("expanded").asBoolean()));
        }
        return out;
    }

    /** Change marks from a diff.list: a file's status letter (the worktree's over the staged copy's), {@code •} for folders above. */
    static Map<String, String> marks(JsonNode list) {
        Map<String, String> out = new HashMap<>();
        for (DiffData.FileEntry f : DiffData.files(list)) {
            String mark = "staged".equals(f.layer()) ? "S" : f.statusMark();
            if ("staged".equals(f.layer()) && out.containsKey(f.path())) {
                continue;
            }
            out.put(f.path(), mark);
            for (int i = f.path().lastIndexOf('/'); i > 0; i = f.path().lastIndexOf('/', i - 1)) {
                out.putIfAbsent(f.path().substring(0, i), "•");
            }
        }
        return out;
    }

    /** The dock's rows, {@code room} of them from the one that keeps the cursor in sight; and where the window starts. */
    ModuleUi.Dock dock(int room, boolean focused) {
        List<ModuleUi.Row> out = new ArrayList<>();
        if (error != null) {
            out.add(new ModuleUi.Row(error, null, null, null, List.of()));
        }
        int first = first(room);
        for (int i = first; i < rows.size() && out.size() < Math.max(1, room); i++) {
            out.add(new ModuleUi.Row(label(rows.get(i), marks.get(rows.get(i).path())), null, null, null, List.of()));
        }
        return new ModuleUi.Dock("files", "right", null, focused ? "FILES (Esc: back to the pane)" : "FILES", out);
    }

    int first(int room) {
        return room <= 0 ? 0 : Math.max(0, Math.min(cursor - room / 2, rows.size() - room));
    }

    static String label(Entry e, String mark) {
        return "  ".repeat(Math.max(0, e.depth())) + (e.dir() ? (e.expanded() ? "▾ " : "▸ ") : "  ") + e.name()
                + (e.dir() ? "/" : "") + (mark == null ? "" : " " + mark);
    }

    /** A key while the dock has them. */
    void key(Input.Key k, String ws) {
        Entry e = cursor < rows.size() ? rows.get(cursor) : null;
        String n = k.name().equals("char") && !k.ctrl() && !k.alt() ? k.ch() : k.name();
        switch (n) {
            case "down", "j" -> cursor = Math.min(Math.max(0, rows.size() - 1), cursor + 1);
            case "up", "k" -> cursor = Math.max(0, cursor - 1);
            case "home", "g" -> cursor = 0;
            case "end", "G" -> cursor = Math.max(0, rows.size() - 1);
            case "enter", "right", "l", "o" -> {
                if (e == null) {
                    return;
                }
                if (e.dir()) {
                    load(ws, e.expanded() ? null : e.path(), e.expanded() ? e.path() : null, false);
                } else if ("file".equals(e.kind()) || "symlink".equals(e.kind())) {
                    app.requests.focusRequest("files.open", JsonUhp.params().put("workspace_id", ws).put("path", e.path())
                            .put("focus", true));
                    app.mode = App.Mode.NORMAL;
                }
            }
            case "left", "h" -> {
                if (e == null) {
                    return;
                }
                if (e.dir() && e.expanded()) {
                    load(ws, null, e.path(), false);
                } else {
                    for (int i = cursor - 1; i >= 0; i--) {
                        if (rows.get(i).depth() < e.depth()) {
                            cursor = i;
                            break;
                        }
                    }
                }
            }
            case "r" -> load(ws, null, null, true);
            case "esc", "q" -> app.mode = App.Mode.NORMAL;
            default -> { }
        }
        app.chrome = true;
    }
}

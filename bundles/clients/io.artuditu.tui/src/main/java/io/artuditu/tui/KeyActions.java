package io.artuditu.tui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The person's input and what each key does. Bytes the input thread read arrive here on the
 * UI thread ({@link #decode}): UTF-8 (a character cut between reads waits for its tail), then
 * {@link InputDecoder} (a lone Escape waits {@value #ESC_MS} ms for the rest of a sequence).
 * {@link #handle} sends each input where the mode says: to the focused pane, to the prefix
 * and its bound action ({@link #act}), to a prompt, copy mode or a menu ({@link Prompts}), or
 * to {@link MouseActions}. Input behind a request that moves the focus waits in
 * {@link Requests} first.
 */
final class KeyActions {
    /** Escape waits this long for the rest of a sequence. */
    static final long ESC_MS = 25;

    private final App app;
    private final InputDecoder decoder = new InputDecoder();
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final ByteBuffer utf8Pending = ByteBuffer.allocate(8);
    private long escapeDeadline;
    /** The pending prefix was typed while the FILES dock had the keys. */
    private boolean filesHadKeys;

    KeyActions(App app) {
        this.app = app;
    }

    void decode(byte[] chunk) {
        ByteBuffer in = ByteBuffer.wrap(chunk);
        CharBuffer out = CharBuffer.allocate(chunk.length + 4);
        if (utf8Pending.position() > 0) {
            // the tail of a character cut by the previous read
            ByteBuffer joined = ByteBuffer.allocate(utf8Pending.position() + chunk.length);
            utf8Pending.flip();
            joined.put(utf8Pending).put(chunk).flip();
            utf8Pending.clear();
            in = joined;
            out = CharBuffer.allocate(in.remaining() + 4);
        }
        utf8.decode(in, out, false);
        utf8Pending.put(in); // at most 3 bytes of an unfinished character
        out.flip();
        char[] chars = new char[out.remaining()];
        out.get(chars);
        for (Input i : decoder.feed(chars, chars.length)) {
            handle(i);
        }
        escapeDeadline = decoder.pendingEscape() ? System.currentTimeMillis() + ESC_MS : 0;
    }

    /** The earlier of {@code d} and when a lone Escape stops waiting. */
    long deadline(long d) {
        return escapeDeadline > 0 ? Math.min(d, escapeDeadline) : d;
    }

    void escapeIfDue(long now) {
        if (escapeDeadline > 0 && now >= escapeDeadline) {
            escapeDeadline = 0;
            for (Input i : decoder.flush()) {
                handle(i); // a lone Escape: nothing followed it
            }
        }
    }

    void handle(Input in) {
        if (app.requests.holds(in)) {
            return;
        }
        App.Mode mode = app.mode;
        boolean passed = mode == App.Mode.NORMAL && (in instanceof Input.Paste
                || in instanceof Input.Key k && !KeyNames.matches(app.keymap.prefix, k));
        if (!passed) {
            app.chrome = true; // keys the workbench itself answers change what it shows
        }
        if (in instanceof Input.ModeReport r) {
            if (r.mode() == 2026 && (r.value() == 1 || r.value() == 2)) {
                app.painter.synchronizedOutput();
            }
        } else if (in instanceof Input.Paste p) {
            if (mode == App.Mode.PROMPT) {
                app.prompts.paste(p.text());
            } else if (mode == App.Mode.NORMAL) {
                PaneView v = app.panes.view(app.server.focusedPane());
                if (v != null) {
                    ObjectNode n = JsonUhp.JSON.createObjectNode();
                    n.putObject("input").put("paste", p.text());
                    v.send(n);
                }
            }
        } else if (in instanceof Input.Mouse m) {
            app.mouse.handle(m);
        } else if (in instanceof Input.Key k) {
            key(k);
        }
    }

    private void key(Input.Key k) {
        Prompts prompts = app.prompts;
        switch (app.mode) {
            case HELP -> app.mode = App.Mode.NORMAL;
            case PROMPT -> prompts.promptKey(k);
            case CONFIRM -> prompts.confirmKey(k);
            case COPY -> prompts.copyKey(k);
            case MENU -> prompts.menuKey(k);
            case FILES -> {
                if (KeyNames.matches(app.keymap.prefix, k)) {
                    filesHadKeys = true;
                    app.mode = App.Mode.PREFIX;
                    app.prefixDeadline = System.currentTimeMillis() + app.keymap.prefixTimeoutMs;
                    return;
                }
                Model.Workspace ws = app.server.model.active();
                app.files.key(k, ws == null ? null : ws.id());
            }
            case PREFIX -> {
                boolean fromFiles = filesHadKeys;
                filesHadKeys = false;
                app.mode = App.Mode.NORMAL;
                String action = app.keymap.action(k);
                if (action != null && action.equals("files")) {
                    Model.Workspace ws = app.server.model.active();
                    app.files.toggle(ws == null ? null : ws.id(), fromFiles);
                } else if (action != null) {
                    act(action);
                } else if (fromFiles) {
                    app.mode = App.Mode.FILES;
                }
            }
            default -> {
                if (KeyNames.matches(app.keymap.prefix, k)) {
                    app.mode = App.Mode.PREFIX;
                    app.prefixDeadline = System.currentTimeMillis() + app.keymap.prefixTimeoutMs;
                    return;
                }
                Model.Tab tab = app.server.activeTab();
                Model.Workspace ws = app.server.model.active();
                if (tab != null && tab.git() && ws != null) {
                    app.git.key(k, ws.id()); // a dashboard has no pane to type into
                    return;
                }
                sendKey(k);
            }
        }
    }

    private void sendKey(Input.Key k) {
        PaneView v = app.panes.view(app.server.focusedPane());
        if (v != null) {
            v.sendLine(k.toAttach());
        }
    }

    /** Runs the workbench action bound to a key after the prefix ({@link Keymap}'s names). */
    private void act(String action) {
        Requests requests = app.requests;
        Model model = app.server.model;
        String pane = app.server.focusedPane();
        Model.Tab tab = app.server.activeTab();
        Model.Workspace ws = model.active();
        switch (action) {
            case "split_right" -> requests.focusRequest("pane.split", withPane(pane).put("right", true));
            case "split_down" -> requests.focusRequest("pane.split", withPane(pane).put("down", true));
            case "focus_left", "focus_right", "focus_up", "focus_down" ->
                    requests.focusRequest("pane.focus_direction", withPane(pane).put("direction", action.substring(6)));
            case "resize_left", "resize_right", "resize_up", "resize_down" ->
                    requests.request("pane.resize", withPane(pane).put("direction", action.substring(7)).put("cells", 1));
            case "next_pane" -> {
                if (tab != null && pane != null && tab.panes().size() > 1) {
                    List<String> ids = new ArrayList<>(app.panes.layout.places.keySet());
                    if (ids.isEmpty()) {
                        ids = new ArrayList<>(tab.panes().keySet());
                    }
                    int i = ids.indexOf(pane);
                    requests.focusRequest("pane.focus", JsonUhp.params().put("pane", ids.get((i + 1) % ids.size())));
                }
            }
            case "zoom" -> requests.request("pane.zoom", withPane(pane));
            case "new_tab" -> {
                if (ws != null) {
                    requests.focusRequest("tab.new", JsonUhp.params().put("workspace_id", ws.id()));
                } else {
                    requests.focusRequest("workspace.open", JsonUhp.params().put("cwd", System.getProperty("user.dir")));
                }
            }
            case "next_tab", "prev_tab" -> {
                if (ws != null && tab != null && !ws.tabs().isEmpty()) {
                    int i = ws.tabs().indexOf(tab) + (action.equals("next_tab") ? 1 : -1);
                    Model.Tab t = ws.tabs().get(Math.floorMod(i, ws.tabs().size()));
                    requests.focusRequest("tab.focus", JsonUhp.params().put("tab_id", t.id()));
                }
            }
            case "rename_tab" -> {
                if (tab != null) {
                    String id = tab.id();
                    app.prompts.startPrompt("rename tab: ", tab.name() == null ? "" : tab.name(),
                            name -> requests.request("tab.rename", JsonUhp.params().put("tab_id", id).put("name", name)));
                }
            }
            case "close_pane" -> {
                if (pane != null) {
                    app.prompts.confirm(" close pane " + pane + "?",
                            () -> requests.focusRequest("pane.close", JsonUhp.params().put("pane", pane)));
                }
            }
            case "next_workspace", "prev_workspace" -> {
                List<Model.Workspace> order = model.displayOrder();
                if (ws != null && order.size() > 1) {
                    int i = order.indexOf(ws) + (action.equals("next_workspace") ? 1 : -1);
                    requests.focusRequest("workspace.focus",
                            JsonUhp.params().put("workspace_id", order.get(Math.floorMod(i, order.size())).id()));
                }
            }
            case "toggle_sidebar" -> {
                ObjectNode patch = JsonUhp.params();
                patch.putObject("patch").putObject("sidebars").putObject("left").put("visible", !app.panes.sidebarVisible());
                requests.request("config.patch", patch);
            }
            case "copy_mode" -> app.prompts.startCopy(pane);
            case "command" -> app.prompts.startPrompt(":", "", app.prompts::runCommand);
            case "detach" -> app.quit("[detached (from session " + app.session + ")]");
            case "help" -> app.mode = App.Mode.HELP;
            case "git" -> {
                if (ws != null) {
                    requests.focusRequest("git.open", JsonUhp.params().put("workspace_id", ws.id()));
                }
            }
            case "send_prefix" -> sendKey(app.keymap.prefix);
            default -> {
                if (action.startsWith("select_tab_") && ws != null) {
                    int n = Integer.parseInt(action.substring("select_tab_".length()));
                    if (n <= ws.tabs().size()) {
                        requests.focusRequest("tab.focus", JsonUhp.params().put("tab_id", ws.tabs().get(n - 1).id()));
                    }
                }
            }
        }
    }

    private static ObjectNode withPane(String pane) {
        ObjectNode p = JsonUhp.params();
        if (pane != null) {
            p.put("pane", pane);
        }
        return p;
    }
}

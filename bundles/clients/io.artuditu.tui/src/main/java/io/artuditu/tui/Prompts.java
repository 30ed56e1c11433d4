package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What takes the keys over the panes, each its own {@link App.Mode}: the bottom-line
 * {@link Prompt} (renames, searches, the {@code :} command line), the yes/no question before
 * closing a pane, {@link CopyMode}, and a dock row's {@link Menu} with the module actions it
 * and the other spots run. Requests go to the worker; everything here runs on the UI thread.
 */
final class Prompts {
    private final App app;
    private final JsonUhp uhp;
    private Prompt prompt;
    private String confirmText;
    private Runnable confirmAction;
    private CopyMode copy;
    private Menu menu;

    Prompts(App app, JsonUhp uhp) {
        this.app = app;
        this.uhp = uhp;
    }

    Prompt prompt() {
        return prompt;
    }

    /** The yes/no question asked now. */
    String question() {
        return confirmText;
    }

    /** Copy mode's state, or null outside it. */
    CopyMode copy() {
        return copy;
    }

    /** The open menu, or null. */
    Menu menu() {
        return menu;
    }

    // ---------------------------------------------------------------- the prompt and the question

    void startPrompt(String label, String initial, Consumer<String> done) {
        prompt = new Prompt(label, initial, done);
        app.mode = App.Mode.PROMPT;
    }

    void promptKey(Input.Key k) {
        switch (prompt.key(k)) {
            case DONE -> {
                app.mode = copy != null ? App.Mode.COPY : App.Mode.NORMAL;
                prompt.done.accept(prompt.text());
            }
            case CANCEL -> app.mode = copy != null ? App.Mode.COPY : App.Mode.NORMAL;
            default -> { }
        }
    }

    /** A paste while the prompt is open: one line of it. */
    void paste(String text) {
        prompt.insert(text.replace('\n', ' '));
    }

    /** Asks {@code text} (y/n) on the bottom line; {@code action} runs on y. */
    void confirm(String text, Runnable action) {
        confirmText = text;
        confirmAction = action;
        app.mode = App.Mode.CONFIRM;
    }

    void confirmKey(Input.Key k) {
        app.mode = App.Mode.NORMAL;
        if (k.isChar("y") || k.isChar("Y")) {
            confirmAction.run();
        }
    }

    /** {@code :} runs any artu command in this process against this server; its output becomes toasts. */
    void runCommand(String line) {
        List<String> argv;
        try {
            argv = Prompt.split(line);
        } catch (IllegalArgumentException e) {
            app.toast(e.getMessage(), true);
            return;
        }
        if (argv.isEmpty()) {
            return;
        }
        if (argv.get(0).equals("artu")) {
            argv = argv.subList(1, argv.size());
        }
        String[] args = argv.toArray(new String[0]);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("ARTUDITU_SOCKET_PATH", uhp.socket().toString());
        String pane = app.server.focusedPane();
        if (pane != null) {
            env.put("ARTUDITU_PANE_ID", pane);
        }
        Model.Workspace ws = app.server.model.active();
        if (ws != null) {
            env.put("ARTUDITU_WORKSPACE_ID", ws.id());
        }
        app.requests.execute(() -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = io.artuditu.cli.Artu.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String o = out.toString(StandardCharsets.UTF_8).strip();
            String e = err.toString(StandardCharsets.UTF_8).strip();
            app.post(() -> {
                if (!e.isEmpty()) {
                    app.toast(e.lines().findFirst().orElse(e), true);
                }
                if (!o.isEmpty()) {
                    app.toast(o.length() > 300 ? o.substring(0, 300) + "…" : o, false);
                } else if (status == 0 && e.isEmpty()) {
                    app.toast("ok", false);
                }
            });
        });
    }

    // ---------------------------------------------------------------- copy mode

    /** Reads the pane's scrollback and screen on the worker, then opens copy mode on it. */
    void startCopy(String pane) {
        if (pane == null) {
            return;
        }
        app.requests.execute(() -> {
            try {
                JsonNode r = uhp.call("pane.read", JsonUhp.params().put("pane", pane).put("source", "all"));
                String text = r.path("text").asText("");
                app.post(() -> {
                    copy = new CopyMode(pane, text);
                    app.mode = App.Mode.COPY;
                    app.chrome = true;
                });
            } catch (IOException e) {
                app.post(() -> app.toast("copy mode: " + e.getMessage(), true));
            }
        });
    }

    void copyKey(Input.Key k) {
        switch (copy.key(k)) {
            case EXIT -> {
                copy = null;
                app.mode = App.Mode.NORMAL;
            }
            case COPY -> {
                app.copyToClipboard(copy.selection());
                copy = null;
                app.mode = App.Mode.NORMAL;
            }
            case SEARCH -> {
                int dir = "?".equals(copy.status) ? 1 : -1;
                CopyMode cm = copy;
                startPrompt(dir < 0 ? "search up: " : "search down: ", cm.search == null ? "" : cm.search,
                        term -> cm.find(term, dir));
            }
            default -> { }
        }
    }

    /** Copy mode ends when its pane is no longer in the topology. */
    void leaveCopyModeIfGone(Model model) {
        if (copy != null && model.pane(copy.pane) == null) {
            copy = null;
            app.mode = App.Mode.NORMAL;
        }
    }

    // ---------------------------------------------------------------- module actions and menus

    /** Runs a module action on the worker without waiting for it; a refusal becomes a toast. */
    void invoke(ModuleUi.Invoke inv) {
        app.requests.execute(() -> {
            try {
                JsonNode r = uhp.call("module.action.invoke", inv.params());
                String error = r.path("error").asText("");
                if (!error.isEmpty()) {
                    app.post(() -> app.toast(inv.module() + " " + inv.action() + ": " + error, true));
                }
            } catch (IOException e) {
                app.post(() -> app.toast(inv.module() + " " + inv.action() + ": " + e.getMessage(), true));
            }
        });
    }

    void openMenu(ModuleUi.Spot spot, Input.Mouse m) {
        App.Mode mode = app.mode;
        if (mode != App.Mode.NORMAL && mode != App.Mode.PREFIX && mode != App.Mode.MENU) {
            return; // a prompt, a question or copy mode owns the keys
        }
        menu = new Menu(spot.owner(), spot.menu(), spot.rowValue(), m.x(), m.y());
        app.mode = App.Mode.MENU;
        app.chrome = true;
    }

    private void closeMenu() {
        menu = null;
        if (app.mode == App.Mode.MENU) {
            app.mode = App.Mode.NORMAL;
        }
        app.chrome = true;
    }

    /** Closes the menu when its module no longer has a dock among {@code docks}. */
    void closeMenuUnlessOwnedBy(List<ModuleUi.Dock> docks) {
        if (menu != null && docks.stream().noneMatch(x -> menu.owner.equals(x.owner()))) {
            closeMenu();
        }
    }

    void menuKey(Input.Key k) {
        switch (menu.key(k)) {
            case RUN -> {
                ModuleUi.Invoke inv = menu.invoke(menu.selected);
                closeMenu();
                invoke(inv);
            }
            case CLOSE -> closeMenu();
            default -> { }
        }
    }

    /** A press while the menu is open: an entry runs; the frame or a divider does nothing; outside closes it. */
    void menuClick(Input.Mouse m) {
        int i = menu.entryAt(m.x(), m.y());
        if (i >= 0 && m.button() == 0) {
            ModuleUi.Invoke inv = menu.invoke(i);
            closeMenu();
            invoke(inv);
            return;
        }
        if (menu.contains(m.x(), m.y())) {
            return;
        }
        closeMenu();
        ModuleUi.Spot spot = app.painter.spotAt(m.x(), m.y());
        if (m.button() == 2 && spot != null && !spot.menu().isEmpty()) {
            openMenu(spot, m); // another row's menu, at once
        }
    }
}

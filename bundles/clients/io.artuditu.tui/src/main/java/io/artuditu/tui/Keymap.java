package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prefix key and what each key after it does: tmux's defaults where tmux has one,
 * overridden by {@code keymap.bindings} (action → chord) from the live config.
 */
final class Keymap {
    /** Action → default chord, in the order the help lists them. */
    static final Map<String, String> DEFAULTS = new LinkedHashMap<>();
    /** Action → what it does, for the help overlay and docs/tui.md. */
    static final Map<String, String> HELP = new LinkedHashMap<>();

    static {
        bind("split_right", "%", "split the pane, new pane to the right");
        bind("split_down", "\"", "split the pane, new pane below");
        bind("focus_left", "Left", "focus the pane to the left");
        bind("focus_right", "Right", "focus the pane to the right");
        bind("focus_up", "Up", "focus the pane above");
        bind("focus_down", "Down", "focus the pane below");
        bind("resize_left", "C-Left", "move the pane's border left");
        bind("resize_right", "C-Right", "move the pane's border right");
        bind("resize_up", "C-Up", "move the pane's border up");
        bind("resize_down", "C-Down", "move the pane's border down");
        bind("next_pane", "o", "focus the next pane of the tab");
        bind("zoom", "z", "zoom the pane to the whole stage, or back");
        bind("new_tab", "c", "a new tab with one shell");
        bind("next_tab", "n", "the next tab");
        bind("prev_tab", "p", "the previous tab");
        bind("rename_tab", ",", "rename the tab");
        bind("close_pane", "x", "close the pane (asks first)");
        bind("next_workspace", ")", "the next workspace");
        bind("prev_workspace", "(", "the previous workspace");
        bind("toggle_sidebar", "b", "show or hide the workspace sidebar");
        bind("files", "e", "the FILES dock: show it and move the keys into it; again: hide it");
        bind("git", "g", "the workspace's Git dashboard tab (git.open)");
        bind("copy_mode", "[", "copy mode: scroll back, / search, select, copy");
        bind("command", ":", "a command line: any artu command");
        bind("detach", "d", "detach; everything keeps running");
        bind("help", "?", "this list");
    }

    private static void bind(String action, String chord, String help) {
        DEFAULTS.put(action, chord);
        HELP.put(action, help);
    }

    Input.Key prefix = KeyNames.parse("C-b");
    int prefixTimeoutMs = 1000;
    private final Map<String, Input.Key> bound = new LinkedHashMap<>();
    private final Map<String, String> chords = new LinkedHashMap<>();

    Keymap() {
        apply(null);
    }

    /** Takes {@code prefix} and {@code keymap} from a {@code config.get} config object. */
    void apply(JsonNode config) {
        bound.clear();
        chords.clear();
        DEFAULTS.forEach((a, c) -> {
            bound.put(a, KeyNames.parse(c));
            chords.put(a, c);
        });
        if (config == null) {
            return;
        }
        if ("vim".equals(config.path("keymap").path("preset").asText())) {
            for (String[] v : new String[][] {{"focus_left", "h"}, {"focus_down", "j"}, {"focus_up", "k"},
                    {"focus_right", "l"}}) {
                bound.put(v[0], KeyNames.parse(v[1]));
                chords.put(v[0], v[1]);
            }
        }
        config.path("keymap").path("bindings").fields().forEachRemaining(e -> {
            Input.Key k = KeyNames.parse(e.getValue().asText());
            if (k != null && DEFAULTS.containsKey(e.getKey())) {
                bound.put(e.getKey(), k);
                chords.put(e.getKey(), e.getValue().asText());
            }
        });
        Input.Key p = KeyNames.parse(config.path("prefix").path("key").asText("C-b"));
        prefix = p != null ? p : KeyNames.parse("C-b");
        prefixTimeoutMs = config.path("prefix").path("timeout_ms").asInt(1000);
    }

    /** The action the key after the prefix names: a bound action, {@code select_tab_N}, or null. */
    String action(Input.Key key) {
        for (Map.Entry<String, Input.Key> e : bound.entrySet()) {
            if (KeyNames.matches(e.getValue(), key)) {
                return e.getKey();
            }
        }
        if (key.name().equals("char") && !key.ctrl() && !key.alt() && key.ch().length() == 1
                && Character.isDigit(key.ch().charAt(0))) {
            int n = key.ch().charAt(0) - '0';
            return "select_tab_" + (n == 0 ? 10 : n);
        }
        if (KeyNames.matches(prefix, key)) {
            return "send_prefix";
        }
        return null;
    }

    String chord(String action) {
        return chords.get(action);
    }

    String prefixChord() {
        return prefix.chord();
    }
}

package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.themes.Rgb;
import io.artuditu.themes.ThemeFormat;
import io.artuditu.vt.Style;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every colour the workbench draws with, in one place: the renditions of its chrome (tab
 * bar, sidebars, headers, borders, bottom line, toasts and notifications, bar tones and
 * badges, menus, copy mode) and, for a palette theme, the colours pane cells show in, which
 * {@link AnsiWriter} applies at output. Built from the active entry of {@code theme.list}
 * ({@link #fromList}), or {@link #TERMINAL}: the outer terminal's own colours, with the
 * chrome in the built-in 256-colour palette.
 *
 * <p>Both looks are a table of roles to colours, and the renditions are built from the
 * table the same way: {@link #TERMINAL_ROLES} is the built-in palette, {@link #of} fills the
 * same roles from a theme's {@code workbench} and {@code colors}. Immutable; painters and
 * the writer read it on the UI thread.
 */
final class Theme {
    /** The 16 ANSI colours' keys in a theme's {@code colors}, in index order (the format's own list). */
    static final List<String> ANSI = ThemeFormat.PALETTE_KEYS;
    /** A theme's terminal colours besides the 16 ANSI ones, as {@code theme.list} names them. */
    static final List<String> TERMINAL_KEYS = ThemeFormat.TERMINAL_KEYS;
    /** The workbench colours of a {@code theme.list} entry, all of which the contract requires. */
    static final List<String> WORKBENCH_KEYS = ThemeFormat.WORKBENCH_KEYS;
    private static final List<String> COLOR_KEYS = java.util.stream.Stream.concat(TERMINAL_KEYS.stream(), ANSI.stream())
            .toList();
    /** The tones a bar segment names; anything else is {@code normal}. */
    static final List<String> TONES = List.of("normal", "muted", "accent", "success", "warning", "error");
    static final List<String> AGENT_STATES = List.of("idle", "working", "blocked", "done", "none", "unknown");
    /** WCAG's contrast for body text: a theme's own colour is used on a background when it reaches this. */
    static final double READABLE = 4.5;

    /** The built-in palette: 256-colour indices, which AnsiWriter reduces for 16-colour terminals. */
    static final Map<String, Integer> TERMINAL_ROLES = Map.ofEntries(
            Map.entry("tab_bar_background", 236), Map.entry("tab_bar_foreground", 250),
            Map.entry("tab_active_background", 33), Map.entry("tab_active_foreground", 231),
            Map.entry("sidebar_background", 235), Map.entry("sidebar_foreground", 250),
            Map.entry("sidebar_active_background", 238), Map.entry("sidebar_active_foreground", 231),
            Map.entry("sidebar_dim", 244),
            Map.entry("border", 240), Map.entry("border_focused", 75),
            Map.entry("header_background", 237), Map.entry("header_foreground", 248),
            Map.entry("header_focused_background", 25), Map.entry("header_focused_foreground", 231),
            Map.entry("agent_idle", 75), Map.entry("agent_working", 220), Map.entry("agent_blocked", 196),
            Map.entry("agent_done", 40), Map.entry("agent_none", 240), Map.entry("agent_unknown", 245),
            Map.entry("bar_normal", 250), Map.entry("bar_muted", 244), Map.entry("bar_accent", 75),
            Map.entry("bar_success", 40), Map.entry("bar_warning", 214), Map.entry("bar_error", 196),
            Map.entry("bar_track", 238),
            Map.entry("badge_normal", 250), Map.entry("badge_muted", 244), Map.entry("badge_accent", 75),
            Map.entry("badge_success", 40), Map.entry("badge_warning", 214), Map.entry("badge_error", 160),
            Map.entry("on_badge_normal", 16), Map.entry("on_badge_muted", 16), Map.entry("on_badge_accent", 16),
            Map.entry("on_badge_success", 16), Map.entry("on_badge_warning", 16), Map.entry("on_badge_error", 231),
            Map.entry("notification_background", 238), Map.entry("notification_foreground", 231),
            Map.entry("notification_error", 88), Map.entry("on_notification_error", 231),
            Map.entry("notification_warning", 130), Map.entry("on_notification_warning", 231),
            Map.entry("notification_success", 22), Map.entry("on_notification_success", 231),
            Map.entry("prefix", 214), Map.entry("on_prefix", 16),
            Map.entry("offline", 124), Map.entry("on_offline", 231),
            Map.entry("selection_background", 214), Map.entry("selection_foreground", 16),
            Map.entry("menu_background", 238), Map.entry("menu_frame", 244), Map.entry("menu_item", 252),
            Map.entry("menu_destructive", 203),
            Map.entry("menu_selected_background", 25), Map.entry("menu_selected_foreground", 231),
            Map.entry("menu_selected_destructive", 124), Map.entry("on_menu_selected_destructive", 231));

    /** The outer terminal's own colours: pane cells as their programs sent them, the chrome built in. */
    static final Theme TERMINAL = terminal();

    final String id;
    final long bar;
    final long barActive;
    final long barDim;
    final long accent;
    final long sidebar;
    final long sidebarActive;
    final long sidebarDim;
    final long border;
    final long borderFocus;
    final long header;
    final long headerFocus;
    final long toast;
    final long toastError;
    final long toastWarning;
    final long toastSuccess;
    final long prefix;
    final long offline;
    /** Copy mode's text is the pane's default rendition, so it shows in the pane's colours. */
    final long copyText = Style.DEFAULT;
    final long copySelection;
    final long menuBox;
    final long menuItem;
    final long menuDestructive;
    final long menuSelected;
    final long menuSelectedDestructive;
    /** The progress segment's empty part, a background colour. */
    final int track;
    /** Foreground colours by {@link #TONES} and {@link #AGENT_STATES}; badges by tone. */
    private final int[] tones = new int[TONES.size()];
    private final long[] badges = new long[TONES.size()];
    private final int[] agents = new int[AGENT_STATES.size()];
    /** A palette theme's pane colours (0xRRGGBB): the 16 ANSI colours, then foreground, background, cursor; null for the terminal's own. */
    private final int[] pane;

    /** {@code roles}: every role of {@link #TERMINAL_ROLES} to a {@link Style} colour. */
    private Theme(String id, Map<String, Integer> roles, int[] pane) {
        this.id = id;
        this.pane = pane;
        Roles r = new Roles(roles);
        bar = r.on("tab_bar_background", "tab_bar_foreground");
        barActive = r.on("tab_active_background", "tab_active_foreground") | Style.BOLD;
        barDim = r.on("tab_bar_background", "bar_muted");
        accent = r.on("tab_bar_background", "bar_accent") | Style.BOLD;
        sidebar = r.on("sidebar_background", "sidebar_foreground");
        sidebarActive = r.on("sidebar_active_background", "sidebar_active_foreground") | Style.BOLD;
        sidebarDim = r.on("sidebar_background", "sidebar_dim");
        border = Style.withFg(0, r.get("border"));
        borderFocus = Style.withFg(0, r.get("border_focused"));
        header = r.on("header_background", "header_foreground");
        headerFocus = r.on("header_focused_background", "header_focused_foreground") | Style.BOLD;
        toast = r.on("notification_background", "notification_foreground");
        toastError = r.on("notification_error", "on_notification_error");
        toastWarning = r.on("notification_warning", "on_notification_warning");
        toastSuccess = r.on("notification_success", "on_notification_success");
        prefix = r.on("prefix", "on_prefix") | Style.BOLD;
        offline = r.on("offline", "on_offline") | Style.BOLD;
        copySelection = r.on("selection_background", "selection_foreground");
        menuBox = r.on("menu_background", "menu_frame");
        menuItem = r.on("menu_background", "menu_item");
        menuDestructive = r.on("menu_background", "menu_destructive");
        menuSelected = r.on("menu_selected_background", "menu_selected_foreground") | Style.BOLD;
        menuSelectedDestructive = r.on("menu_selected_destructive", "on_menu_selected_destructive") | Style.BOLD;
        track = r.get("bar_track");
        for (int i = 0; i < TONES.size(); i++) {
            String t = TONES.get(i);
            tones[i] = r.get("bar_" + t);
            badges[i] = r.on("badge_" + t, "on_badge_" + t) | Style.BOLD;
        }
        for (int i = 0; i < AGENT_STATES.size(); i++) {
            agents[i] = r.get("agent_" + AGENT_STATES.get(i));
        }
    }

    /** Role lookups that fail loudly: a role missing from a table is a bug in this class. */
    private record Roles(Map<String, Integer> roles) {
        int get(String role) {
            Integer c = roles.get(role);
            if (c == null) {
                throw new IllegalStateException("the theme has no colour for " + role);
            }
            return c;
        }

        long on(String bg, String fg) {
            return Style.withFg(Style.withBg(0, get(bg)), get(fg));
        }
    }

    private static Theme terminal() {
        Map<String, Integer> roles = new HashMap<>();
        TERMINAL_ROLES.forEach((k, v) -> roles.put(k, Style.indexed(v)));
        return new Theme("terminal", roles, null);
    }

    /**
     * The theme {@code theme.list}'s result shows as active (the entry marked {@code active},
     * else the one named by its {@code active} field); the terminal's own colours when that
     * is the terminal entry or none is found.
     *
     * @throws IllegalArgumentException when the entry's colours are not what the contract says
     */
    static Theme fromList(JsonNode list) {
        JsonNode chosen = null;
        for (JsonNode e : list.path("themes")) {
            if (e.path("active").asBoolean(false)) {
                chosen = e;
                break;
            }
        }
        if (chosen == null) {
            String active = list.path("active").asText("");
            for (JsonNode e : list.path("themes")) {
                if (e.path("id").asText("").equals(active)) {
                    chosen = e;
                    break;
                }
            }
        }
        return chosen == null ? TERMINAL : of(chosen);
    }

    /**
     * One {@code theme.list} entry: the terminal's own colours for the terminal entry (its
     * {@code colors} are null), else its palette and workbench colours.
     *
     * @throws IllegalArgumentException when a colour is missing or not {@code #rrggbb}
     */
    static Theme of(JsonNode entry) {
        JsonNode colors = entry.path("colors");
        if (entry.path("source").asText("").equals("terminal") || !colors.isObject()) {
            return TERMINAL;
        }
        JsonNode wb = entry.path("workbench");
        Map<String, Integer> c = new HashMap<>();
        for (String k : COLOR_KEYS) {
            c.put(k, hex(colors, k));
        }
        for (String k : WORKBENCH_KEYS) {
            c.put(k, hex(wb, k));
        }
        int fg = c.get("foreground");
        int bg = c.get("background");
        // the roles the theme format has no key for, from those it has
        c.put("agent_unknown", c.get("agent_none"));
        c.put("bar_track", Rgb.blend(c.get("tab_bar_background"), c.get("tab_bar_foreground"), 0.25));
        for (String t : TONES) {
            c.put("badge_" + t, c.get("bar_" + t));
            c.put("on_badge_" + t, readable(c.get("bar_" + t), fg, bg));
        }
        for (String l : List.of("error", "warning", "success")) {
            c.put("on_notification_" + l, readable(c.get("notification_" + l), fg, bg));
        }
        c.put("on_prefix", readable(c.get("prefix"), fg, bg));
        c.put("offline", c.get("notification_error"));
        c.put("on_offline", c.get("on_notification_error"));
        c.put("menu_background", c.get("notification_background"));
        c.put("menu_frame", c.get("bar_muted"));
        c.put("menu_item", c.get("notification_foreground"));
        c.put("menu_destructive", c.get("bar_error"));
        c.put("menu_selected_background", c.get("tab_active_background"));
        c.put("menu_selected_foreground", c.get("tab_active_foreground"));
        c.put("menu_selected_destructive", c.get("notification_error"));
        c.put("on_menu_selected_destructive", c.get("on_notification_error"));
        Map<String, Integer> roles = new HashMap<>();
        c.forEach((k, v) -> roles.put(k, Style.rgb((v >> 16) & 255, (v >> 8) & 255, v & 255)));
        int[] pane = new int[19];
        for (int i = 0; i < 16; i++) {
            pane[i] = c.get(ANSI.get(i));
        }
        pane[16] = fg;
        pane[17] = bg;
        pane[18] = c.get("cursor");
        return new Theme(entry.path("id").asText("?"), roles, pane);
    }

    private static int hex(JsonNode table, String key) {
        String s = table.path(key).asText("");
        if (s.length() == 7 && s.charAt(0) == '#') {
            try {
                return Integer.parseInt(s.substring(1), 16);
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("colour " + key + " is " + (s.isEmpty() ? "missing" : "'" + s + "'"));
    }

    /** A tone's colour on the bar's background {@code base}; accent and error are bold. */
    long tone(long base, String tone) {
        int i = Math.max(0, TONES.indexOf(tone == null ? "normal" : tone));
        long b = base & ~(Style.FG_MASK | Style.BOLD);
        boolean bold = TONES.get(i).equals("accent") || TONES.get(i).equals("error");
        return Style.withFg(b, tones[i]) | (bold ? Style.BOLD : 0);
    }

    /** A badge: the tone as its background, a readable foreground, bold. */
    long badge(String tone) {
        return badges[Math.max(0, TONES.indexOf(tone == null ? "normal" : tone))];
    }

    /** The foreground rendition of an agent state's dot: null is no agent, a state this does not know is grey. */
    long agent(String state) {
        String role = state == null ? "none" : switch (state) {
            case "idle", "working", "blocked", "done" -> state;
            default -> "unknown";
        };
        return Style.withFg(0, agents[AGENT_STATES.indexOf(role)]);
    }

    /** A toast's or notification's rendition by its level. */
    long toast(String level) {
        return switch (level == null ? "info" : level) {
            case "error" -> toastError;
            case "warning" -> toastWarning;
            case "success" -> toastSuccess;
            default -> toast;
        };
    }

    /** Whether pane cells show in this theme's colours (a palette theme) rather than the terminal's own. */
    boolean mapsPanes() {
        return pane != null;
    }

    /**
     * The colour a pane cell's {@code color} shows in: the default foreground or background
     * and indices 0–15 become the theme's RGB; indices 16–255 and RGB stay. Unchanged for the
     * terminal's own colours.
     */
    int paneColor(int color, boolean background) {
        if (pane == null) {
            return color;
        }
        int kind = Style.colorKind(color);
        int v = Style.colorValue(color);
        if (kind == Style.COLOR_DEFAULT) {
            return rgb(pane[background ? 17 : 16]);
        }
        if (kind == Style.COLOR_INDEXED && v < 16) {
            return rgb(pane[v]);
        }
        return color;
    }

    /** The theme's cursor colour (0xRRGGBB), or -1 for the terminal's own. */
    int cursor() {
        return pane == null ? -1 : pane[18];
    }

    private static int rgb(int v) {
        return Style.rgb((v >> 16) & 255, (v >> 8) & 255, v & 255);
    }

    /**
     * A foreground for text on {@code bg}: the theme's foreground, else its background, when
     * it reads well there (WCAG 4.5:1); failing both, white or black, whichever reads better.
     */
    static int readable(int bg, int fg, int back) {
        if (contrast(bg, fg) >= READABLE) {
            return fg;
        }
        if (contrast(bg, back) >= READABLE) {
            return back;
        }
        return contrast(bg, 0xffffff) >= contrast(bg, 0x000000) ? 0xffffff : 0x000000;
    }

    /** WCAG contrast ratio of two 0xRRGGBB colours, 1 to 21. */
    static double contrast(int a, int b) {
        return Rgb.contrast(a, b);
    }
}

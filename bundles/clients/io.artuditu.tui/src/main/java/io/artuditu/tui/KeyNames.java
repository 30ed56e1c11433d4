package io.artuditu.tui;

import java.util.Locale;
import java.util.Map;

/** The names keys have in chords ({@code prefix.key}, {@code keymap.bindings}) and on the wire. */
final class KeyNames {
    private static final Map<String, String> CHORD_TO_WIRE = Map.ofEntries(
            Map.entry("Enter", "enter"), Map.entry("Escape", "esc"), Map.entry("Tab", "tab"),
            Map.entry("BTab", "back_tab"), Map.entry("BSpace", "backspace"), Map.entry("Up", "up"),
            Map.entry("Down", "down"), Map.entry("Left", "left"), Map.entry("Right", "right"),
            Map.entry("Home", "home"), Map.entry("End", "end"), Map.entry("PageUp", "page_up"),
            Map.entry("PageDown", "page_down"), Map.entry("PPage", "page_up"), Map.entry("NPage", "page_down"),
            Map.entry("Delete", "delete"), Map.entry("DC", "delete"), Map.entry("Insert", "insert"),
            Map.entry("IC", "insert"));

    private KeyNames() {
    }

    private static final Map<String, String> WIRE_TO_CHORD = Map.ofEntries(
            Map.entry("enter", "Enter"), Map.entry("esc", "Escape"), Map.entry("tab", "Tab"),
            Map.entry("back_tab", "BTab"), Map.entry("backspace", "BSpace"), Map.entry("up", "Up"),
            Map.entry("down", "Down"), Map.entry("left", "Left"), Map.entry("right", "Right"),
            Map.entry("home", "Home"), Map.entry("end", "End"), Map.entry("page_up", "PageUp"),
            Map.entry("page_down", "PageDown"), Map.entry("delete", "Delete"), Map.entry("insert", "Insert"));

    static String chordName(String wire) {
        return WIRE_TO_CHORD.getOrDefault(wire, wire);
    }

    /**
     * Parses a chord such as {@code C-b}, {@code M-Left}, {@code %}, {@code Space}, {@code F5};
     * null when it names no key.
     */
    static Input.Key parse(String chord) {
        boolean c = false;
        boolean a = false;
        boolean s = false;
        String rest = chord;
        while (rest.length() > 2 && rest.charAt(1) == '-') {
            char m = rest.charAt(0);
            if (m == 'C') {
                c = true;
            } else if (m == 'M') {
                a = true;
            } else if (m == 'S') {
                s = true;
            } else {
                break;
            }
            rest = rest.substring(2);
        }
        Input.Key k;
        if (rest.equals("Space")) {
            k = Input.Key.ch(" ");
        } else if (rest.codePointCount(0, rest.length()) == 1) {
            k = Input.Key.ch(c ? rest.toLowerCase(Locale.ROOT) : rest);
        } else if (rest.matches("F([1-9]|1[0-2])")) {
            k = new Input.Key("f", null, Integer.parseInt(rest.substring(1)), false, false, false);
        } else if (CHORD_TO_WIRE.containsKey(rest)) {
            k = Input.Key.named(CHORD_TO_WIRE.get(rest));
        } else {
            return null;
        }
        return k.withMods(c, a, s && !k.name().equals("char"));
    }

    /** Whether {@code key} is the chord {@code want} (case-insensitive letters under ctrl). */
    static boolean matches(Input.Key want, Input.Key key) {
        if (want == null || !want.name().equals(key.name()) || want.ctrl() != key.ctrl() || want.alt() != key.alt()) {
            return false;
        }
        if (want.name().equals("char")) {
            return want.ctrl() ? want.ch().equalsIgnoreCase(key.ch()) : want.ch().equals(key.ch());
        }
        return want.f() == key.f() && want.shift() == key.shift();
    }
}

package io.artuditu.vt;

import java.util.Locale;

/**
 * The named keys {@link Key} accepts and the escape sequence of each one that has one. The
 * name of a constant in lower case is the key's name ({@code PAGE_UP} is "page_up").
 */
enum KeyName {
    ENTER, TAB, BACK_TAB, BACKSPACE, ESC, SPACE,
    UP('A', 0), DOWN('B', 0), RIGHT('C', 0), LEFT('D', 0), HOME('H', 0), END('F', 0),
    INSERT('~', 2), DELETE('~', 3), PAGE_UP('~', 5), PAGE_DOWN('~', 6),
    F1('P', 0), F2('Q', 0), F3('R', 0), F4('S', 0),
    F5('~', 15), F6('~', 17), F7('~', 18), F8('~', 19), F9('~', 20), F10('~', 21),
    F11('~', 23), F12('~', 24);

    /** The final byte of the key's sequence, 0 for a key without one (enter, tab, ...). */
    final char last;
    /** The number before {@code ~} for the editing and F5–F12 keys, else 0. */
    final int number;

    KeyName() {
        this((char) 0, 0);
    }

    KeyName(char last, int number) {
        this.last = last;
        this.number = number;
    }

    String spec() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The key named {@code name} in any case ("escape" is ESC), or null. */
    static KeyName of(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("escape")) {
            return ESC;
        }
        for (KeyName k : values()) {
            if (k.spec().equals(lower)) {
                return k;
            }
        }
        return null;
    }

    /**
     * The key's sequence with the xterm modifier parameter {@code param} (1 + shift + 2 alt +
     * 4 ctrl; 1 for none): {@code CSI n ~} or {@code CSI n ; param ~}; {@code SS3 x} for F1–F4
     * and, in application cursor mode, the cursor keys; {@code CSI x} or {@code CSI 1 ; param x}
     * otherwise. Only for keys with {@link #last} set.
     */
    String sequence(int param, boolean applicationCursor) {
        String mod = param > 1 ? ";" + param : "";
        if (number > 0) {
            return "\033[" + number + mod + '~';
        }
        if (param > 1) {
            return "\033[1" + mod + last;
        }
        boolean ss3 = compareTo(F1) >= 0 || applicationCursor;
        return (ss3 ? "\033O" : "\033[") + last;
    }
}

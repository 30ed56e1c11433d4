package io.artuditu.vt;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Key presses to the bytes a program on the PTY expects, as xterm sends them in its default
 * configuration (with Alt as an {@code ESC} prefix), following the terminal's current modes.
 * {@code docs/vt.md}, "Input encoding", has the full table. Pastes, mouse and focus are in
 * {@link Input}.
 */
public final class Keys {
    /** Longest spec {@link #parse} accepts, in UTF-16 units. */
    public static final int MAX_SPEC = 64;

    private Keys() {
    }

    /**
     * Reads a key spec: modifiers joined to a key with {@code '+'}, for example {@code "q"},
     * {@code "ctrl+c"}, {@code "alt+shift+f5"}, {@code "ctrl++"}. Modifiers are {@code ctrl},
     * {@code alt} and {@code shift}, in any order and any case; the key is a name from
     * {@link Key#name()} in any case or a single character, whose case counts.
     *
     * @throws NullPointerException if {@code spec} is null
     * @throws IllegalArgumentException naming the bad part, for an empty spec, one longer than
     *     {@link #MAX_SPEC}, an empty part, an unknown modifier, a modifier given twice or an
     *     unknown key
     */
    public static Key parse(String spec) {
        if (spec.length() > MAX_SPEC) {
            throw new IllegalArgumentException(
                    "key spec is " + spec.length() + " characters long; at most " + MAX_SPEC + " are allowed");
        }
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("empty key spec");
        }
        // The key is everything after the last '+' that joins, so "+" and "ctrl++" name the '+' key.
        int join;
        if (spec.equals("+")) {
            join = -1;
        } else if (spec.endsWith("++")) {
            join = spec.length() - 2;
        } else {
            join = spec.lastIndexOf('+');
        }
        String keyPart = spec.substring(join + 1);
        boolean ctrl = false;
        boolean alt = false;
        boolean shift = false;
        if (join >= 0) {
            for (String mod : spec.substring(0, join).split("\\+", -1)) {
                String m = mod.toLowerCase(Locale.ROOT);
                boolean seen;
                if (m.equals("ctrl")) {
                    seen = ctrl;
                    ctrl = true;
                } else if (m.equals("alt")) {
                    seen = alt;
                    alt = true;
                } else if (m.equals("shift")) {
                    seen = shift;
                    shift = true;
                } else if (m.isEmpty()) {
                    throw new IllegalArgumentException("empty modifier in key spec '" + spec + "'");
                } else {
                    throw new IllegalArgumentException("unknown modifier '" + mod + "' in key spec '" + spec
                            + "' (ctrl, alt or shift)");
                }
                if (seen) {
                    throw new IllegalArgumentException("modifier '" + mod + "' given twice in key spec '" + spec + "'");
                }
            }
        }
        if (keyPart.isEmpty()) {
            throw new IllegalArgumentException("no key after the modifiers in key spec '" + spec + "'");
        }
        try {
            return new Key(keyPart, ctrl, alt, shift);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " in key spec '" + spec + "'", e);
        }
    }

    /**
     * The bytes the key sends to a program in {@code terminal}'s current modes
     * ({@link Mode#APPLICATION_CURSOR_KEYS} and, for enter, {@link Mode#NEWLINE}).
     *
     * <ul>
     *   <li>Cursor, editing and function keys: their xterm sequence; with modifiers
     *       {@code CSI 1 ; m x} or {@code CSI n ; m ~} where m = 1 + shift + 2·alt + 4·ctrl.
     *   <li>enter {@code CR} ({@code CR LF} under LNM), tab {@code HT}, back_tab and shift+tab
     *       {@code CSI Z}, backspace {@code DEL} (ctrl+backspace {@code BS}), esc {@code ESC}.
     *   <li>A character as UTF-8; shift upper-cases it, ctrl maps it to its control code as
     *       xterm does (ctrl+a is 0x01, ctrl+space 0x00, ctrl+? 0x7f) and is ignored where there
     *       is none.
     *   <li>alt puts {@code ESC} before everything that has no modifier parameter.
     * </ul>
     */
    public static byte[] encode(Key key, Terminal terminal) {
        KeyName k = key.named();
        String s;
        if (k == null || k == KeyName.SPACE) {
            s = Character.toString(character(key));
        } else if (k.last != 0) {
            int param = 1 + (key.shift() ? 1 : 0) + (key.alt() ? 2 : 0) + (key.ctrl() ? 4 : 0);
            return ascii(k.sequence(param, terminal.mode(Mode.APPLICATION_CURSOR_KEYS)));
        } else {
            s = switch (k) {
                case ENTER -> terminal.mode(Mode.NEWLINE) ? "\r\n" : "\r";
                case TAB -> key.shift() ? "\033[Z" : "\t";
                case BACK_TAB -> "\033[Z";
                case BACKSPACE -> key.ctrl() ? "\b" : "\177";
                default -> "\033";
            };
        }
        return (key.alt() ? "\033" + s : s).getBytes(StandardCharsets.UTF_8);
    }

    private static int character(Key key) {
        int cp = key.codepoint();
        if (key.shift()) {
            cp = Character.toUpperCase(cp);
        }
        if (!key.ctrl()) {
            return cp;
        }
        // The control mapping of Xlib's XLookupString, which xterm uses, plus ctrl+? = DEL.
        if (cp == ' ' || (cp >= '@' && cp <= '~')) {
            return cp & 0x1f;
        }
        return switch (cp) {
            case '2' -> 0;
            case '3', '4', '5', '6', '7' -> cp - '3' + 0x1b;
            case '8', '?' -> 0x7f;
            case '/' -> 0x1f;
            default -> cp;
        };
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}

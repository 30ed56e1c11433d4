package io.artuditu.vt;

import java.nio.charset.StandardCharsets;

/**
 * Pastes, mouse events and focus changes to the bytes a program on the PTY expects, as xterm
 * sends them, following the modes the program set on the terminal. Keys are in {@link Keys};
 * {@code docs/vt.md}, "Input encoding", states every rule.
 */
public final class Input {
    private static final byte[] NOTHING = new byte[0];
    private static final String PASTE_START = "\033[200~";
    private static final String PASTE_END = "\033[201~";
    /** Largest 1-based coordinate the X10 mouse encoding can carry (32 + 223 = 255). */
    static final int X10_MAX = 223;

    private Input() {
    }

    /**
     * The bytes for pasting {@code text}: its line breaks ({@code CR LF}, {@code LF}) become
     * {@code CR}, the rest is sent as UTF-8. Under {@link Mode#BRACKETED_PASTE} the text is
     * wrapped in {@code CSI 200 ~} ... {@code CSI 201 ~}, and every {@code CSI 200 ~} or
     * {@code CSI 201 ~} inside it (also one that only forms once another is removed) is
     * removed first, so pasted text cannot end the bracket early. Empty text sends nothing.
     */
    public static byte[] paste(String text, Terminal terminal) {
        if (text.isEmpty()) {
            return NOTHING;
        }
        boolean bracketed = terminal.mode(Mode.BRACKETED_PASTE);
        StringBuilder out = new StringBuilder(text.length() + 12);
        if (bracketed) {
            out.append(PASTE_START);
        }
        int start = out.length();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                out.append('\r');
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
            } else {
                out.append(c);
                if (bracketed && c == '~' && endsWithBracket(out, start)) {
                    out.setLength(out.length() - PASTE_END.length());
                }
            }
        }
        if (bracketed) {
            out.append(PASTE_END);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the text after {@code start} ends with {@code CSI 200 ~} or {@code CSI 201 ~}. */
    private static boolean endsWithBracket(StringBuilder out, int start) {
        int n = out.length() - PASTE_END.length();
        if (n < start) {
            return false;
        }
        char d = out.charAt(n + 4);
        return (d == '0' || d == '1') && out.charAt(n) == '\033' && out.charAt(n + 1) == '['
                && out.charAt(n + 2) == '2' && out.charAt(n + 3) == '0';
    }

    /**
     * The report of {@code event}, or an empty array when the program did not ask for it:
     * nothing without a mouse mode (1000, 1002, 1003); {@link MouseEvent.Action#DRAG} only
     * under {@link Mode#MOUSE_DRAG} or {@link Mode#MOUSE_ANY}; {@link MouseEvent.Action#MOTION}
     * only under {@link Mode#MOUSE_ANY}.
     *
     * <p>The button value is 0, 1, 2 for left, middle, right (3 for a release in the X10
     * form), 64 and 65 for the wheel, plus 32 for motion, 4 shift, 8 alt, 16 ctrl. Under
     * {@link Mode#MOUSE_SGR} the report is {@code CSI < b ; x ; y M} ({@code m} for a
     * release); otherwise {@code CSI M} and three bytes, 32 plus the value, x and y, with x
     * and y capped at 223. x and y are 1-based; a position beyond the screen is taken as its
     * last column or row.
     */
    public static byte[] mouse(MouseEvent event, Terminal terminal) {
        MouseEvent.Action action = event.action();
        boolean any = terminal.mode(Mode.MOUSE_ANY);
        if (!terminal.wantsMouse()
                || (action == MouseEvent.Action.DRAG && !any && !terminal.mode(Mode.MOUSE_DRAG))
                || (action == MouseEvent.Action.MOTION && !any)) {
            return NOTHING;
        }
        boolean sgr = terminal.mode(Mode.MOUSE_SGR);
        int b = switch (action) {
            case PRESS -> event.button().ordinal() - 1;
            case RELEASE -> sgr ? event.button().ordinal() - 1 : 3;
            case DRAG -> 32 + event.button().ordinal() - 1;
            case MOTION -> 32 + 3;
            case WHEEL_UP -> 64;
            case WHEEL_DOWN -> 65;
        };
        b += (event.shift() ? 4 : 0) + (event.alt() ? 8 : 0) + (event.ctrl() ? 16 : 0);
        int x = Math.min(event.col(), terminal.cols() - 1) + 1;
        int y = Math.min(event.row(), terminal.rows() - 1) + 1;
        if (sgr) {
            char end = action == MouseEvent.Action.RELEASE ? 'm' : 'M';
            return Keys.ascii("\033[<" + b + ';' + x + ';' + y + end);
        }
        return new byte[] {0x1b, '[', 'M', (byte) (32 + b), (byte) (32 + Math.min(x, X10_MAX)),
                (byte) (32 + Math.min(y, X10_MAX))};
    }

    /** {@code CSI I} when the terminal gains focus, {@code CSI O} when it loses it, under {@link Mode#FOCUS_EVENTS}; else empty. */
    public static byte[] focus(boolean in, Terminal terminal) {
        return terminal.mode(Mode.FOCUS_EVENTS) ? Keys.ascii(in ? "\033[I" : "\033[O") : NOTHING;
    }
}

package io.artuditu.tui;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes what the outer terminal sends (xterm's encodings: CSI and SS3 keys with modifier
 * parameters, SGR mouse reports, bracketed paste, DECRPM answers) into {@link Input}s. A
 * lone ESC is ambiguous until the next character or a short pause: {@link #pendingEscape()}
 * says one is held, {@link #flush()} turns it into the Escape key.
 */
final class InputDecoder {
    /** A paste longer than this is cut (the attach line limit is 12 MiB). */
    static final int MAX_PASTE = 4 << 20;
    private final StringBuilder buf = new StringBuilder();
    private StringBuilder paste;

    boolean pendingEscape() {
        return paste == null && buf.length() > 0;
    }

    /** Decodes what can be decoded of {@code chars}; an incomplete sequence waits for more. */
    List<Input> feed(char[] chars, int n) {
        buf.append(chars, 0, n);
        List<Input> out = new ArrayList<>();
        int i = 0;
        while (i < buf.length()) {
            if (paste != null) {
                int end = buf.indexOf("\033[201~", i);
                if (end < 0) {
                    // keep a possible partial terminator
                    int keep = Math.max(i, buf.length() - 5);
                    appendPaste(buf, i, keep);
                    i = keep;
                    break;
                }
                appendPaste(buf, i, end);
                out.add(new Input.Paste(paste.toString()));
                paste = null;
                i = end + 6;
                continue;
            }
            int used = decodeOne(i, out);
            if (used == 0) {
                break; // incomplete
            }
            i += used;
        }
        buf.delete(0, i);
        return out;
    }

    /** The held bytes as keys: a lone ESC becomes Escape, an unfinished sequence its characters. */
    List<Input> flush() {
        List<Input> out = new ArrayList<>();
        if (paste != null || buf.length() == 0) {
            return out;
        }
        if (buf.length() == 1 && buf.charAt(0) == 27) {
            out.add(Input.Key.named("esc"));
        } else if (buf.length() == 2 && buf.charAt(0) == 27) {
            out.add(Input.Key.ch(String.valueOf(buf.charAt(1))).withMods(false, true, false));
        } else {
            out.add(Input.Key.named("esc"));
            for (int i = 1; i < buf.length(); i++) {
                out.add(Input.Key.ch(String.valueOf(buf.charAt(i))));
            }
        }
        buf.setLength(0);
        return out;
    }

    private void appendPaste(CharSequence s, int from, int to) {
        int room = MAX_PASTE - paste.length();
        paste.append(s, from, from + Math.max(0, Math.min(room, to - from)));
    }

    /** Decodes the input at {@code i}; returns the chars used, 0 if incomplete. */
    private int decodeOne(int i, List<Input> out) {
        char c = buf.charAt(i);
        int left = buf.length() - i;
        if (c == 27) {
            if (left == 1) {
                return 0;
            }
            char d = buf.charAt(i + 1);
            if (d == '[') {
                return csi(i, out);
            }
            if (d == 'O') {
                if (left < 3) {
                    return 0;
                }
                Input.Key k = ss3(buf.charAt(i + 2));
                if (k != null) {
                    out.add(k);
                    return 3;
                }
                out.add(Input.Key.ch("O").withMods(false, true, true));
                return 2;
            }
            if (d == 27) {
                out.add(Input.Key.named("esc"));
                return 1;
            }
            int used = plain(i + 1, out);
            if (used == 0) {
                return 0;
            }
            Input last = out.remove(out.size() - 1);
            Input.Key k = (Input.Key) last;
            out.add(k.withMods(k.ctrl(), true, k.shift()));
            return used + 1;
        }
        return plain(i, out);
    }

    /** One character that is not an escape sequence. */
    private int plain(int i, List<Input> out) {
        char c = buf.charAt(i);
        if (Character.isHighSurrogate(c)) {
            if (i + 1 >= buf.length()) {
                return 0;
            }
            out.add(Input.Key.ch(buf.substring(i, i + 2)));
            return 2;
        }
        switch (c) {
            case '\r', '\n' -> out.add(Input.Key.named("enter"));
            case '\t' -> out.add(Input.Key.named("tab"));
            case 127, 8 -> out.add(Input.Key.named("backspace"));
            case 0 -> out.add(Input.Key.ch(" ").withMods(true, false, false));
            case 27 -> out.add(Input.Key.named("esc"));
            default -> {
                if (c < 27) {
                    out.add(Input.Key.ch(String.valueOf((char) ('a' + c - 1))).withMods(true, false, false));
                } else if (c < 32) {
                    out.add(Input.Key.ch(String.valueOf((char) (c + 64))).withMods(true, false, false));
                } else {
                    out.add(Input.Key.ch(String.valueOf(c)));
                }
            }
        }
        return 1;
    }

    private static Input.Key ss3(char f) {
        return switch (f) {
            case 'A' -> Input.Key.named("up");
            case 'B' -> Input.Key.named("down");
            case 'C' -> Input.Key.named("right");
            case 'D' -> Input.Key.named("left");
            case 'H' -> Input.Key.named("home");
            case 'F' -> Input.Key.named("end");
            case 'P', 'Q', 'R', 'S' -> new Input.Key("f", null, f - 'P' + 1, false, false, false);
            default -> null;
        };
    }

    /** ESC [ params final. */
    private int csi(int i, List<Input> out) {
        int j = i + 2;
        while (j < buf.length()) {
            char c = buf.charAt(j);
            if (c >= 0x40 && c <= 0x7e) {
                break;
            }
            j++;
            if (j - i > 64) {
                out.add(Input.Key.named("esc"));
                return 1; // not a sequence we know: give the ESC as a key and go on
            }
        }
        if (j >= buf.length()) {
            return 0;
        }
        String params = buf.substring(i + 2, j);
        char fin = buf.charAt(j);
        int used = j - i + 1;
        if (params.startsWith("<") && (fin == 'M' || fin == 'm')) {
            mouse(params.substring(1), fin == 'M', out);
            return used;
        }
        if (params.startsWith("?") && fin == 'y' && params.endsWith("$")) {
            String[] p = params.substring(1, params.length() - 1).split(";");
            if (p.length == 2) {
                out.add(new Input.ModeReport(num(p[0], 0), num(p[1], 0)));
            }
            return used;
        }
        if (fin == '~' && params.equals("200")) {
            paste = new StringBuilder();
            return used;
        }
        if (fin == 'I' || fin == 'O') {
            return used; // focus reports
        }
        String[] p = params.split(";");
        int mod = p.length > 1 ? num(p[1], 1) - 1 : 0;
        boolean shift = (mod & 1) != 0;
        boolean alt = (mod & 2) != 0;
        boolean ctrl = (mod & 4) != 0;
        Input.Key k = switch (fin) {
            case 'A', 'B', 'C', 'D', 'H', 'F', 'P', 'Q', 'R', 'S' -> ss3(fin);
            case 'Z' -> Input.Key.named("back_tab");
            case '~' -> tilde(num(p[0], 0));
            default -> null;
        };
        if (k == null) {
            return used; // an unknown sequence is dropped whole
        }
        if (k.name().equals("back_tab")) {
            out.add(k);
        } else {
            out.add(k.withMods(ctrl, alt, shift));
        }
        return used;
    }

    private static Input.Key tilde(int n) {
        return switch (n) {
            case 1, 7 -> Input.Key.named("home");
            case 2 -> Input.Key.named("insert");
            case 3 -> Input.Key.named("delete");
            case 4, 8 -> Input.Key.named("end");
            case 5 -> Input.Key.named("page_up");
            case 6 -> Input.Key.named("page_down");
            case 11, 12, 13, 14, 15 -> new Input.Key("f", null, n - 10, false, false, false);
            case 17, 18, 19, 20, 21 -> new Input.Key("f", null, n - 11, false, false, false);
            case 23, 24 -> new Input.Key("f", null, n - 12, false, false, false);
            default -> null;
        };
    }

    private static void mouse(String params, boolean press, List<Input> out) {
        String[] p = params.split(";");
        if (p.length != 3) {
            return;
        }
        int b = num(p[0], 0);
        int x = num(p[1], 1) - 1;
        int y = num(p[2], 1) - 1;
        int button = b & 3;
        Input.Mouse.Kind kind;
        if ((b & 64) != 0) {
            kind = button == 0 ? Input.Mouse.Kind.WHEEL_UP : Input.Mouse.Kind.WHEEL_DOWN;
            if (!press || button > 1) {
                return;
            }
        } else if ((b & 32) != 0) {
            kind = button == 3 ? Input.Mouse.Kind.MOVE : Input.Mouse.Kind.DRAG;
        } else {
            kind = press ? Input.Mouse.Kind.DOWN : Input.Mouse.Kind.UP;
        }
        out.add(new Input.Mouse(kind, button, x, y));
    }

    private static int num(String s, int dflt) {
        if (s.isEmpty()) {
            return dflt;
        }
        try {
            return Integer.parseInt(s.replaceAll("[^0-9].*", ""));
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}

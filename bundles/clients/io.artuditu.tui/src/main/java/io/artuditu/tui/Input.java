package io.artuditu.tui;

/** What the person did at the outer terminal, decoded by {@link InputDecoder}. */
sealed interface Input {
    /**
     * A key in the attach protocol's vocabulary: {@code name} is {@code "char"} (then
     * {@code ch} holds the text), {@code "f"} (then {@code f} is 1–12) or a named key such
     * as {@code "enter"}, {@code "up"}, {@code "page_up"}.
     */
    record Key(String name, String ch, int f, boolean ctrl, boolean alt, boolean shift) implements Input {
        static Key ch(String c) {
            return new Key("char", c, 0, false, false, false);
        }

        static Key named(String name) {
            return new Key(name, null, 0, false, false, false);
        }

        Key withMods(boolean c, boolean a, boolean s) {
            return new Key(name, ch, f, c, a, s);
        }

        boolean isChar(String c) {
            return name.equals("char") && c.equals(ch) && !ctrl && !alt;
        }

        /** The {@code input} line of attach.pane for this key (built by hand: it is on every keystroke). */
        String toAttach() {
            StringBuilder b = new StringBuilder(64).append("{\"input\":{\"key\":{\"code\":");
            if (name.equals("char")) {
                quote(b.append("{\"char\":"), ch).append('}');
            } else if (name.equals("f")) {
                b.append("{\"f\":").append(f).append('}');
            } else {
                quote(b, name);
            }
            if (ctrl || alt || shift) {
                b.append(",\"mods\":{");
                String sep = "";
                if (ctrl) {
                    b.append("\"ctrl\":true");
                    sep = ",";
                }
                if (alt) {
                    b.append(sep).append("\"alt\":true");
                    sep = ",";
                }
                if (shift) {
                    b.append(sep).append("\"shift\":true");
                }
                b.append('}');
            }
            return b.append("}}}").toString();
        }

        private static StringBuilder quote(StringBuilder b, String s) {
            b.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
            return b.append('"');
        }

        /** tmux-style name: {@code C-b}, {@code M-x}, {@code Up}, {@code %}. */
        String chord() {
            String base = switch (name) {
                case "char" -> ch.equals(" ") ? "Space" : ch;
                case "f" -> "F" + f;
                default -> KeyNames.chordName(name);
            };
            return (ctrl ? "C-" : "") + (alt ? "M-" : "") + (shift && !name.equals("char") ? "S-" : "") + base;
        }
    }

    /** Text pasted while bracketed paste was on. */
    record Paste(String text) implements Input {
    }

    /** An SGR mouse report: button 0–2, or 64/65 for the wheel; x, y are 0-based. */
    record Mouse(Kind kind, int button, int x, int y) implements Input {
        enum Kind { DOWN, UP, DRAG, MOVE, WHEEL_UP, WHEEL_DOWN }
    }

    /** A DECRPM answer: the terminal reports whether {@code mode} is supported. */
    record ModeReport(int mode, int value) implements Input {
    }
}

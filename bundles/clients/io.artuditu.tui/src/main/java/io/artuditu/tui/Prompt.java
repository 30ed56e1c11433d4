package io.artuditu.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A one-line editor on the bottom line: the {@code :} command line, renames, searches. */
final class Prompt {
    /** Longest text a prompt takes. */
    static final int MAX = 4096;

    enum Result { EDITING, DONE, CANCEL }

    final String label;
    final Consumer<String> done;
    private final StringBuilder text;
    private int cursor;

    Prompt(String label, String initial, Consumer<String> done) {
        this.label = label;
        this.done = done;
        this.text = new StringBuilder(initial);
        this.cursor = text.length();
    }

    String text() {
        return text.toString();
    }

    String beforeCursor() {
        return text.substring(0, cursor);
    }

    void insert(String s) {
        int room = MAX - text.length();
        if (room <= 0) {
            return;
        }
        String t = s.length() > room ? s.substring(0, room) : s;
        text.insert(cursor, t);
        cursor += t.length();
    }

    Result key(Input.Key k) {
        if (k.name().equals("char") && !k.ctrl() && !k.alt()) {
            insert(k.ch());
            return Result.EDITING;
        }
        if (k.ctrl() && k.name().equals("char")) {
            switch (k.ch()) {
                case "a" -> cursor = 0;
                case "e" -> cursor = text.length();
                case "u" -> { text.delete(0, cursor); cursor = 0; }
                case "k" -> text.setLength(cursor);
                case "c", "g" -> { return Result.CANCEL; }
                case "w" -> {
                    int i = cursor;
                    while (i > 0 && text.charAt(i - 1) == ' ') {
                        i--;
                    }
                    while (i > 0 && text.charAt(i - 1) != ' ') {
                        i--;
                    }
                    text.delete(i, cursor);
                    cursor = i;
                }
                default -> { }
            }
            return Result.EDITING;
        }
        switch (k.name()) {
            case "enter" -> { return Result.DONE; }
            case "esc" -> { return Result.CANCEL; }
            case "backspace" -> {
                if (cursor > 0) {
                    int n = Character.isLowSurrogate(text.charAt(cursor - 1)) && cursor > 1 ? 2 : 1;
                    text.delete(cursor - n, cursor);
                    cursor -= n;
                }
            }
            case "delete" -> {
                if (cursor < text.length()) {
                    text.deleteCharAt(cursor);
                }
            }
            case "left" -> cursor = Math.max(0, cursor - 1);
            case "right" -> cursor = Math.min(text.length(), cursor + 1);
            case "home" -> cursor = 0;
            case "end" -> cursor = text.length();
            default -> { }
        }
        return Result.EDITING;
    }

    /** Splits a command line as a POSIX shell would split words: quotes and backslashes, nothing else. */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    w.append(line.charAt(++i));
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                if (w == null) {
                    w = new StringBuilder();
                }
            } else if (c == '\\' && i + 1 < line.length()) {
                if (w == null) {
                    w = new StringBuilder();
                }
                w.append(line.charAt(++i));
            } else if (c == ' ' || c == '\t') {
                if (w != null) {
                    out.add(w.toString());
                    w = null;
                }
            } else {
                if (w == null) {
                    w = new StringBuilder();
                }
                w.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unclosed quote " + quote);
        }
        if (w != null) {
            out.add(w.toString());
        }
        return out;
    }
}

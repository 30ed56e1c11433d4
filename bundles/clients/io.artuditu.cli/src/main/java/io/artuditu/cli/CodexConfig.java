package io.artuditu.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Just enough of TOML to find and edit one top-level key of codex's {@code config.toml} as
 * text, so the rest of the file (comments, order, spacing) stays as the user wrote it: the
 * top-level keys' spans (a key's line, through its value, to the end of its line) and where
 * the first table begins. Strings of all four kinds, arrays and inline tables across lines,
 * and comments are stepped over; anything else it cannot follow is {@link Malformed}.
 */
final class CodexConfig {
    /** The file is not TOML this scanner can follow; nothing is changed. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    /**
     * One top-level {@code key = value} line.
     *
     * @param key the key as written, without quotes when it was one quoted segment
     * @param start the offset its line starts at
     * @param valueStart the offset of its value
     * @param valueEnd the offset just past its value
     * @param end the offset just past its line (and the line's comment and newline), or the text's end
     */
    record Entry(String key, int start, int valueStart, int valueEnd, int end) {
    }

    /**
     * @param entries the top-level keys, in file order
     * @param firstTable the offset of the line of the first {@code [table]} or {@code [[array]]} header, or -1
     */
    record Scan(List<Entry> entries, int firstTable) {
        Entry find(String key) {
            for (Entry e : entries) {
                if (e.key().equals(key)) {
                    return e;
                }
            }
            return null;
        }
    }

    private final String s;
    private int i;

    private CodexConfig(String s) {
        this.s = s;
    }

    static Scan scan(String text) throws Malformed {
        return new CodexConfig(text).top();
    }

    private Scan top() throws Malformed {
        List<Entry> entries = new ArrayList<>();
        int n = s.length();
        while (i < n) {
            int lineStart = i;
            spaces();
            if (i >= n) {
                break;
            }
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                i++;
                continue;
            }
            if (c == '#') {
                endOfLine();
                continue;
            }
            if (c == '[') {
                return new Scan(entries, lineStart);
            }
            String key = key();
            spaces();
            if (i >= n || s.charAt(i) != '=') {
                throw new Malformed("line " + line(lineStart) + ": expected key = value");
            }
            i++;
            spaces();
            int valueStart = i;
            value();
            int valueEnd = i;
            spaces();
            if (i < n && s.charAt(i) == '#') {
                endOfLine();
            } else if (i < n && (s.charAt(i) == '\n' || s.charAt(i) == '\r')) {
                endOfLine();
            } else if (i < n) {
                throw new Malformed("line " + line(lineStart) + ": unexpected text after the value");
            }
            entries.add(new Entry(key, lineStart, valueStart, valueEnd, i));
        }
        return new Scan(entries, -1);
    }

    /** A key up to its {@code =}: one quoted segment comes back unquoted, any other key as written. */
    private String key() throws Malformed {
        int start = i;
        int quotedStart = -1;
        int quotedEnd = -1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                quotedStart = i;
                if (c == '"') {
                    basic();
                } else {
                    literal();
                }
                quotedEnd = i;
            } else if (c == '=' || c == '\n' || c == '\r' || c == '#') {
                break;
            } else {
                i++;
            }
        }
        String raw = s.substring(start, i).strip();
        if (raw.isEmpty()) {
            throw new Malformed("line " + line(start) + ": a key is missing");
        }
        if (quotedStart == start && s.substring(quotedEnd, i).isBlank()) {
            return unquote(s.substring(quotedStart, quotedEnd));
        }
        return raw;
    }

    private void value() throws Malformed {
        if (i >= s.length()) {
            throw new Malformed("line " + line(i) + ": a value is missing");
        }
        char c = s.charAt(i);
        if (c == '"' || c == '\'') {
            string();
        } else if (c == '[' || c == '{') {
            int depth = 0;
            int start = i;
            do {
                if (i >= s.length()) {
                    throw new Malformed("line " + line(start) + ": an array or inline table is not closed");
                }
                char d = s.charAt(i);
                if (d == '"' || d == '\'') {
                    string();
                    continue;
                }
                if (d == '#') {
                    endOfLine();
                    continue;
                }
                if (d == '[' || d == '{') {
                    depth++;
                } else if (d == ']' || d == '}') {
                    depth--;
                }
                i++;
            } while (depth > 0);
        } else {
            while (i < s.length() && "\n\r#".indexOf(s.charAt(i)) < 0) {
                i++;
            }
            while (i > 0 && (s.charAt(i - 1) == ' ' || s.charAt(i - 1) == '\t')) {
                i--;
            }
        }
    }

    private void string() throws Malformed {
        if (s.startsWith("\"\"\"", i) || s.startsWith("'''", i)) {
            String delim = s.substring(i, i + 3);
            int start = i;
            i += 3;
            while (true) {
                if (i >= s.length()) {
                    throw new Malformed("line " + line(start) + ": a multi-line string is not closed");
                }
                if (delim.equals("\"\"\"") && s.charAt(i) == '\\') {
                    i += 2;
                    continue;
                }
                if (s.startsWith(delim, i)) {
                    i += 3;
                    // up to two quotes of the delimiter's kind may end the content itself
                    for (int k = 0; k < 2 && i < s.length() && s.charAt(i) == delim.charAt(0); k++) {
                        i++;
                    }
                    return;
                }
                i++;
            }
        }
        if (s.charAt(i) == '"') {
            basic();
        } else {
            literal();
        }
    }

    private void basic() throws Malformed {
        int start = i++;
        while (i < s.length() && s.charAt(i) != '\n') {
            char c = s.charAt(i++);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return;
            }
        }
        throw new Malformed("line " + line(start) + ": a string is not closed");
    }

    private void literal() throws Malformed {
        int start = i++;
        while (i < s.length() && s.charAt(i) != '\n') {
            if (s.charAt(i++) == '\'') {
                return;
            }
        }
        throw new Malformed("line " + line(start) + ": a string is not closed");
    }

    private void spaces() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private void endOfLine() {
        while (i < s.length() && s.charAt(i) != '\n') {
            i++;
        }
        if (i < s.length()) {
            i++;
        }
    }

    private int line(int offset) {
        int n = 1;
        for (int k = 0; k < offset && k < s.length(); k++) {
            if (s.charAt(k) == '\n') {
                n++;
            }
        }
        return n;
    }

    /**
     * The strings of an array value of nothing but one-line strings ({@code ["a", 'b']},
     * across lines, with comments), or null for any other value.
     */
    static List<String> stringArray(String value) {
        CodexConfig p = new CodexConfig(value);
        List<String> out = new ArrayList<>();
        try {
            if (!value.startsWith("[")) {
                return null;
            }
            p.i = 1;
            boolean needComma = false;
            while (true) {
                p.blanks();
                if (p.i >= value.length()) {
                    return null;
                }
                char c = value.charAt(p.i);
                if (c == ']') {
                    p.i++;
                    p.blanks();
                    return p.i == value.length() ? out : null;
                }
                if (needComma) {
                    if (c != ',') {
                        return null;
                    }
                    p.i++;
                    needComma = false;
                    continue;
                }
                if (c != '"' && c != '\'' || value.startsWith("\"\"\"", p.i) || value.startsWith("'''", p.i)) {
                    return null;
                }
                int q = p.i;
                if (c == '"') {
                    p.basic();
                } else {
                    p.literal();
                }
                out.add(unquote(value.substring(q, p.i)));
                needComma = true;
            }
        } catch (Malformed | RuntimeException e) {
            return null;
        }
    }

    private void blanks() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '#') {
                endOfLine();
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                i++;
            } else {
                return;
            }
        }
    }

    /** The text of a one-line basic ({@code "…"}, with escapes) or literal ({@code '…'}) string. */
    static String unquote(String q) {
        if (q.startsWith("'")) {
            return q.substring(1, q.length() - 1);
        }
        StringBuilder b = new StringBuilder();
        for (int k = 1; k < q.length() - 1; k++) {
            char c = q.charAt(k);
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = q.charAt(++k);
            switch (e) {
                case 'b': b.append('\b'); break;
                case 't': b.append('\t'); break;
                case 'n': b.append('\n'); break;
                case 'f': b.append('\f'); break;
                case 'r': b.append('\r'); break;
                case 'u':
                    b.appendCodePoint(Integer.parseInt(q.substring(k + 1, k + 5), 16));
                    k += 4;
                    break;
                case 'U':
                    b.appendCodePoint(Integer.parseInt(q.substring(k + 1, k + 9), 16));
                    k += 8;
                    break;
                default: b.append(e);
            }
        }
        return b.toString();
    }

    /** A TOML basic string. */
    static String quote(String v) {
        StringBuilder b = new StringBuilder(v.length() + 2).append('"');
        for (int k = 0; k < v.length(); k++) {
            char c = v.charAt(k);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04X", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}

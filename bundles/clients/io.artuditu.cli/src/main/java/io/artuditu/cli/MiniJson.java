package io.artuditu.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON for the thin client: split a reply object into its top-level members
 * as raw text, read a string member, and quote strings. Loading a full JSON library costs
 * more than a whole {@code artu ping}, so the hot path uses this; {@code uhp schema}
 * uses Jackson.
 */
final class MiniJson {
    private static final String HEX = "0123456789abcdef";
    private final String s;
    private int i;

    private MiniJson(String s) {
        this.s = s;
    }

    /** The members of a JSON object, each value as its raw JSON text. */
    static Map<String, String> members(String json) {
        MiniJson p = new MiniJson(json);
        p.ws();
        p.expect('{');
        Map<String, String> out = new LinkedHashMap<>();
        p.ws();
        if (p.peek() == '}') {
            p.i++;
            return out;
        }
        while (true) {
            p.ws();
            String key = p.string();
            p.ws();
            p.expect(':');
            p.ws();
            int start = p.i;
            p.value();
            out.put(key, json.substring(start, p.i));
            p.ws();
            char c = p.next();
            if (c == '}') {
                return out;
            }
            if (c != ',') {
                throw new IllegalArgumentException("expected , or } at " + (p.i - 1));
            }
        }
    }

    /** The elements of a JSON array, each as its raw JSON text; empty for null or a missing array. */
    static List<String> elements(String json) {
        List<String> out = new ArrayList<>();
        if (json == null || json.isEmpty() || json.equals("null")) {
            return out;
        }
        MiniJson p = new MiniJson(json);
        p.ws();
        p.expect('[');
        p.ws();
        if (p.peek() == ']') {
            return out;
        }
        while (true) {
            p.ws();
            int start = p.i;
            p.value();
            out.add(json.substring(start, p.i));
            p.ws();
            char c = p.next();
            if (c == ']') {
                return out;
            }
            if (c != ',') {
                throw new IllegalArgumentException("expected , or ] at " + (p.i - 1));
            }
        }
    }

    /** Whether {@code json} is exactly one JSON value (nothing after it); structure only, as {@link #isObject}. */
    static boolean isValue(String json) {
        try {
            MiniJson p = new MiniJson(json);
            p.ws();
            p.value();
            p.ws();
            return p.i == json.length();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether {@code json} is exactly one JSON object (nothing after it). Checks structure,
     * not every literal: the server validates the rest.
     */
    static boolean isObject(String json) {
        try {
            MiniJson p = new MiniJson(json);
            p.ws();
            if (p.peek() != '{') {
                return false;
            }
            p.value();
            p.ws();
            return p.i == json.length();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The string value of a raw JSON string, or null when {@code raw} is not a string. */
    static String stringValue(String raw) {
        if (raw == null || raw.isEmpty() || raw.charAt(0) != '"') {
            return null;
        }
        return new MiniJson(raw).string();
    }

    static String quote(String v) {
        StringBuilder b = new StringBuilder(v.length() + 2).append('"');
        for (int k = 0; k < v.length(); k++) {
            char c = v.charAt(k);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        b.append("\\u00").append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 15));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    private char peek() {
        if (i >= s.length()) {
            throw new IllegalArgumentException("unexpected end of JSON");
        }
        return s.charAt(i);
    }

    private char next() {
        char c = peek();
        i++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw new IllegalArgumentException("expected " + c + " at " + (i - 1));
        }
    }

    private void ws() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private void value() {
        char c = peek();
        if (c == '"') {
            string();
        } else if (c == '{' || c == '[') {
            container();
        } else {
            while (i < s.length() && ",}] \t\r\n".indexOf(s.charAt(i)) < 0) {
                i++;
            }
        }
    }

    private void container() {
        int depth = 0;
        do {
            char c = next();
            if (c == '"') {
                i--;
                string();
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        } while (depth > 0);
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case 'n': b.append('\n'); break;
                case 't': b.append('\t'); break;
                case 'r': b.append('\r'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'u':
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                    break;
                default: b.append(e);
            }
        }
    }
}

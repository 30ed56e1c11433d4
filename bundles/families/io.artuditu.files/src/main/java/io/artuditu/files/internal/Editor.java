package io.artuditu.files.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The editor {@code files.open} runs: {@code $VISUAL}, else {@code $EDITOR}, else {@code vi},
 * from the server's environment, split on whitespace (no shell quoting: a value such as
 * {@code code --wait} is two words), then {@code +LINE} when a line is given, then the file's
 * absolute path. A blank variable counts as unset.
 */
final class Editor {
    static final String FALLBACK = "vi";

    private Editor() {
    }

    static List<String> argv(Map<String, String> env, Integer line, Path file) {
        List<String> out = new ArrayList<>();
        for (String w : chosen(env).trim().split("\\s+")) {
            out.add(w);
        }
        if (line != null) {
            out.add("+" + line);
        }
        out.add(file.toString());
        return out;
    }

    private static String chosen(Map<String, String> env) {
        for (String name : List.of("VISUAL", "EDITOR")) {
            String v = env.get(name);
            if (v != null && !v.isBlank() && v.chars().noneMatch(c -> c < 0x20 && c != '\t')) {
                return v;
            }
        }
        return FALLBACK;
    }
}

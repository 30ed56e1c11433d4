package io.artuditu.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The built-in commands: the command index the build wrote from the contract into this
 * jar ({@link ContractFiles}), read as one string and searched by key, so finding
 * {@code ping} costs a substring search rather than a JSON parse.
 */
final class Commands {
    static final String RESOURCE = ContractFiles.INDEX;
    /** The spec's method grammar allows four dotted parts at most. */
    static final int MAX_WORDS = 4;

    /** A command found on the command line: its method and how many words named it. */
    static final class Found {
        final Command command;
        final int words;

        Found(Command command, int words) {
            this.command = command;
            this.words = words;
        }
    }

    private static String index;

    private Commands() {
    }

    static String index() {
        if (index == null) {
            try (InputStream in = Commands.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the command index " + RESOURCE
                            + " is missing from the CLI jar (the build generates it: mvn package)");
                }
                index = "\n" + new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return index;
    }

    /** The raw entry of a key (method name or alias path), or null. */
    static String entry(String key) {
        return entry(index(), key);
    }

    /** The raw entry of a key in {@code idx} (an index with a newline before its first line), or null. */
    static String entry(String idx, String key) {
        int at = idx.indexOf("\n" + key + "\t");
        if (at < 0) {
            return null;
        }
        int start = at + key.length() + 2;
        return idx.substring(start, idx.indexOf('\n', start));
    }

    /** The longest run of leading words that names a built-in command, or null. */
    static Found find(List<String> args) {
        int n = 0;
        while (n < args.size() && n < MAX_WORDS && !args.get(n).startsWith("-")) {
            n++;
        }
        for (int k = n; k > 0; k--) {
            Command c = command(key(args, k));
            if (c != null) {
                return new Found(c, k);
            }
        }
        return null;
    }

    /** The command a key names, aliases resolved; null when none. */
    static Command command(String key) {
        return command(index(), key);
    }

    /** The command a key names in {@code idx}, aliases resolved; null when none. */
    static Command command(String idx, String key) {
        String e = entry(idx, key);
        if (e == null) {
            return null;
        }
        if (e.startsWith("{\"alias\":")) {
            java.util.Map<String, String> a = MiniJson.members(e);
            String method = MiniJson.stringValue(a.get("alias"));
            return Command.parse(method, entry(idx, method), a.get("fixed"));
        }
        return Command.parse(key, e, null);
    }

    /** The first {@code k} words as a key: dashes are underscores, words joined by dots. */
    static String key(List<String> words, int k) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < k; i++) {
            if (i > 0) {
                b.append('.');
            }
            b.append(words.get(i).replace('-', '_'));
        }
        return b.toString();
    }

    /** Every key (methods in contract order, then aliases). */
    static List<String> keys() {
        return keys(index());
    }

    /** Every key of {@code idx}. */
    static List<String> keys(String idx) {
        List<String> out = new ArrayList<>();
        int at = 1;
        while (at < idx.length()) {
            int tab = idx.indexOf('\t', at);
            int nl = idx.indexOf('\n', at);
            if (tab < 0 || nl < 0) {
                break;
            }
            out.add(idx.substring(at, tab));
            at = nl + 1;
        }
        return out;
    }

    /** The words that may follow {@code prefix} (a key, "" for the top), each once, in index order. */
    static List<String> next(List<String> keys, String prefix) {
        List<String> out = new ArrayList<>();
        String p = prefix.isEmpty() ? "" : prefix + ".";
        for (String k : keys) {
            if (k.startsWith(p) && k.length() > p.length()) {
                int dot = k.indexOf('.', p.length());
                String w = (dot < 0 ? k.substring(p.length()) : k.substring(p.length(), dot)).replace('_', '-');
                if (!out.contains(w)) {
                    out.add(w);
                }
            }
        }
        return out;
    }
}

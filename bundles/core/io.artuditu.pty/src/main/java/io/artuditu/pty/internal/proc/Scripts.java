package io.artuditu.pty.internal.proc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which script an interpreter process runs, as a base name, from its argument vector. Agents
 * installed through npm or pip run as {@code node …/bin/claude} or {@code python3 …/aider}:
 * the kernel's {@code comm} says only {@code node}, and the script's name is what tells one
 * agent from another.
 *
 * <p>Only the script's base name survives: the first argument after {@code argv[0]} that is
 * not an option (or an option's value), without its folder and its extension
 * ({@code .js .mjs .cjs .ts .mts .cts .jsx .tsx .py .pyw .pyc .rb}); for {@code python -m pkg.mod}
 * the top package, {@code pkg}. When that name is generic
 * ({@code index}, {@code cli}, {@code main}, …) the nearest enclosing folder whose name is not
 * generic stands in for it, at most {@value #MAX_PARENTS} folders up:
 * {@code …/node_modules/@google/gemini-cli/dist/index.js} gives {@code gemini-cli}. Every other
 * argument is dropped unread, because argument vectors carry prompts and credentials; the
 * caller zeroes the bytes after the call.
 *
 * <p>An argument vector cut by the read bound loses its last, unterminated argument; code
 * run inline ({@code node -e}, {@code python3 -c}, {@code ruby -e}) has no script.
 */
final class Scripts {
    /** How much of {@code /proc/<pid>/cmdline} is read. */
    static final int CMDLINE_BYTES = 4096;
    /** Longest script name kept, in characters. */
    static final int MAX_NAME = 128;
    /** Most folders looked at above a generic script name. */
    static final int MAX_PARENTS = 4;

    private static final Set<String> GENERIC_FILES = Set.of("index", "cli", "main", "__main__", "run", "start",
            "entry", "bundle", "app", "bin");
    private static final Set<String> GENERIC_DIRS = Set.of("dist", "build", "lib", "src", "bin", ".bin", "out", "esm",
            "cjs", "scripts", "site-packages", "dist-packages", "node_modules", "bundle", "cli", "main", "app");
    private static final String[] EXTENSIONS = {".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx", ".js", ".ts", ".pyw",
            ".pyc", ".py", ".rb"};
    /** Options whose value is the next argument, by interpreter family. */
    private static final Set<String> NODE_VALUE_OPTIONS = Set.of("-r", "--require", "--import", "--loader",
            "--experimental-loader", "--inspect-port", "--title", "--env-file", "-C", "--conditions", "--cwd",
            "--config", "--preload");
    private static final Set<String> NODE_INLINE = Set.of("-e", "--eval", "-p", "--print");
    private static final Set<String> PYTHON_VALUE_OPTIONS = Set.of("-W", "-X", "-Q");
    private static final Set<String> RUBY_VALUE_OPTIONS = Set.of("-I", "-r", "-C", "-E");

    private Scripts() {
    }

    /**
     * Whether {@code name} is an interpreter whose script is worth naming: {@code node},
     * {@code nodejs}, {@code bun}, {@code deno}, {@code python}, {@code python3} and
     * {@code python3.N}, {@code ruby}.
     */
    static boolean interpreter(String name) {
        switch (name) {
            case "node", "nodejs", "bun", "deno", "python", "ruby":
                return true;
            default:
                return name.startsWith("python3") && name.substring(7).chars().allMatch(c -> c == '.' || c >= '0' && c <= '9');
        }
    }

    /**
     * The script {@code interpreter} runs according to the first {@code length} bytes of its
     * NUL-separated argument vector, or null when there is none; {@code cut} says the read
     * filled its bound, so the last argument may be incomplete.
     */
    static String fromCmdline(String interpreter, byte[] cmdline, int length, boolean cut) {
        List<String> args = split(cmdline, length, cut);
        if (args.size() == 1 && args.get(0).indexOf(' ') > 0) {
            // A process that rewrote its title may leave its arguments space-separated.
            args = List.of(args.get(0).split(" +"));
        }
        boolean subcommands = interpreter.equals("bun") || interpreter.equals("deno");
        String script = scriptArgument(family(interpreter), subcommands, args);
        return script == null ? null : baseName(script);
    }

    private enum Family { NODE, PYTHON, RUBY }

    private static Family family(String interpreter) {
        if (interpreter.startsWith("python")) {
            return Family.PYTHON;
        }
        return interpreter.equals("ruby") ? Family.RUBY : Family.NODE;
    }

    private static List<String> split(byte[] b, int length, boolean cut) {
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (b[i] == 0) {
                args.add(new String(b, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < length && !cut) {
            args.add(new String(b, start, length - start, StandardCharsets.UTF_8));
        }
        return args;
    }

    /** The script argument (a path, or a module name after {@code -m}), or null. */
    private static String scriptArgument(Family family, boolean subcommands, List<String> args) {
        boolean subcommandSeen = !subcommands;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                return i + 1 < args.size() ? args.get(i + 1) : null;
            }
            if (a.isEmpty()) {
                continue;
            }
            if (a.charAt(0) != '-' || a.equals("-")) {
                if (a.equals("-")) {
                    return null; // the script comes from standard input
                }
                if (!subcommandSeen && (a.equals("run") || a.equals("x") || a.equals("exec"))) {
                    subcommandSeen = true; // bun run x.js, deno run x.ts
                    continue;
                }
                return a;
            }
            switch (family) {
                case NODE -> {
                    if (NODE_INLINE.contains(a)) {
                        return null;
                    }
                    if (NODE_VALUE_OPTIONS.contains(a)) {
                        i++;
                    }
                }
                case PYTHON -> {
                    if (a.startsWith("-c")) {
                        return null;
                    }
                    if (a.equals("-m")) {
                        return i + 1 < args.size() ? module(args.get(i + 1)) : null;
                    }
                    if (a.startsWith("-m")) {
                        return module(a.substring(2));
                    }
                    if (PYTHON_VALUE_OPTIONS.contains(a)) {
                        i++;
                    }
                }
                case RUBY -> {
                    if (a.startsWith("-e")) {
                        return null;
                    }
                    if (RUBY_VALUE_OPTIONS.contains(a)) {
                        i++;
                    }
                }
            }
        }
        return null;
    }

    /** A module's top package: the tool it belongs to ({@code aider.main} gives {@code aider}). */
    private static String module(String dotted) {
        int dot = dotted.indexOf('.');
        return dot > 0 ? dotted.substring(0, dot) : dotted.isEmpty() ? null : dotted;
    }

    /** The base name of a script path, or its nearest meaningful folder; see the class comment. */
    static String baseName(String path) {
        String[] parts = path.split("/+");
        int last = parts.length - 1;
        while (last >= 0 && parts[last].isEmpty()) {
            last--;
        }
        if (last < 0) {
            return null;
        }
        String name = stripExtension(parts[last]);
        if (GENERIC_FILES.contains(name)) {
            for (int i = last - 1; i >= 0 && i >= last - MAX_PARENTS; i--) {
                String dir = parts[i];
                if (dir.isEmpty() || dir.equals(".") || dir.equals("..") || dir.startsWith("@")
                        || GENERIC_DIRS.contains(dir)) {
                    if (dir.equals("node_modules")) {
                        break; // above the package: nothing there names the script
                    }
                    continue;
                }
                name = dir;
                break;
            }
        }
        if (name.isEmpty()) {
            return null;
        }
        if (name.length() > MAX_NAME) {
            name = name.substring(0, MAX_NAME);
        }
        return Stat.printable(name);
    }

    private static String stripExtension(String name) {
        for (String ext : EXTENSIONS) {
            if (name.length() > ext.length() && name.endsWith(ext)) {
                return name.substring(0, name.length() - ext.length());
            }
        }
        return name;
    }
}

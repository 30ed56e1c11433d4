package io.artuditu.cli;

import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpClientException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The {@code artu} command. A thin client: every server-facing command is one UHP
 * request over the socket; nothing here boots a framework. Results go to stdout as JSON;
 * errors go to stderr with a non-zero status.
 *
 * <p>Every method of the contract is a command, {@code a.b.c} as {@code artu a b c}, mapped
 * by {@link Mapper} from the command index the build writes ({@link Commands}); a command
 * the index lacks is looked up in the running server's {@code uhp.capabilities}
 * ({@link LiveCommands}). Only the local and streaming commands below are written by hand.
 *
 * <p>Exit status ({@code docs/cli.md}): 0 success, 1 the server answered with an error,
 * 2 usage, 3 no server, 4 a wait timed out, 5 an event stream was cut.
 */
public final class Artu {
    static final int OK = 0;
    static final int ERROR_REPLY = 1;
    static final int USAGE = 2;
    static final int NO_SERVER = 3;
    static final int TIMED_OUT = 4;
    static final int RESYNC = 5;

    /** The hand-written commands, as the global usage lists them (the rest come from the contract). */
    static final String LOCAL_USAGE = String.join("\n",
            "  (no command)            the workbench (docs/tui.md); starts a server first if none answers",
            "  attach                  the workbench on a running server (exit 3 if none answers)",
            "  server --foreground     run the server in this process (Ctrl-C stops it)",
            "  server start            start a server in the background; returns once it answers ping",
            "  server stop             stop the server and wait until it has exited",
            "  server status           whether a server answers (exit 0) or not (exit 3)",
            "  call METHOD [PARAMS]    any method, PARAMS a JSON object (default {})",
            "  uhp schema              the installed UHP contract (no server needed)",
            "  help --all              every command of the installed contract: usage, method, what it does",
            "  help --scopes           every method of the installed contract with the scope a token needs",
            "  config patch --file PATH   config.patch with the JSON object in PATH",
            "  wait event NAME [--where K=V|K:=JSON]... [--timeout S] [--after N]   one event (exit 4 on timeout)",
            "  wait agent-status [PANE] STATUS [--timeout S]   until the agent in PANE has STATUS (exit 4 on timeout)",
            "  diff                    diff.open for the current workspace (the pane's, inside a pane): the DIFF view",
            "  diff view [--path P] [--layer L] [--view auto|split|stack]   the DIFF view program itself (run in a pane)",
            "  completion bash|zsh     a completion script: source <(artu completion bash)",
            "  hook AGENT EVENT [JSON]   report an agent's hook event for this pane (run by its hooks; exit 0, no output)",
            "  hook install claude|codex|gemini [--settings FILE] [--dry-run]   add artu's hooks to the agent's settings",
            "  hook uninstall claude|codex|gemini [--settings FILE] [--dry-run]   remove exactly what install added",
            "  theme install FILE      check a theme file here, write it to <home>/themes/<id>.toml, then theme.reload",
            "  theme import FILE [--from base16|alacritty|kitty|windows-terminal] [--id ID] [--name NAME] [--scheme NAME]"
                    + " [--print]   convert another terminal's colours and install them (--print: only show the theme)",
            "  install [--prefix DIR]  (./artu only) put an artu on PATH that runs the built jars");

    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;

    Artu(Map<String, String> env, PrintStream out, PrintStream err) {
        this.env = env;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        int status = new Artu(System.getenv(), System.out, System.err).run(args);
        System.out.flush();
        System.exit(status);
    }

    int run(String[] argv) {
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        String session = null;
        while (!args.isEmpty() && args.get(0).startsWith("--session")) {
            String a = args.remove(0);
            if (a.startsWith("--session=")) {
                session = a.substring("--session=".length());
            } else if (!args.isEmpty()) {
                session = args.remove(0);
            } else {
                return usage("--session needs a name");
            }
        }
        if (args.isEmpty() || args.get(0).equals("attach") && (args.size() == 1 || args.get(1).startsWith("-"))) {
            return interactive(session, args);
        }
        String cmd = args.get(0);
        if (cmd.equals("hook")) {
            return hook(session, args.subList(1, args.size()));
        }
        if (cmd.equals("help") || cmd.equals("--help") || cmd.equals("-h")) {
            if (args.size() == 1) {
                out.println(Help.global(liveNouns(session)));
                return OK;
            }
            if (args.size() == 2 && (args.get(1).equals("--all") || args.get(1).equals("--scopes"))) {
                out.print(Contract.page(args.get(1).equals("--all") ? ContractFiles.REFERENCE : ContractFiles.SCOPES));
                return OK;
            }
            args.remove(0);
            args.add("--help");
            cmd = args.get(0);
            if (cmd.equals("hook")) {
                return hook(session, args.subList(1, args.size()));
            }
        }
        SocketLocation location;
        try {
            location = locate(session);
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        UhpClient client = UhpClient.of(location).withToken(env.get("ARTUDITU_TOKEN"));
        String sub = args.size() > 1 ? args.get(1) : "";
        try {
            if (args.contains("--help") || args.contains("-h")) {
                return Commands.find(args) != null ? contract(client, args, session) : localHelp(client, args, session);
            }
            switch (cmd) {
                case "server":
                    if (sub.equals("start") || sub.equals("stop") || sub.equals("status") || sub.equals("--foreground")) {
                        return new ServerCommands(client, env, out, err).run(sub, args.subList(1, args.size()));
                    }
                    break;
                case "call":
                    if (args.size() < 2 || args.size() > 3) {
                        return usage("call METHOD [PARAMS_JSON]");
                    }
                    return print(client.call(args.get(1), args.size() == 3 ? args.get(2) : "{}"));
                case "uhp":
                    if (sub.equals("schema")) {
                        if (args.size() != 2) {
                            return usage("uhp schema takes no arguments");
                        }
                        out.println(Help.schema());
                        return OK;
                    }
                    break;
                case "wait":
                    if (sub.equals("event")) {
                        return new EventCommands(client, this, out, err).waitEvent(args.subList(2, args.size()));
                    }
                    if (sub.equals("agent-status")) {
                        return new EventCommands(client, this, out, err).waitAgentStatus(args.subList(2, args.size()),
                                env.get("ARTUDITU_PANE_ID"));
                    }
                    break;
                case "config":
                    if (sub.equals("patch") && args.size() > 2 && args.get(2).startsWith("--file")) {
                        return patchFile(client, args.subList(2, args.size()));
                    }
                    break;
                case "theme":
                    if (sub.equals("install") || sub.equals("import")) {
                        return ThemeCommands.run(args.subList(1, args.size()), client, out, err);
                    }
                    break;
                case "diff":
                    if (args.size() == 1) {
                        return print(client.call("diff.open", diffOpenParams(client)));
                    }
                    if (sub.equals("view")) {
                        return diffView(args.subList(2, args.size()));
                    }
                    break;
                case "completion":
                    return Completion.run(args.subList(1, args.size()), out, err);
                case "install":
                    err.println("artu: install is done by the launcher script: ./artu install [--prefix DIR]");
                    return USAGE;
                default:
                    break;
            }
            return contract(client, args, session);
        } catch (UhpClientException.Unreachable e) {
            err.println("artu: " + e.getMessage() + "; start one with: artu"
                    + (session == null ? "" : " --session " + session) + " server start");
            return NO_SERVER;
        } catch (IOException e) {
            err.println("artu: " + e.getMessage());
            return NO_SERVER;
        }
    }

    /**
     * {@code hook ...}: the reporter an agent's hooks run (before anything that reads the
     * command index: it is on every agent event), or its installer. Only a bare
     * {@code artu hook} and {@code --help} print usage; the reporter itself always exits 0.
     */
    private int hook(String session, List<String> args) {
        String sub = args.isEmpty() ? "" : args.get(0);
        if (sub.equals("install") || sub.equals("uninstall")) {
            return HookInstall.run(args, env, out, err);
        }
        if (args.isEmpty() || sub.equals("--help") || sub.equals("-h")) {
            StringBuilder b = new StringBuilder("usage:\n");
            for (String line : LOCAL_USAGE.split("\n")) {
                if (line.startsWith("  hook ")) {
                    b.append(line).append('\n');
                }
            }
            (args.isEmpty() ? err : out).print(b);
            return args.isEmpty() ? USAGE : OK;
        }
        return new Hook(env, hookStdin(), err).run(session, args);
    }

    /**
     * No command, or {@code attach [--flag]...} (not {@code attach pane}, the method): the
     * workbench. The launcher starts the TUI's own main for these; on a class path that holds
     * the TUI this is the same entry (found by name: the TUI depends on the CLI, not the
     * other way round). Without it the usage is printed (exit 2).
     */
    private int interactive(String session, List<String> args) {
        List<String> argv = new ArrayList<>();
        if (session != null) {
            argv.add("--session");
            argv.add(session);
        }
        argv.addAll(args);
        try {
            Class<?> tui = Class.forName("io.artuditu.tui.Tui");
            return (Integer) tui.getMethod("run", String[].class, Map.class).invoke(null, argv.toArray(new String[0]), env);
        } catch (ReflectiveOperationException | LinkageError e) {
            err.println(Help.global());
            return USAGE;
        }
    }

    /**
     * {@code artu diff}: the params of {@code diff.open} for the current workspace: inside a
     * pane, the workspace holding {@code $ARTUDITU_PANE_ID} (asked with {@code pane.get});
     * elsewhere none (the active workspace).
     */
    private String diffOpenParams(UhpClient client) throws IOException {
        String pane = env.get("ARTUDITU_PANE_ID");
        if (pane == null || !pane.matches("[1-9][0-9]{0,17}")) {
            return "{}";
        }
        Map<String, String> reply = MiniJson.members(client.call("pane.get", "{\"pane\":\"" + pane + "\"}"));
        String result = reply.get("result");
        String ws = result == null ? null : MiniJson.members(result).get("workspace_id");
        return ws == null ? "{}" : "{\"workspace_id\":" + ws + "}";
    }

    /**
     * {@code artu diff view [...]}: the DIFF view program, which lives with the workbench
     * (the launcher starts its main on the TUI's class path; here it is found by name, as
     * {@link #interactive} finds the workbench).
     */
    private int diffView(List<String> args) {
        try {
            Class<?> view = Class.forName("io.artuditu.tui.DiffView");
            return (Integer) view.getMethod("run", String[].class, Map.class).invoke(null, args.toArray(new String[0]), env);
        } catch (ReflectiveOperationException | LinkageError e) {
            err.println("artu: diff view needs the workbench's jar on the class path (run it through the artu launcher)");
            return USAGE;
        }
    }

    /**
     * The first words of the methods the running server offers beyond the installed contract
     * (a module's, a family dropped in after this CLI was built); none when no server answers.
     */
    private List<String> liveNouns(String session) {
        List<String> known = Commands.next(Commands.keys(), "");
        List<String> out = new ArrayList<>();
        try {
            UhpClient client = UhpClient.of(locate(session)).withToken(env.get("ARTUDITU_TOKEN"));
            for (String noun : Commands.next(new LiveCommands(client).names(), "")) {
                if (!known.contains(noun)) {
                    out.add(noun);
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            return List.of();
        }
        return out;
    }

    /** {@code --help} of a hand-written command: its lines of the usage; else the contract's help (a module's). */
    private int localHelp(UhpClient client, List<String> args, String session) throws IOException {
        StringBuilder b = new StringBuilder();
        for (String line : LOCAL_USAGE.split("\n")) {
            if (line.startsWith("  " + args.get(0) + " ") && (args.size() < 2 || args.get(1).startsWith("-")
                    || line.startsWith("  " + args.get(0) + " " + args.get(1)))) {
                b.append(line).append('\n');
            }
        }
        if (b.length() == 0) {
            return contract(client, args, session);
        }
        List<String> verbs = Commands.next(Commands.keys(), args.get(0).replace('-', '_'));
        if (!verbs.isEmpty() && (args.size() < 2 || args.get(1).startsWith("-"))) {
            b.append("  ").append(args.get(0)).append(' ').append(String.join("|", verbs)).append("   the contract's methods: artu ")
                    .append(args.get(0)).append(" VERB --help\n");
        }
        out.print("usage:\n" + b);
        return OK;
    }

    /** A command of the contract: the built-in index first, then the running server's registry. */
    private int contract(UhpClient client, List<String> args, String session) throws IOException {
        boolean help = args.contains("--help") || args.contains("-h");
        Commands.Found found = Commands.find(args);
        LiveCommands live = null;
        if (found == null) {
            live = new LiveCommands(client);
            try {
                found = live.find(args);
            } catch (UhpClientException.Unreachable e) {
                live = null;
            }
        }
        if (found == null) {
            return unknown(args, live);
        }
        String shown = Command.words(found.command.method);
        String typed = String.join(" ", args.subList(0, found.words));
        if (help) {
            out.println(Help.method(found.command, typed, live == null ? null : live.entry(found.command.method)));
            return OK;
        }
        String params;
        try {
            params = Mapper.params(found.command, typed, args.subList(found.words, args.size()), env, Artu::stdinText);
        } catch (Mapper.Usage e) {
            err.println("artu: " + e.getMessage());
            err.println("usage: " + Help.usageLine(found.command, typed) + "   (artu " + shown + " --help)");
            return USAGE;
        }
        if (found.command.stream) {
            return new EventCommands(client, this, out, err).stream(found.command.method, params);
        }
        return print(client.call(found.command.method, params));
    }

    /** Nothing matched: name the words that could follow the longest known prefix. */
    private int unknown(List<String> args, LiveCommands live) throws IOException {
        List<String> keys = Commands.keys();
        if (live != null) {
            keys = new ArrayList<>(keys);
            for (String k : live.names()) {
                if (!keys.contains(k)) {
                    keys.add(k);
                }
            }
        }
        int n = 0;
        while (n < args.size() && n < Commands.MAX_WORDS && !args.get(n).startsWith("-")
                && !Commands.next(keys, Commands.key(args, n + 1)).isEmpty()) {
            n++;
        }
        List<String> next = Commands.next(keys, Commands.key(args, n));
        if (n == 0) {
            return usage("unknown command: " + args.get(0));
        }
        String group = String.join(" ", args.subList(0, n));
        next = new ArrayList<>(next);
        for (String w : localVerbs(group)) {
            if (!next.contains(w)) {
                next.add(w);
            }
        }
        String problem = n < args.size() && !args.get(n).startsWith("-")
                ? "unknown " + group + " command: " + args.get(n) : group + " needs a verb";
        err.println("artu: " + problem + " (" + String.join(", ", next) + ")");
        return USAGE;
    }

    /** The verbs {@link #LOCAL_USAGE} lists after {@code group} ({@code theme}: install, import). */
    static List<String> localVerbs(String group) {
        List<String> out = new ArrayList<>();
        for (String line : LOCAL_USAGE.split("\n")) {
            String l = line.strip();
            if (l.startsWith(group + " ")) {
                String w = l.substring(group.length() + 1).split("[ |]", 2)[0];
                boolean verb = !w.isEmpty() && w.charAt(0) != '-';
                for (int i = 0; i < w.length(); i++) {
                    char c = w.charAt(i);
                    verb &= c >= 'a' && c <= 'z' || c == '-';
                }
                if (verb && !out.contains(w)) {
                    out.add(w);
                }
            }
        }
        return out;
    }

    /** --session wins; inside a pane the inherited socket; else the home's default session. */
    SocketLocation locate(String session) {
        return SocketLocation.forClient(env, session);
    }

    /** Prints a reply's result to stdout, or its error to stderr; returns the exit status. */
    int print(String reply) {
        Map<String, String> m;
        try {
            m = MiniJson.members(reply);
        } catch (RuntimeException e) {
            err.println("artu: unreadable reply: " + reply);
            return ERROR_REPLY;
        }
        if (m.containsKey("result")) {
            out.println(m.get("result"));
            return OK;
        }
        String error = m.getOrDefault("error", "{}");
        Map<String, String> e = MiniJson.members(error);
        err.println("artu: " + MiniJson.stringValue(e.get("code")) + ": " + MiniJson.stringValue(e.get("message")));
        if (e.containsKey("details")) {
            err.println("details: " + e.get("details"));
        }
        return ERROR_REPLY;
    }

    /** The server refuses larger request lines anyway; this keeps the error local. */
    static final long MAX_PATCH_BYTES = 1 << 20;

    /** {@code config patch --file PATH} (or {@code --file=PATH}): config.patch with the file's JSON object. */
    private int patchFile(UhpClient client, List<String> args) throws IOException {
        String a = args.get(0);
        String file = a.startsWith("--file=") ? a.substring("--file=".length()) : args.size() == 2 ? args.get(1) : null;
        if (file == null || a.startsWith("--file=") && args.size() != 1 || !a.startsWith("--file=") && !a.equals("--file")) {
            return usage("config patch --file PATH");
        }
        Path p = Path.of(file);
        if (!Files.isRegularFile(p) || Files.size(p) > MAX_PATCH_BYTES) {
            err.println("artu: " + p + " is not a readable file of at most " + MAX_PATCH_BYTES + " bytes");
            return USAGE;
        }
        String json = Files.readString(p, StandardCharsets.UTF_8).strip();
        if (!MiniJson.isObject(json)) {
            err.println("artu: the patch must be one JSON object, for example {\"layout\":{\"gap\":2}}");
            return USAGE;
        }
        return print(client.call("config.patch", "{\"patch\":" + json + "}"));
    }

    private int usage(String problem) {
        err.println("artu: " + problem);
        err.println(Help.global());
        return USAGE;
    }

    /**
     * Standard input's text (at most {@link Mapper#MAX_INPUT_BYTES}), or null when it is a
     * terminal or closed: a command that may read its param from a pipe must not wait on a
     * person's keyboard.
     */
    static String stdinText() {
        try {
            if (!stdinCarriesData(Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString())) {
                return null;
            }
            byte[] b = System.in.readNBytes(Mapper.MAX_INPUT_BYTES + 1);
            return b.length > Mapper.MAX_INPUT_BYTES ? null : new String(b, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Whether standard input, by what {@code /proc/self/fd/0} links to, may be read: not a terminal, not {@code /dev/null}. */
    static boolean stdinCarriesData(String fd0Target) {
        return !(fd0Target.startsWith("/dev/pts/") || fd0Target.startsWith("/dev/tty") || fd0Target.equals("/dev/null")
                || fd0Target.equals("/dev/console"));
    }

    /**
     * Standard input for {@code artu hook}: null when it is a terminal or nothing. Where
     * {@code /proc} cannot say, it is read anyway: the hook bounds the read in time.
     */
    private static java.io.InputStream hookStdin() {
        try {
            return stdinCarriesData(Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString()) ? System.in : null;
        } catch (IOException | UnsupportedOperationException e) {
            return System.in;
        }
    }

    /** One command with this environment and these streams: the TUI's {@code :} line and its server start. */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        return new Artu(env, out, err).run(args);
    }
}

package io.artuditu.cli;

import io.artuditu.uhp.api.home.SocketLocation;
import java.io.IOException;
import java.io.PrintStream;
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
 * <p>Exit status: 0 success, 1 the server answered with an error, 2 usage, 3 no server.
 */
public final class Artu {
    static final int OK = 0;
    static final int ERROR_REPLY = 1;
    static final int USAGE = 2;
    static final int NO_SERVER = 3;

    static final String USAGE_TEXT = String.join("\n",
            "usage: artu [--session NAME] COMMAND",
            "",
            "  server --foreground     run the server in this process (Ctrl-C stops it)",
            "  server start            start a server in the background; returns once it answers ping",
            "  server stop             stop the server (socket removed, process exits 0)",
            "  server status           whether a server answers (exit 0) or not (exit 3)",
            "  ping                    the server's version and session",
            "  uhp capabilities        the live method registry, limits and identity rules",
            "  uhp stats               operational counters",
            "  uhp schema              the installed UHP contract (no server needed)",
            "  call METHOD [PARAMS]    any method, PARAMS a JSON object (default {})",
            TokenCommands.USAGE_LINES,
            TopologyCommands.USAGE_LINES,
            "  config get|patch JSON|patch --file PATH|reload   the live config (docs/configuration.md)",
            "  events [--after N] [--event NAME]...   stream events, one JSON line each (exit 5 if cut)",
            "  wait event NAME [--where K=V|K:=JSON]... [--timeout S] [--after N]   one event (exit 4 on timeout)",
            "",
            "Inside a pane, $ARTUDITU_SOCKET_PATH selects the server unless --session is given,",
            "and pane commands given no pane act on $ARTUDITU_PANE_ID.",
            "With $ARTUDITU_TOKEN set, every request carries that delegated token as auth.");

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
        if (args.isEmpty() || args.get(0).equals("help") || args.get(0).equals("--help")) {
            out.println(USAGE_TEXT);
            return args.isEmpty() ? USAGE : OK;
        }
        SocketLocation location;
        try {
            location = locate(session);
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        UhpClient client = new UhpClient(location, env.get("ARTUDITU_TOKEN"));
        String cmd = args.get(0);
        String sub = args.size() > 1 ? args.get(1) : "";
        try {
            switch (cmd) {
                case "ping":
                    return args.size() == 1 ? request(client, "ping", "{}") : usage("ping takes no arguments");
                case "uhp":
                    switch (sub) {
                        case "capabilities": return request(client, "uhp.capabilities", "{}");
                        case "stats": return request(client, "uhp.stats", "{}");
                        case "schema": return schema();
                        default: return usage("unknown uhp command: " + sub);
                    }
                case "call":
                    if (args.size() < 2 || args.size() > 3) {
                        return usage("call METHOD [PARAMS_JSON]");
                    }
                    return request(client, args.get(1), args.size() == 3 ? args.get(2) : "{}");
                case "token":
                    return new TokenCommands(client, this, err).run(args.subList(1, args.size()));
                case "config":
                    return new ConfigCommands(client, this, err).run(args.subList(1, args.size()));
                case "events": case "wait":
                    return cmd.equals("events") ? new EventCommands(client, this, out, err).events(args.subList(1, args.size()))
                            : sub.equals("event") ? new EventCommands(client, this, out, err).waitEvent(args.subList(2, args.size()))
                            : usage("wait event NAME ...");
                case "workspace": case "tab": case "pane": case "layout": case "session":
                    return new TopologyCommands(client, this, env, err).run(cmd, args.subList(1, args.size()));
                case "server":
                    return new ServerCommands(client, env, out, err).run(sub, args.subList(1, args.size()));
                default:
                    return usage("unknown command: " + cmd);
            }
        } catch (UhpClient.Unreachable e) {
            err.println("artu: " + e.getMessage() + "; start one with: artu"
                    + (session == null ? "" : " --session " + session) + " server start");
            return NO_SERVER;
        } catch (IOException e) {
            err.println("artu: " + e.getMessage());
            return NO_SERVER;
        }
    }

    /** --session wins; inside a pane the inherited socket; else the home's default session. */
    SocketLocation locate(String session) {
        java.util.function.LongSupplier uid = new java.util.function.LongSupplier() {
            @Override
            public long getAsLong() {
                return SocketLocation.currentUid();
            }
        };
        String inherited = env.get("ARTUDITU_SOCKET_PATH");
        if (session == null && inherited != null && !inherited.isBlank()) {
            return SocketLocation.ofLogical(Path.of(inherited), uid);
        }
        return SocketLocation.resolve(SocketLocation.home(env), session, uid);
    }

    private int request(UhpClient client, String method, String params) throws IOException {
        return print(client.call(method, params));
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

    private int schema() {
        try {
            com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
            out.println(m.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(io.artuditu.uhp.api.schema.UhpContract.standard().document()));
            return OK;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            err.println("artu: " + e.getMessage());
            return ERROR_REPLY;
        }
    }

    private int usage(String problem) {
        err.println("artu: " + problem);
        err.println(USAGE_TEXT);
        return USAGE;
    }

    /** One command with this environment and these streams: the TUI's {@code :} line and its server start. */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        return new Artu(env, out, err).run(args);
    }
}

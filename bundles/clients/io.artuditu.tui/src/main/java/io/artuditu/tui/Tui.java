package io.artuditu.tui;

import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.client.UhpClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code artu} with no command, and {@code artu attach}: the workbench in this terminal.
 * A client like any other: it starts no framework and reaches the server only through UHP.
 *
 * <p>Exit status: 0 detached, 2 usage, 3 no server (attach does not start one).
 * The terminal is {@link Console}: JLine's native layer for raw mode, size and SIGWINCH.
 */
public final class Tui {
    static final String USAGE = "usage: artu [--session NAME]            start the server if none answers, then attach\n"
            + "       artu [--session NAME] attach     attach to a running server";

    private Tui() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv()));
    }

    /** {@code args} as given after {@code artu}: empty, or {@code attach}, with {@code --session}. */
    public static int run(String[] argv, Map<String, String> env) {
        List<String> args = new ArrayList<>(List.of(argv));
        String session = null;
        boolean attach = false;
        while (!args.isEmpty()) {
            String a = args.remove(0);
            if (a.equals("--session") && !args.isEmpty()) {
                session = args.remove(0);
            } else if (a.startsWith("--session=")) {
                session = a.substring("--session=".length());
            } else if (a.equals("attach") && !attach) {
                attach = true;
            } else if (a.equals("--help") || a.equals("-h")) {
                System.out.println(USAGE);
                return 0;
            } else {
                System.err.println("artu: unexpected argument: " + a);
                System.err.println(USAGE);
                return 2;
            }
        }
        if (env.get("ARTUDITU_PANE_ID") != null && !env.getOrDefault("ARTUDITU_PANE_ID", "").isEmpty()) {
            System.err.println("artu: this terminal is already an Artuditu pane; attaching here would nest the"
                    + " workbench inside itself (unset ARTUDITU_PANE_ID to do it anyway)");
            return 2;
        }
        SocketLocation loc;
        try {
            loc = SocketLocation.forClient(env, session);
        } catch (IllegalArgumentException e) {
            System.err.println("artu: " + e.getMessage());
            return 2;
        }
        JsonUhp uhp = new JsonUhp(UhpClient.of(loc));
        // The first ping (and the JSON classes it loads) runs while the terminal is opened.
        java.util.concurrent.FutureTask<Boolean> reachable = new java.util.concurrent.FutureTask<>(() -> answers(uhp));
        Thread pinger = new Thread(reachable, "tui-first-ping");
        pinger.setDaemon(true);
        pinger.start();
        Console console;
        try {
            console = Console.open(SocketLocation.home(env), env);
        } catch (IOException | LinkageError e) {
            System.err.println("artu: cannot open the terminal: " + e.getMessage());
            return 2;
        }
        if (console == null) {
            System.err.println("artu: the workbench needs a terminal (stdin and stdout a tty)");
            return 2;
        }
        boolean up;
        try {
            up = reachable.get();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            up = false;
        }
        if (!up) {
            if (attach) {
                System.err.println("artu: no server is answering on " + loc.logical() + "; start one with: artu"
                        + (session == null ? "" : " --session " + session) + " server start (or run artu alone)");
                return 3;
            }
            List<String> start = new ArrayList<>();
            if (session != null) {
                start.add("--session");
                start.add(session);
            }
            start.add("server");
            start.add("start");
            java.io.ByteArrayOutputStream quiet = new java.io.ByteArrayOutputStream();
            int s = io.artuditu.cli.Artu.run(start.toArray(new String[0]), env,
                    new java.io.PrintStream(quiet, true, StandardCharsets.UTF_8), System.err);
            if (s != 0) {
                return s;
            }
        }
        try {
            return workbench(uhp, console, session == null ? "default" : session);
        } catch (IOException e) {
            System.err.println("artu: " + e.getMessage());
            return 1;
        }
    }

    private static boolean answers(JsonUhp uhp) {
        try {
            uhp.call("ping", JsonUhp.params());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int workbench(JsonUhp uhp, Console console, String session) throws IOException {
        // made before raw mode and the alternate screen, which only the finally below undoes
        App app = new App(uhp, console, session);
        console.raw();
        console.haltOnHangup();
        // alternate screen, mouse (press/release/drag, SGR coordinates), bracketed paste
        console.write("\033[?1049h\033[?1000h\033[?1002h\033[?1006h\033[?2004h\033[?25l");
        String message;
        try {
            message = app.run();
        } finally {
            console.write(app.restoreSequence() + "\033[?2004l\033[?1006l\033[?1002l\033[?1000l\033[0m\033[0 q\033[?25h\033[?1049l");
            console.restore();
        }
        if (message != null) {
            System.out.println(message);
        }
        return 0;
    }
}

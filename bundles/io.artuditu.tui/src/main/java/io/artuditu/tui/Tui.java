package io.artuditu.tui;

import io.artuditu.uhp.api.home.SocketLocation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.InfoCmp;

/**
 * {@code artu} with no command, and {@code artu attach}: the workbench in this terminal.
 * A client like any other: it starts no framework and reaches the server only through UHP.
 *
 * <p>Exit status: 0 detached, 2 usage, 3 no server (attach does not start one).
 * JLine sets raw mode, reports the size and SIGWINCH and answers terminfo; keys are read from
 * standard input directly and the picture is written through JLine's writer.
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
            String inherited = env.get("ARTUDITU_SOCKET_PATH");
            loc = session == null && inherited != null && !inherited.isBlank()
                    ? SocketLocation.ofLogical(Path.of(inherited), SocketLocation::currentUid)
                    : SocketLocation.resolve(SocketLocation.home(env), session, SocketLocation::currentUid);
        } catch (IllegalArgumentException e) {
            System.err.println("artu: " + e.getMessage());
            return 2;
        }
        Uhp uhp = new Uhp(loc.bind());
        if (!answers(uhp)) {
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
            return workbench(uhp, session == null ? "default" : session);
        } catch (IOException e) {
            System.err.println("artu: " + e.getMessage());
            return 1;
        }
    }

    private static boolean answers(Uhp uhp) {
        try {
            uhp.call("ping", Uhp.params());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int workbench(Uhp uhp, String session) throws IOException {
        Terminal t = TerminalBuilder.builder().system(true).dumb(false).encoding(StandardCharsets.UTF_8).build();
        if (Terminal.TYPE_DUMB.equals(t.getType()) || Terminal.TYPE_DUMB_COLOR.equals(t.getType())) {
            t.close();
            System.err.println("artu: the workbench needs a terminal (stdin and stdout a tty)");
            return 2;
        }
        Attributes saved = t.enterRawMode();
        PrintWriter w = t.writer();
        // alternate screen, mouse (press/release/drag, SGR coordinates), bracketed paste
        w.write("\033[?1049h\033[?1000h\033[?1002h\033[?1006h\033[?2004h\033[?25l");
        w.flush();
        String message;
        try {
            message = new App(uhp, new JLineOuter(t), session).run();
        } finally {
            w.write("\033[?2004l\033[?1006l\033[?1002l\033[?1000l\033[0m\033[0 q\033[?25h\033[?1049l");
            w.flush();
            t.setAttributes(saved);
            t.close();
        }
        if (message != null) {
            System.out.println(message);
        }
        return 0;
    }

    /** The outer terminal through JLine: raw input, size, SIGWINCH, colour depth from terminfo. */
    static final class JLineOuter implements App.Outer {
        private final Terminal t;
        /** Standard input itself, not JLine's reader: its pump thread and hand-off cost a millisecond a key. */
        private final java.io.InputStream in = new java.io.FileInputStream(java.io.FileDescriptor.in);
        private final PrintWriter writer;

        JLineOuter(Terminal t) {
            this.t = t;
            this.writer = t.writer();
        }

        @Override
        public int cols() {
            Size s = t.getSize();
            return s.getColumns() > 0 ? s.getColumns() : 80;
        }

        @Override
        public int rows() {
            Size s = t.getSize();
            return s.getRows() > 0 ? s.getRows() : 24;
        }

        @Override
        public int colorDepth() {
            String ct = System.getenv("COLORTERM");
            if (ct != null && (ct.equalsIgnoreCase("truecolor") || ct.equalsIgnoreCase("24bit"))) {
                return AnsiWriter.TRUECOLOR;
            }
            Integer n = t.getNumericCapability(InfoCmp.Capability.max_colors);
            return n != null && n >= 256 ? AnsiWriter.COLORS_256 : AnsiWriter.COLORS_16;
        }

        @Override
        public void onResize(Runnable r) {
            t.handle(Terminal.Signal.WINCH, s -> r.run());
        }

        @Override
        public int read(byte[] buf) throws IOException {
            return in.read(buf);
        }

        @Override
        public synchronized void write(String s) {
            writer.write(s);
            writer.flush();
        }
    }
}

package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real outer terminal for the TUI: an isolated tmux server (its own socket, no config
 * file) with one detached session of a fixed size running a plain bash, driven with
 * {@code send-keys} and read with {@code capture-pane}. Every wait is on a condition of the
 * screen with a deadline; a failed wait shows the screen it last saw.
 */
final class TmuxClient implements AutoCloseable {
    static final long DEADLINE_MS = 10_000;

    final Path socket;
    final String session;

    /**
     * Starts a tmux server on {@code socket} with session {@code session} of cols × rows in
     * {@code cwd}, running {@code argv} (default: bash without rc files, prompt {@code outer$ })
     * in a clean environment of PATH, HOME, TERM=tmux-256color, LANG=C.UTF-8 and {@code env}.
     */
    TmuxClient(Path socket, String session, int cols, int rows, Path cwd, Map<String, String> env, String... argv)
            throws IOException, InterruptedException {
        this.socket = socket;
        this.session = session;
        newSession(session, cols, rows, cwd, env, argv);
        // Keep a pane whose program ended, so a failure can still show its last screen.
        tmux("set-option", "-g", "remain-on-exit", "on");
    }

    /** Another session of {@code cols} × {@code rows} on the same tmux server. */
    TmuxClient session(String name, int cols, int rows, Path cwd, Map<String, String> env, String... argv)
            throws IOException, InterruptedException {
        newSession(name, cols, rows, cwd, env, argv);
        return new TmuxClient(socket, name);
    }

    private void newSession(String name, int cols, int rows, Path cwd, Map<String, String> env, String... argv)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("new-session", "-d", "-s", name, "-x", String.valueOf(cols),
                "-y", String.valueOf(rows), "-c", cwd.toString(), "--"));
        cmd.addAll(command(env, argv));
        tmux(cmd.toArray(new String[0]));
    }

    private TmuxClient(Path socket, String session) {
        this.socket = socket;
        this.session = session;
    }

    private static List<String> command(Map<String, String> env, String... argv) {
        Map<String, String> e = new TreeMap<>();
        e.put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        e.put("HOME", System.getProperty("java.io.tmpdir"));
        e.put("TERM", "tmux-256color");
        e.put("LANG", "C.UTF-8");
        e.put("PS1", "outer$ ");
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null) {
            e.put("JAVA_HOME", javaHome);
        }
        e.putAll(env);
        List<String> cmd = new ArrayList<>(List.of("env", "-i"));
        e.forEach((k, v) -> cmd.add(k + "=" + v));
        if (argv.length == 0) {
            cmd.addAll(List.of("bash", "--norc", "--noprofile"));
        } else {
            cmd.addAll(List.of(argv));
        }
        return cmd;
    }

    /** Runs one tmux command against this server; returns its stdout, fails on a non-zero exit. */
    String tmux(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-S", socket.toString(), "-f", "/dev/null"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("TMUX");
        pb.environment().put("LANG", "C.UTF-8");
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tmux " + String.join(" ", args) + " hung");
        }
        String s = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "tmux " + String.join(" ", args) + ": " + s);
        return s;
    }

    /** Types {@code text} literally. */
    void type(String text) throws IOException, InterruptedException {
        tmux("send-keys", "-t", session, "-l", text);
    }

    /** Sends tmux key names: {@code C-b}, {@code Enter}, {@code Left}, {@code C-Up}, {@code %}… */
    void keys(String... keys) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("send-keys", "-t", session));
        cmd.addAll(List.of(keys));
        tmux(cmd.toArray(new String[0]));
    }

    /** Types a command line and Enter. */
    void line(String text) throws IOException, InterruptedException {
        type(text);
        keys("Enter");
    }

    /** The prefix key, then {@code key}. */
    void prefix(String key) throws IOException, InterruptedException {
        keys("C-b", key);
    }

    void resize(int cols, int rows) throws IOException, InterruptedException {
        tmux("resize-window", "-t", session, "-x", String.valueOf(cols), "-y", String.valueOf(rows));
    }

    /** The screen as text, one string per row, trailing blanks kept. */
    Screen screen() throws IOException, InterruptedException {
        return Screen.parse(tmux("capture-pane", "-p", "-e", "-N", "-t", session));
    }

    /** Waits until the screen satisfies {@code cond}; returns that screen. */
    Screen await(String what, Predicate<Screen> cond) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + DEADLINE_MS;
        Screen s = screen();
        while (!cond.test(s)) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError(what + " within " + DEADLINE_MS / 1000 + " s; the screen:\n" + s.text());
            }
            Thread.sleep(40);
            s = screen();
        }
        return s;
    }

    /** Waits until {@code text} is somewhere on the screen. */
    Screen awaitText(String text) throws IOException, InterruptedException {
        return await("'" + text + "' on the screen", s -> s.text().contains(text));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        List<String> cmd = List.of("tmux", "-S", socket.toString(), "kill-server");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * A captured screen as cells: per column the grapheme (a wide one in its left cell, ""
     * in its right) and its rendition normalised from {@code capture-pane -e} (colours as
     * {@code i<index>} or {@code #rrggbb} whichever SGR form set them, attributes by name),
     * so two programs that draw the same picture compare equal.
     */
    record Screen(List<List<String>> chars, List<List<String>> styles) {
        static Screen parse(String captured) {
            List<List<String>> chars = new ArrayList<>();
            List<List<String>> styles = new ArrayList<>();
            String[] lines = captured.split("\n", -1);
            int n = lines.length;
            if (n > 0 && lines[n - 1].isEmpty()) {
                n--;
            }
            Sgr sgr = new Sgr();
            for (int li = 0; li < n; li++) {
                String l = lines[li];
                List<String> cs = new ArrayList<>();
                List<String> ss = new ArrayList<>();
                int i = 0;
                while (i < l.length()) {
                    char c = l.charAt(i);
                    if (c == '\033') {
                        i = sgr.apply(l, i);
                        continue;
                    }
                    int cp = l.codePointAt(i);
                    i += Character.charCount(cp);
                    int w = width(cp);
                    if (w == 0 && !cs.isEmpty()) {
                        int last = cs.size() - 1;
                        while (last > 0 && cs.get(last).isEmpty()) {
                            last--;
                        }
                        cs.set(last, cs.get(last) + new String(Character.toChars(cp)));
                        continue;
                    }
                    cs.add(new String(Character.toChars(cp)));
                    ss.add(sgr.toString());
                    if (w == 2) {
                        cs.add("");
                        ss.add(sgr.toString());
                    }
                }
                chars.add(cs);
                styles.add(ss);
            }
            return new Screen(chars, styles);
        }

        int rows() {
            return chars.size();
        }

        /** Row {@code y} as text (a wide grapheme once), trailing blanks cut. */
        String row(int y) {
            return cut(y, 0, Integer.MAX_VALUE);
        }

        /** Columns [x, x + w) of row {@code y} as text, trailing blanks cut. */
        String cut(int y, int x, int w) {
            if (y < 0 || y >= chars.size()) {
                return "";
            }
            List<String> r = chars.get(y);
            StringBuilder b = new StringBuilder();
            for (int c = x; c < Math.min(r.size(), x + (long) w); c++) {
                b.append(r.get(c));
            }
            return b.toString().stripTrailing();
        }

        /** The rendition of cell (x, y), "" past the end of the row. */
        String style(int x, int y) {
            List<String> r = styles.get(y);
            return x < r.size() ? r.get(x) : "";
        }

        /** The grapheme of cell (x, y): "" for the right half of a wide one, " " past the end. */
        String at(int x, int y) {
            List<String> r = chars.get(y);
            return x < r.size() ? r.get(x) : " ";
        }

        /** The rectangle's text, rows joined with newlines, each row's trailing blanks cut. */
        String region(int x, int y, int w, int h) {
            StringBuilder b = new StringBuilder();
            for (int r = y; r < y + h; r++) {
                b.append(cut(r, x, w)).append('\n');
            }
            return b.toString();
        }

        /**
         * The rectangle's cells as "char/rendition" per cell, where a blank with the default
         * rendition counts as nothing: what a terminal shows, cell for cell.
         */
        List<String> regionCells(int x, int y, int w, int h) {
            List<String> out = new ArrayList<>();
            for (int r = y; r < y + h; r++) {
                StringBuilder b = new StringBuilder();
                for (int c = x; c < x + w; c++) {
                    String g = at(c, r);
                    String s = c < styles.get(r).size() ? styles.get(r).get(c) : "";
                    b.append(g.isEmpty() ? "" : g).append(s.isEmpty() ? "" : "{" + s + "}").append('|');
                }
                out.add((r - y) + ": " + b);
            }
            return out;
        }

        /** Index of the first row containing {@code text}, or -1. */
        int find(String text) {
            for (int y = 0; y < chars.size(); y++) {
                if (row(y).contains(text)) {
                    return y;
                }
            }
            return -1;
        }

        /** The column where {@code text} starts on row {@code y} (cells, not chars), or -1. */
        int column(int y, String text) {
            List<String> r = chars.get(y);
            for (int x = 0; x < r.size(); x++) {
                if (!r.get(x).isEmpty() && cut(y, x, Integer.MAX_VALUE).startsWith(text)) {
                    return x;
                }
            }
            return -1;
        }

        String text() {
            StringBuilder b = new StringBuilder();
            for (int y = 0; y < chars.size(); y++) {
                b.append(row(y)).append('\n');
            }
            return b.toString();
        }
    }

    /** The cell width of a code point, as tmux counts it for the characters these tests draw. */
    static int width(int cp) {
        int t = Character.getType(cp);
        if (t == Character.NON_SPACING_MARK || t == Character.ENCLOSING_MARK || cp == 0x200D
                || (cp >= 0xFE00 && cp <= 0xFE0F)) {
            return 0;
        }
        if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F)
                || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
                || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F)
                || (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD)) {
            return 2;
        }
        return 1;
    }

    /** SGR state while reading capture-pane -e output. */
    private static final class Sgr {
        String fg = "";
        String bg = "";
        final java.util.TreeSet<String> attrs = new java.util.TreeSet<>();

        /** Applies the escape sequence at {@code i}; returns the index after it. */
        int apply(String l, int i) {
            int j = i + 1;
            if (j < l.length() && l.charAt(j) == '[') {
                int k = j + 1;
                while (k < l.length() && (Character.isDigit(l.charAt(k)) || l.charAt(k) == ';' || l.charAt(k) == ':')) {
                    k++;
                }
                if (k < l.length() && l.charAt(k) == 'm') {
                    sgr(l.substring(j + 1, k));
                }
                return Math.min(l.length(), k + 1);
            }
            if (j < l.length() && l.charAt(j) == ']') {
                // OSC (hyperlinks): up to BEL or ST
                int k = j + 1;
                while (k < l.length() && l.charAt(k) != '\007' && !(l.charAt(k) == '\033' && k + 1 < l.length()
                        && l.charAt(k + 1) == '\\')) {
                    k++;
                }
                return Math.min(l.length(), l.charAt(Math.min(k, l.length() - 1)) == '\007' ? k + 1 : k + 2);
            }
            return Math.min(l.length(), j + 1);
        }

        private void sgr(String params) {
            String[] p = params.isEmpty() ? new String[] {"0"} : params.split("[;:]", -1);
            for (int i = 0; i < p.length; i++) {
                int v = p[i].isEmpty() ? 0 : Integer.parseInt(p[i]);
                switch (v) {
                    case 0 -> { fg = ""; bg = ""; attrs.clear(); }
                    case 1 -> attrs.add("bold");
                    case 2 -> attrs.add("dim");
                    case 3 -> attrs.add("italic");
                    case 4 -> attrs.add("underline");
                    case 5 -> attrs.add("blink");
                    case 7 -> attrs.add("reverse");
                    case 8 -> attrs.add("hidden");
                    case 9 -> attrs.add("strike");
                    case 21 -> attrs.add("underline2");
                    case 22 -> { attrs.remove("bold"); attrs.remove("dim"); }
                    case 23 -> attrs.remove("italic");
                    case 24 -> { attrs.remove("underline"); attrs.remove("underline2"); }
                    case 25 -> attrs.remove("blink");
                    case 27 -> attrs.remove("reverse");
                    case 28 -> attrs.remove("hidden");
                    case 29 -> attrs.remove("strike");
                    case 39 -> fg = "";
                    case 49 -> bg = "";
                    case 38, 48 -> {
                        String c = "";
                        if (i + 2 < p.length && p[i + 1].equals("5")) {
                            c = "i" + Integer.parseInt(p[i + 2]);
                            i += 2;
                        } else if (i + 4 < p.length && p[i + 1].equals("2")) {
                            c = String.format("#%02x%02x%02x", Integer.parseInt(p[i + 2]), Integer.parseInt(p[i + 3]),
                                    Integer.parseInt(p[i + 4]));
                            i += 4;
                        }
                        if (v == 38) {
                            fg = c;
                        } else {
                            bg = c;
                        }
                    }
                    default -> {
                        if (v >= 30 && v <= 37) {
                            fg = "i" + (v - 30);
                        } else if (v >= 40 && v <= 47) {
                            bg = "i" + (v - 40);
                        } else if (v >= 90 && v <= 97) {
                            fg = "i" + (v - 90 + 8);
                        } else if (v >= 100 && v <= 107) {
                            bg = "i" + (v - 100 + 8);
                        }
                    }
                }
            }
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            if (!fg.isEmpty()) {
                b.append("fg=").append(fg).append(' ');
            }
            if (!bg.isEmpty()) {
                b.append("bg=").append(bg).append(' ');
            }
            for (String a : attrs) {
                b.append(a).append(' ');
            }
            return b.toString().strip();
        }
    }
}

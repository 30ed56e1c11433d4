package io.artuditu.cli;

import io.artuditu.themes.Theme;
import io.artuditu.themes.ThemeFolder;
import io.artuditu.themes.ThemeFormat;
import io.artuditu.themes.ThemeImport;
import io.artuditu.uhp.api.home.AtomicFiles;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpClientException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code artu theme install FILE} and {@code artu theme import FILE [--from F] [--id ID]
 * [--name NAME] [--scheme NAME] [--print]}: the client-side install flow the spec asks for
 * (the server never takes a path or a URL for a theme). The file is read bounded and checked
 * here with the server's own {@link ThemeFormat}; an id a built-in theme, {@code terminal} or
 * another file of the home's {@code themes/} already holds is refused; the theme is written
 * atomically ({@link AtomicFiles}: owner-only, a reader sees the old file or the new one) as
 * {@code <home>/themes/<id>.toml}, in a folder made {@code 0700}; then, when a server answers
 * on the selected socket, {@code theme.reload} (no params) is sent with bounded connect and
 * reply times. Only these two commands load the themes jar and Jackson's TOML and YAML
 * readers; the one-shot path never does.
 */
final class ThemeCommands {
    /** Where the built-in themes are listed inside the themes jar (one file name a line). */
    static final String BUILTIN = "io/artuditu/themes/builtin/";
    static final String BUILTIN_INDEX = BUILTIN + "index.txt";
    static final long CONNECT_MILLIS = 2_000;
    static final long REPLY_MILLIS = 10_000;
    /** theme.reload answers at most 512 problems; this is far above what they take. */
    static final int MAX_REPLY_BYTES = 4 << 20;

    /** A command line that is wrong (exit 2, nothing read or written). */
    static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    /** Refused: nothing was written; the message says why (exit 1, or 2 for {@link #usage}). */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        Refused(String message) {
            this(message, Artu.ERROR_REPLY);
        }

        Refused(String message, int status) {
            super(message);
            this.status = status;
        }
    }

    /** One parsed command line: {@code install} or {@code import}, the file and, for import, its options. */
    record Request(String verb, Path file, ThemeImport.Options options, boolean print) {
    }

    static final String INSTALL_USAGE = "artu theme install FILE";
    static final String IMPORT_USAGE = "artu theme import FILE [--from " + ThemeImport.Format.ids()
            + "] [--id ID] [--name NAME] [--scheme NAME] [--print]";

    private final UhpClient client;
    private final PrintStream out;
    private final PrintStream err;
    private final ClassLoader resources;

    ThemeCommands(UhpClient client, PrintStream out, PrintStream err, ClassLoader resources) {
        this.client = client;
        this.out = out;
        this.err = err;
        this.resources = resources;
    }

    /** {@code args}: {@code install|import FILE [flags]} ({@code --help} is answered from {@link Artu#LOCAL_USAGE}). */
    static int run(List<String> args, UhpClient client, PrintStream out, PrintStream err) {
        return new ThemeCommands(client, out, err, ThemeCommands.class.getClassLoader()).run(args);
    }

    int run(List<String> args) {
        String verb = args.get(0);
        String usage = verb.equals("install") ? INSTALL_USAGE : IMPORT_USAGE;
        Request r;
        try {
            r = parse(args);
        } catch (Usage e) {
            err.println("artu: " + e.getMessage());
            err.println("usage: " + usage);
            return Artu.USAGE;
        }
        try {
            return r.verb().equals("install") ? install(r.file()) : importTheme(r);
        } catch (Refused e) {
            err.println("artu: " + e.getMessage());
            return e.status;
        } catch (IOException e) {
            err.println("artu: " + e.getMessage());
            return Artu.ERROR_REPLY;
        }
    }

    static Request parse(List<String> args) throws Usage {
        String verb = args.get(0);
        boolean install = verb.equals("install");
        String file = null;
        Map<String, String> flags = new LinkedHashMap<>();
        boolean print = false;
        for (int k = 1; k < args.size(); k++) {
            String a = args.get(k);
            if (!install && a.equals("--print")) {
                print = true;
            } else if (!install && a.startsWith("--") && List.of("from", "id", "name", "scheme").contains(flagName(a))) {
                String name = flagName(a);
                String value;
                if (a.indexOf('=') > 0) {
                    value = a.substring(a.indexOf('=') + 1);
                } else if (k + 1 < args.size()) {
                    value = args.get(++k);
                } else {
                    throw new Usage("--" + name + " needs a value");
                }
                if (value.isEmpty()) {
                    throw new Usage("--" + name + " needs a value");
                }
                if (flags.put(name, value) != null) {
                    throw new Usage("--" + name + " is given twice");
                }
            } else if (a.startsWith("-") && !a.equals("-")) {
                throw new Usage("unknown flag " + a);
            } else if (file == null) {
                file = a;
            } else {
                throw new Usage("one file at a time (" + file + ", then " + a + ")");
            }
        }
        if (file == null || file.isEmpty()) {
            throw new Usage("which file?");
        }
        ThemeImport.Format from = null;
        if (flags.containsKey("from")) {
            from = ThemeImport.Format.of(flags.get("from"));
            if (from == null) {
                throw new Usage("--from takes " + ThemeImport.Format.ids().replace("|", ", ") + ", not " + flags.get("from"));
            }
        }
        String id = flags.get("id");
        if (id != null && !ThemeFormat.ID.matcher(id).matches()) {
            throw new Usage("--id " + id + ": 1-64 of a-z 0-9 _ . - starting with a letter or digit");
        }
        if (ThemeFormat.TERMINAL.equals(id)) {
            throw new Usage("--id terminal is reserved for the outer terminal's own colours");
        }
        Path path;
        try {
            path = Path.of(file);
        } catch (java.nio.file.InvalidPathException e) {
            throw new Usage("not a file name: " + e.getMessage());
        }
        return new Request(verb, path, new ThemeImport.Options(from, id, flags.get("name"), flags.get("scheme")), print);
    }

    private static String flagName(String a) {
        int eq = a.indexOf('=');
        return eq > 0 ? a.substring(2, eq) : a.substring(2);
    }

    private int install(Path file) throws Refused, IOException {
        byte[] bytes = readSource(file, ThemeFormat.MAX_BYTES);
        Theme theme;
        try {
            theme = ThemeFormat.parse(bytes);
        } catch (ThemeFormat.Invalid e) {
            throw new Refused(file + " is not a valid theme: " + e.getMessage() + "; nothing was installed");
        }
        return put(theme, bytes, file, null, List.of());
    }

    private int importTheme(Request r) throws Refused, IOException {
        byte[] bytes = readSource(r.file(), ThemeImport.MAX_BYTES);
        ThemeImport.Result result;
        try {
            result = ThemeImport.convert(bytes, r.file().getFileName().toString(), r.options());
        } catch (ThemeFormat.Invalid e) {
            throw new Refused("cannot import " + r.file() + ": " + e.getMessage() + "; nothing was installed");
        }
        for (String n : result.notes()) {
            err.println("artu: note: " + n);
        }
        if (r.print()) {
            for (String w : result.theme().warnings()) {
                err.println("artu: warning: " + w);
            }
            out.print(result.text());
            return Artu.OK;
        }
        return put(result.theme(), result.text().getBytes(StandardCharsets.UTF_8), r.file(), result.format(), result.notes());
    }

    /** Installs a checked theme's bytes as {@code <home>/themes/<id>.toml}, then asks the server to reload. */
    private int put(Theme theme, byte[] bytes, Path source, ThemeImport.Format format, List<String> notes)
            throws Refused, IOException {
        String id = theme.id();
        Map<String, String> builtins = builtins(resources);
        if (builtins.containsKey(id) || id.equals(ThemeFormat.TERMINAL)) {
            throw new Refused("id '" + id + "' is " + (id.equals(ThemeFormat.TERMINAL) ? "reserved for the outer terminal's"
                    + " own colours" : "a built-in theme's (" + builtins.get(id) + ")") + "; give the theme another id"
                    + (format == null ? " in the file" : " with --id") + "; nothing was installed");
        }
        Path dir = themesFolder(client.location());
        long uid = SocketLocation.currentUid();
        SocketLocation.ensureOwnerOnlyDirectory(dir.getParent(), uid);
        SocketLocation.ensureOwnerOnlyDirectory(dir, uid);
        Path target = dir.resolve(id + ".toml");
        String holder = otherHolder(dir, id, target);
        if (holder != null) {
            throw new Refused(dir.resolve(holder) + " already holds theme '" + id + "'; remove it, or give this theme"
                    + " another id; nothing was installed");
        }
        boolean replaced = false;
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new Refused(target + " is " + (Files.isSymbolicLink(target) ? "a symbolic link" : "not a regular file")
                        + ": it is not replaced; remove it to install '" + id + "'");
            }
            String held = heldId(target, dir);
            if (held != null && !held.equals(id)) {
                throw new Refused(target + " holds theme '" + held + "', not '" + id + "': it is not replaced; rename it to "
                        + held + ".toml or remove it");
            }
            replaced = true;
        }
        if (!AtomicFiles.write(target, bytes)) {
            err.println("artu: " + dir + " could not be synced; the theme is written but may not survive a crash yet");
        }
        for (String w : theme.warnings()) {
            err.println("artu: warning: " + w);
        }
        StringBuilder b = new StringBuilder("{\"type\":\"theme_installed\",\"id\":").append(MiniJson.quote(id))
                .append(",\"name\":").append(MiniJson.quote(theme.name()))
                .append(",\"file\":").append(MiniJson.quote(target.toString()))
                .append(",\"source\":").append(MiniJson.quote(source.toAbsolutePath().toString()));
        if (format != null) {
            b.append(",\"format\":").append(MiniJson.quote(format.id())).append(",\"notes\":").append(list(notes));
        }
        b.append(",\"replaced\":").append(replaced).append(",\"warnings\":").append(list(theme.warnings()));
        return reload(b, target);
    }

    /** Sends theme.reload to the selected server, if one answers, and prints the outcome with the install's. */
    private int reload(StringBuilder result, Path target) {
        String reply;
        try {
            reply = client.withTimeouts(CONNECT_MILLIS, REPLY_MILLIS).withMaxLineBytes(MAX_REPLY_BYTES).call("theme.reload", "{}");
        } catch (UhpClientException.Unreachable e) {
            out.println(result.append(",\"reload\":null}"));
            err.println("artu: " + e.getMessage() + "; the theme is installed and will be read when a server starts");
            return Artu.OK;
        } catch (IOException e) {
            out.println(result.append(",\"reload\":null}"));
            err.println("artu: " + e.getMessage() + "; the theme is installed: run artu theme reload");
            return Artu.ERROR_REPLY;
        }
        Map<String, String> m;
        try {
            m = MiniJson.members(reply);
        } catch (RuntimeException e) {
            out.println(result.append(",\"reload\":null}"));
            err.println("artu: unreadable reply to theme.reload: " + reply);
            return Artu.ERROR_REPLY;
        }
        String r = m.get("result");
        if (r == null) {
            out.println(result.append(",\"reload\":null}"));
            Map<String, String> e = MiniJson.members(m.getOrDefault("error", "{}"));
            err.println("artu: theme.reload: " + MiniJson.stringValue(e.get("code")) + ": " + MiniJson.stringValue(e.get("message"))
                    + "; the theme is installed in " + target);
            return Artu.ERROR_REPLY;
        }
        out.println(result.append(",\"reload\":").append(r).append('}'));
        int status = Artu.OK;
        try {
            for (String p : MiniJson.elements(MiniJson.members(r).getOrDefault("problems", "[]"))) {
                Map<String, String> problem = MiniJson.members(p);
                String file = MiniJson.stringValue(problem.get("file"));
                String message = MiniJson.stringValue(problem.get("message"));
                boolean ours = file != null && sameFile(Path.of(file), target);
                err.println("artu: " + (ours ? "the server did not take " : "the server left out ") + file + ": " + message);
                if (ours) {
                    status = Artu.ERROR_REPLY;
                }
            }
        } catch (RuntimeException e) {
            err.println("artu: the server's problems are unreadable: " + r);
        }
        return status;
    }

    /**
     * The {@code themes/} folder of the selected server's home: the home of the session
     * chosen by {@code --session} or {@code $ARTUDITU_HOME}; for a socket inherited in a pane,
     * the home that holds it ({@code <home>/artuditu.sock} or
     * {@code <home>/sessions/<name>/artuditu.sock}), since every session of a home shares its
     * themes.
     */
    static Path themesFolder(SocketLocation location) {
        Path home = location.home();
        if (location.session().isEmpty()) {
            Path parent = home.getParent();
            if (parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("sessions")
                    && parent.getParent() != null) {
                home = parent.getParent();
            }
        }
        return home.resolve("themes");
    }

    /**
     * The source file's bytes: a regular file (a symbolic link to one is fine) of at most
     * {@code max} bytes, checked before it is opened (a FIFO is never opened) and again while
     * reading.
     */
    static byte[] readSource(Path file, int max) throws Refused, IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new Refused(file + ": no such file", Artu.USAGE);
        }
        if (!a.isRegularFile()) {
            throw new Refused(file + " is not a regular file", Artu.USAGE);
        }
        if (a.size() > max) {
            throw new Refused(file + " is larger than " + max + " bytes (" + a.size() + "); nothing was installed", Artu.USAGE);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(max + 1);
        }
        if (bytes.length > max) {
            throw new Refused(file + " is larger than " + max + " bytes; nothing was installed", Artu.USAGE);
        }
        return bytes;
    }

    /**
     * The built-in themes by id, from the themes jar's index (absent: none): a built-in file
     * that does not parse is reserved by its file name's stem.
     */
    static Map<String, String> builtins(ClassLoader loader) throws IOException {
        Map<String, String> ids = new LinkedHashMap<>();
        InputStream index = loader.getResourceAsStream(BUILTIN_INDEX);
        if (index == null) {
            return ids;
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(index, StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null && n < ThemeFolder.MAX_FILES) {
                String name = line.strip();
                if (!ThemeFolder.isThemeFile(name) || name.contains("/")) {
                    continue;
                }
                n++;
                String id = name.substring(0, name.length() - ".toml".length());
                try (InputStream in = loader.getResourceAsStream(BUILTIN + name)) {
                    if (in != null) {
                        id = ThemeFormat.parse(in.readNBytes(ThemeFormat.MAX_BYTES + 1)).id();
                    }
                } catch (ThemeFormat.Invalid e) {
                    // reserved by its stem: the server leaves it out, and an id that looks like it stays free of doubt
                }
                ids.putIfAbsent(id, name);
            }
        }
        return ids;
    }

    /**
     * The name of a file in {@code dir} other than {@code target} that holds theme {@code id}
     * (the server would read only one of the two), or null. Read as the server reads the
     * folder: the first {@link ThemeFolder#MAX_FILES} theme files by name, each bounded; a
     * file that is not a valid theme holds no id.
     */
    static String otherHolder(Path dir, String id, Path target) throws IOException {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        Path real = dir.toRealPath();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.toml")) {
            for (Path p : ds) {
                if (ThemeFolder.isThemeFile(p.getFileName().toString())) {
                    files.add(p);
                }
            }
        }
        files.sort(null);
        for (Path f : files.subList(0, Math.min(files.size(), ThemeFolder.MAX_FILES))) {
            if (!f.getFileName().equals(target.getFileName()) && id.equals(heldId(f, real))) {
                return f.getFileName().toString();
            }
        }
        return null;
    }

    /** The id a theme file in the folder holds, or null when it is not a valid theme or cannot be read. */
    private static String heldId(Path file, Path folderReal) {
        try {
            return ThemeFormat.parse(ThemeFolder.read(file, folderReal.toRealPath())).id();
        } catch (ThemeFormat.Invalid | IOException e) {
            return null;
        }
    }

    /** The server may name the file by another path to it (a home reached through a link). */
    private static boolean sameFile(Path a, Path b) {
        try {
            return a.equals(b) || Files.isSameFile(a, b);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String list(List<String> xs) {
        StringBuilder b = new StringBuilder("[");
        for (String x : xs) {
            b.append(b.length() > 1 ? "," : "").append(MiniJson.quote(x));
        }
        return b.append(']').toString();
    }
}

package io.artuditu.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code artu hook install|uninstall claude|codex|gemini [--settings FILE] [--dry-run]}: puts
 * {@code artu hook} into an agent's own configuration, or takes out exactly what it put
 * there (docs/agents/hooks.md).
 *
 * <p>Claude Code: one hook group per event in {@code settings.json}
 * ({@code $CLAUDE_CONFIG_DIR} or {@code ~/.claude}), merged beside the user's own settings
 * and hooks with Jackson (rare, so off the one-shot path), written back in the layout Claude
 * Code writes (two-space indent), so install then uninstall gives the same bytes. Gemini CLI:
 * the same, in its {@code settings.json} ({@code $GEMINI_CLI_HOME/.gemini} or
 * {@code ~/.gemini}), which has the same shape ({@link JsonHooks}). Codex: a
 * top-level {@code notify} in {@code config.toml} ({@code $CODEX_HOME} or {@code ~/.codex}),
 * one line added or removed as text ({@link CodexConfig}); a {@code notify} that runs
 * something else is refused, never replaced.
 *
 * <p>An entry is artu's when its command is {@code <path>/artu hook claude|gemini <Event>} (under
 * that event) or its notify is {@code ["<path>/artu", "hook", "codex", "notify"]}: a moved
 * checkout's entries are recognised and updated. Running install twice changes nothing the
 * second time; a file that is not valid JSON (or TOML this can follow) is refused and left
 * untouched. Files are replaced atomically (a temporary file beside the real one, its mode
 * kept, synced, renamed over it; a symbolic link is followed, not replaced).
 */
final class HookInstall {
    /** The Claude Code events artu listens to, in the order they are added. */
    static final List<String> CLAUDE_EVENTS = List.of("UserPromptSubmit", "PreToolUse", "PostToolUse", "Notification",
            "Stop", "SubagentStop", "SessionStart", "SessionEnd");
    static final JsonHooks CLAUDE = new JsonHooks("claude", CLAUDE_EVENTS, Set.of("PreToolUse", "PostToolUse"), null);
    /**
     * The Gemini CLI events artu listens to: the ones its manifest maps, but for
     * {@code BeforeModel}, which fires before every model request (the CLI waits for each
     * hook, and {@code BeforeAgent} and {@code AfterTool} have already said "working").
     */
    static final List<String> GEMINI_EVENTS = List.of("SessionStart", "BeforeAgent", "BeforeTool", "AfterTool",
            "PreCompress", "Notification", "AfterAgent", "SessionEnd");
    /** Named, so that Gemini CLI's {@code /hooks disable artu} turns them all off at once. */
    static final JsonHooks GEMINI = new JsonHooks("gemini", GEMINI_EVENTS, Set.of("BeforeTool", "AfterTool"), "artu");
    static final String AGENTS = "claude|codex|gemini";

    /** Refused: nothing was written; the message says why and what to do. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /**
     * What a run found and did.
     *
     * @param before the file's text ("" when absent)
     * @param after the text it has (or would have) afterwards
     * @param added events (or {@code notify}) added
     * @param updated events whose artu command named another path and now names this one
     * @param kept events already as wanted (install) or left alone (uninstall)
     * @param removed events removed (uninstall)
     */
    record Outcome(String before, String after, List<String> added, List<String> updated, List<String> kept,
            List<String> removed) {
        boolean changed() {
            return !added.isEmpty() || !updated.isEmpty() || !removed.isEmpty();
        }
    }

    private HookInstall() {
    }

    /** {@code args}: {@code install|uninstall AGENT [--settings FILE] [--dry-run]}. */
    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        String verb = args.get(0);
        String agent = null;
        String settings = null;
        boolean dryRun = false;
        for (int k = 1; k < args.size(); k++) {
            String a = args.get(k);
            if (a.equals("--dry-run")) {
                dryRun = true;
            } else if (a.equals("--settings") && k + 1 < args.size()) {
                settings = args.get(++k);
            } else if (a.startsWith("--settings=")) {
                settings = a.substring("--settings=".length());
            } else if (a.equals("--help") || a.equals("-h")) {
                out.println("usage: artu hook " + verb + " " + AGENTS + " [--settings FILE] [--dry-run]");
                return Artu.OK;
            } else if (agent == null && !a.startsWith("-")) {
                agent = a;
            } else {
                return usage(verb, "unexpected argument: " + a, err);
            }
        }
        if (agent == null || !List.of(AGENTS.split("\\|")).contains(agent)) {
            return usage(verb, agent == null ? "which agent?" : "no ready-made hooks for " + agent + " (claude, codex, gemini)", err);
        }
        if (settings != null && settings.isEmpty()) {
            return usage(verb, "--settings needs a file", err);
        }
        boolean install = verb.equals("install");
        Path file = settings != null ? Path.of(settings) : defaultFile(agent, env);
        String artu = artuPath(env);
        try {
            String before = read(file);
            Outcome o = switch (agent) {
                case "claude" -> install ? CLAUDE.install(before, artu) : CLAUDE.uninstall(before);
                case "gemini" -> install ? GEMINI.install(before, artu) : GEMINI.uninstall(before);
                default -> install ? installCodex(before, artu, file) : uninstallCodex(before);
            };
            boolean written = false;
            if (o.changed() && !dryRun) {
                write(file, o.after());
                written = true;
            }
            if (dryRun) {
                out.print(o.after());
                err.println("artu: " + summary(install, o, file) + " (dry run: nothing written)");
            } else {
                out.println(result(verb, agent, file, artu, o, written));
            }
            String off = install && agent.equals("gemini") ? geminiHooksOff(o.after()) : null;
            if (off != null) {
                err.println("artu: " + file + " sets " + off + ", so Gemini CLI will not run these hooks; left as it is"
                        + " (your setting): change it in that file to have them run");
            }
            if (!install && agent.equals("codex") && !o.changed() && !o.kept().isEmpty()) {
                err.println("artu: " + file + " sets a notify that is not artu's: left alone");
            }
            return Artu.OK;
        } catch (Refused e) {
            err.println("artu: " + e.getMessage());
            return Artu.ERROR_REPLY;
        } catch (IOException e) {
            err.println("artu: " + file + ": " + e.getMessage());
            return Artu.ERROR_REPLY;
        }
    }

    private static int usage(String verb, String problem, PrintStream err) {
        err.println("artu: " + problem);
        err.println("usage: artu hook " + verb + " " + AGENTS + " [--settings FILE] [--dry-run]");
        return Artu.USAGE;
    }

    static Path defaultFile(String agent, Map<String, String> env) {
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        if (agent.equals("claude")) {
            String dir = env.get("CLAUDE_CONFIG_DIR");
            return (dir != null && !dir.isEmpty() ? Path.of(dir) : Path.of(home, ".claude")).resolve("settings.json");
        }
        if (agent.equals("gemini")) {
            // Gemini CLI's own rule (Storage.getGlobalGeminiDir): GEMINI_CLI_HOME stands for the home directory
            String dir = env.get("GEMINI_CLI_HOME");
            return Path.of(dir != null && !dir.isEmpty() ? dir : home, ".gemini", "settings.json");
        }
        String dir = env.get("CODEX_HOME");
        return (dir != null && !dir.isEmpty() ? Path.of(dir) : Path.of(home, ".codex")).resolve("config.toml");
    }

    /**
     * The {@code artu} the hooks should run: the launcher exports its own absolute path as
     * {@code ARTUDITU_CLI} (and runs hooks without its build check); else the first
     * {@code artu} on {@code PATH}; else plain {@code artu}.
     */
    static String artuPath(Map<String, String> env) {
        String cli = env.get("ARTUDITU_CLI");
        if (cli != null && !cli.isEmpty() && Path.of(cli).isAbsolute()) {
            return cli;
        }
        String path = env.get("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, "artu");
                if (Path.of(dir.isEmpty() ? "." : dir).isAbsolute() && Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return "artu";
    }

    // --- Claude Code and Gemini CLI -----------------------------------------------------------

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    /** The command artu's hook for {@code event} runs. */
    static String claudeCommand(String artu, String event) {
        return CLAUDE.command(artu, event);
    }

    static Outcome installClaude(String before, String artu) throws Refused {
        return CLAUDE.install(before, artu);
    }

    static Outcome uninstallClaude(String before) throws Refused {
        return CLAUDE.uninstall(before);
    }

    static Outcome installGemini(String before, String artu) throws Refused {
        return GEMINI.install(before, artu);
    }

    static Outcome uninstallGemini(String before) throws Refused {
        return GEMINI.uninstall(before);
    }

    /**
     * A settings file whose {@code "hooks"} object maps each event to a list of groups,
     * {@code {"matcher": …, "hooks": [{"type": "command", "command": …}]}}: Claude Code's
     * layout, which Gemini CLI took over. One group of artu's per event, after the user's own;
     * an entry is artu's when its command is {@code <path>/artu hook <agent> <Event>} under
     * that event.
     *
     * @param agent the agent's name in artu's command
     * @param events the events artu listens to, in the order their groups are added
     * @param toolEvents events whose groups get {@code "matcher": "*"} (every tool)
     * @param name the hook's {@code "name"}, or null for none
     */
    record JsonHooks(String agent, List<String> events, Set<String> toolEvents, String name) {
        /** The command artu's hook for {@code event} runs. */
        String command(String artu, String event) {
            return shellWord(artu) + " hook " + agent + " " + event;
        }

        Outcome install(String before, String artu) throws Refused {
            ObjectNode root = parseSettings(before);
            ObjectNode hooks = hooksOf(root, true);
            List<String> added = new ArrayList<>();
            List<String> updated = new ArrayList<>();
            List<String> kept = new ArrayList<>();
            for (String event : events) {
                String wanted = command(artu, event);
                ArrayNode groups = groupsOf(hooks, event);
                ObjectNode ours = groups == null ? null : findOurs(groups, event);
                if (ours == null) {
                    if (groups == null) {
                        groups = hooks.putArray(event);
                    }
                    ObjectNode group = groups.addObject();
                    if (toolEvents.contains(event)) {
                        group.put("matcher", "*");
                    }
                    ObjectNode hook = group.putArray("hooks").addObject();
                    if (name != null) {
                        hook.put("name", name);
                    }
                    hook.put("type", "command").put("command", wanted);
                    added.add(event);
                } else if (ours.path("command").asText().equals(wanted)) {
                    kept.add(event);
                } else {
                    ours.put("command", wanted);
                    updated.add(event);
                }
            }
            return new Outcome(before, render(root, before), added, updated, kept, List.of());
        }

        Outcome uninstall(String before) throws Refused {
            if (before.isBlank()) {
                return new Outcome(before, before, List.of(), List.of(), List.of(), List.of());
            }
            ObjectNode root = parseSettings(before);
            ObjectNode hooks = hooksOf(root, false);
            List<String> removed = new ArrayList<>();
            if (hooks != null) {
                for (String event : events) {
                    ArrayNode groups = groupsOf(hooks, event);
                    if (groups == null) {
                        continue;
                    }
                    boolean any = false;
                    for (int g = groups.size() - 1; g >= 0; g--) {
                        JsonNode hs = groups.get(g).path("hooks");
                        if (!hs.isArray()) {
                            continue;
                        }
                        boolean here = false;
                        for (int h = hs.size() - 1; h >= 0; h--) {
                            if (isOurs(hs.get(h), event)) {
                                ((ArrayNode) hs).remove(h);
                                here = true;
                            }
                        }
                        if (here && hs.isEmpty()) {
                            groups.remove(g);
                        }
                        any |= here;
                    }
                    if (any) {
                        removed.add(event);
                        if (groups.isEmpty()) {
                            hooks.remove(event);
                        }
                    }
                }
                if (!removed.isEmpty() && hooks.isEmpty()) {
                    root.remove("hooks");
                }
            }
            if (removed.isEmpty()) {
                return new Outcome(before, before, List.of(), List.of(), List.of(), List.of());
            }
            return new Outcome(before, render(root, before), List.of(), List.of(), List.of(), removed);
        }

        private ObjectNode findOurs(ArrayNode groups, String event) {
            for (JsonNode group : groups) {
                for (JsonNode h : group.path("hooks")) {
                    if (isOurs(h, event)) {
                        return (ObjectNode) h;
                    }
                }
            }
            return null;
        }

        private boolean isOurs(JsonNode hook, String event) {
            return hook.isObject() && "command".equals(hook.path("type").asText()) && hook.path("command").isTextual()
                    && ownProgram(hook.path("command").asText(), " hook " + agent + " " + event) != null;
        }
    }

    private static ObjectNode parseSettings(String text) throws Refused {
        if (text.isBlank()) {
            return JSON.createObjectNode();
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Refused("the settings file is not valid JSON, so it was left as it is: "
                    + e.getOriginalMessage() + " (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new Refused("the settings file is not a JSON object, so it was left as it is");
        }
        return (ObjectNode) root;
    }

    private static ObjectNode hooksOf(ObjectNode root, boolean create) throws Refused {
        JsonNode hooks = root.get("hooks");
        if (hooks == null) {
            return create ? root.putObject("hooks") : null;
        }
        if (!hooks.isObject()) {
            throw new Refused("\"hooks\" in the settings file is not an object, so it was left as it is");
        }
        return (ObjectNode) hooks;
    }

    private static ArrayNode groupsOf(ObjectNode hooks, String event) throws Refused {
        JsonNode groups = hooks.get(event);
        if (groups == null) {
            return null;
        }
        if (!groups.isArray()) {
            throw new Refused("\"hooks\"." + event + " in the settings file is not an array, so it was left as it is");
        }
        return (ArrayNode) groups;
    }

    /** The artu program of {@code command} when it is {@code <artu> <suffix>} and nothing else, else null. */
    static String ownProgram(String command, String suffix) {
        if (!command.endsWith(suffix)) {
            return null;
        }
        String program = unshell(command.substring(0, command.length() - suffix.length()));
        return program != null && isArtu(program) ? program : null;
    }

    private static boolean isArtu(String program) {
        return program.equals("artu") || program.endsWith("/artu");
    }

    /** {@code JSON.stringify(settings, null, 2)}'s layout, the trailing newline as the file had it. */
    private static String render(ObjectNode root, String before) {
        DefaultIndenter indent = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter pretty = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator(""))
                .withObjectIndenter(indent)
                .withArrayIndenter(indent);
        try {
            String text = JSON.writer(pretty).writeValueAsString(root);
            return before.isBlank() || before.endsWith("\n") ? text + "\n" : text;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One shell word: as is when it needs no quoting, else in single quotes. */
    static String shellWord(String s) {
        if (!s.isEmpty() && s.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "_@%+=:,./-".indexOf(c) >= 0)) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** The word {@link #shellWord} makes (single quotes and backslashes), or null for anything else a shell would read differently. */
    static String unshell(String w) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < w.length(); k++) {
            char c = w.charAt(k);
            if (c == '\'') {
                int end = w.indexOf('\'', k + 1);
                if (end < 0) {
                    return null;
                }
                b.append(w, k + 1, end);
                k = end;
            } else if (c == '\\' && k + 1 < w.length()) {
                b.append(w.charAt(++k));
            } else if (" \t\n\"$`;&|<>()*?[]#~!{}".indexOf(c) >= 0) {
                return null;
            } else {
                b.append(c);
            }
        }
        return b.length() == 0 ? null : b.toString();
    }

    /**
     * The setting in {@code text} that keeps Gemini CLI from running artu's hooks, or null.
     * Hooks run by default since Gemini CLI 0.26, unless {@code hooksConfig.enabled} (or, in
     * 0.26 and 0.27, {@code tools.enableHooks}) is {@code false}, or {@code hooksConfig.disabled}
     * names them ({@code /hooks disable artu}). Install reports it and leaves it: it is the
     * user's choice, and other settings files (a project's, the system's) may decide too.
     */
    static String geminiHooksOff(String text) {
        try {
            JsonNode root = text.isBlank() ? null : JSON.readTree(text);
            if (root == null) {
                return null;
            }
            JsonNode config = root.path("hooksConfig");
            if (config.path("enabled").isBoolean() && !config.path("enabled").asBoolean()) {
                return "hooksConfig.enabled = false";
            }
            if (root.path("tools").path("enableHooks").isBoolean() && !root.path("tools").path("enableHooks").asBoolean()) {
                return "tools.enableHooks = false";
            }
            for (JsonNode name : config.path("disabled")) {
                if (name.isTextual() && name.asText().equals(GEMINI.name())) {
                    return "hooksConfig.disabled naming \"" + GEMINI.name() + "\"";
                }
            }
            return null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    // --- codex ---------------------------------------------------------------------------------

    static final List<String> CODEX_ARGS = List.of("hook", "codex", "notify");

    static String codexNotify(String artu) {
        StringBuilder b = new StringBuilder("notify = [").append(CodexConfig.quote(artu));
        for (String a : CODEX_ARGS) {
            b.append(", ").append(CodexConfig.quote(a));
        }
        return b.append(']').toString();
    }

    private static boolean ownNotify(List<String> argv) {
        return argv != null && argv.size() == 1 + CODEX_ARGS.size() && isArtu(argv.get(0))
                && argv.subList(1, argv.size()).equals(CODEX_ARGS);
    }

    static Outcome installCodex(String before, String artu, Path file) throws Refused {
        CodexConfig.Scan scan = scanToml(before);
        CodexConfig.Entry notify = scan.find("notify");
        String line = codexNotify(artu);
        if (notify != null) {
            String value = before.substring(notify.valueStart(), notify.valueEnd());
            List<String> argv = CodexConfig.stringArray(value);
            if (!ownNotify(argv)) {
                throw new Refused(file + " already sets notify = " + (value.length() > 200 ? value.substring(0, 200) + "…" : value)
                        + "; codex runs one notify program, so it was left as it is. Remove that line, or have that program"
                        + " also run: " + shellWord(artu) + " hook codex notify \"$JSON\" (codex passes the JSON as the last"
                        + " argument), then run this again");
            }
            if (argv.get(0).equals(artu)) {
                return new Outcome(before, before, List.of(), List.of(), List.of("notify"), List.of());
            }
            String after = before.substring(0, notify.valueStart()) + line.substring("notify = ".length())
                    + before.substring(notify.valueEnd());
            return new Outcome(before, after, List.of(), List.of("notify"), List.of(), List.of());
        }
        // after the last top-level key, else before the first table, else at the end: still top level
        List<CodexConfig.Entry> entries = scan.entries();
        int at = !entries.isEmpty() ? entries.get(entries.size() - 1).end() : scan.firstTable() >= 0 ? scan.firstTable() : before.length();
        String insert = at == before.length() && at > 0 && before.charAt(at - 1) != '\n' ? "\n" + line : line + "\n";
        String after = before.substring(0, at) + insert + before.substring(at);
        return new Outcome(before, after, List.of("notify"), List.of(), List.of(), List.of());
    }

    static Outcome uninstallCodex(String before) throws Refused {
        CodexConfig.Scan scan = scanToml(before);
        CodexConfig.Entry notify = scan.find("notify");
        if (notify == null) {
            return new Outcome(before, before, List.of(), List.of(), List.of(), List.of());
        }
        if (!ownNotify(CodexConfig.stringArray(before.substring(notify.valueStart(), notify.valueEnd())))) {
            return new Outcome(before, before, List.of(), List.of(), List.of("notify"), List.of());
        }
        int start = notify.start();
        int end = notify.end();
        if (end == before.length() && before.charAt(end - 1) != '\n' && start > 0 && before.charAt(start - 1) == '\n') {
            start--; // install added the newline that ended the line before
        }
        return new Outcome(before, before.substring(0, start) + before.substring(end), List.of(), List.of(), List.of(),
                List.of("notify"));
    }

    private static CodexConfig.Scan scanToml(String text) throws Refused {
        try {
            return CodexConfig.scan(text);
        } catch (CodexConfig.Malformed e) {
            throw new Refused("the codex config is not TOML this can edit safely, so it was left as it is: " + e.getMessage());
        }
    }

    // --- files ---------------------------------------------------------------------------------

    /** The file's text, "" when it does not exist; UTF-8 only (a file in another encoding is refused). */
    static String read(Path file) throws IOException, Refused {
        if (!Files.exists(file)) {
            return "";
        }
        byte[] bytes = Files.readAllBytes(file);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Refused(file + " is not UTF-8 text, so it was left as it is");
        }
    }

    /**
     * Replaces the file (the target of a symbolic link, not the link) with {@link AtomicFiles},
     * keeping the old file's mode ({@code 0600} for a new one).
     */
    static void write(Path file, String text) throws IOException {
        Path target = Files.isSymbolicLink(file) ? file.toRealPath() : file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Set<PosixFilePermission> mode = Files.exists(target) ? Files.getPosixFilePermissions(target)
                : PosixFilePermissions.fromString("rw-------");
        AtomicFiles.write(target, text.getBytes(StandardCharsets.UTF_8), mode);
    }

    // --- output --------------------------------------------------------------------------------

    private static String result(String verb, String agent, Path file, String artu, Outcome o, boolean written) {
        StringBuilder b = new StringBuilder("{\"type\":\"hook_").append(verb).append("\",\"agent\":").append(MiniJson.quote(agent))
                .append(",\"file\":").append(MiniJson.quote(file.toString()));
        if (verb.equals("install")) {
            b.append(",\"command\":").append(MiniJson.quote(artu)).append(",\"added\":").append(list(o.added()))
                    .append(",\"updated\":").append(list(o.updated())).append(",\"unchanged\":").append(list(o.kept()));
        } else {
            b.append(",\"removed\":").append(list(o.removed()));
        }
        return b.append(",\"written\":").append(written).append('}').toString();
    }

    private static String list(List<String> xs) {
        StringBuilder b = new StringBuilder("[");
        for (String x : xs) {
            b.append(b.length() > 1 ? "," : "").append(MiniJson.quote(x));
        }
        return b.append(']').toString();
    }

    private static String summary(boolean install, Outcome o, Path file) {
        if (!o.changed()) {
            return file + ": nothing to " + (install ? "add" : "remove");
        }
        List<String> parts = new ArrayList<>();
        if (!o.added().isEmpty()) {
            parts.add("would add " + String.join(", ", o.added()));
        }
        if (!o.updated().isEmpty()) {
            parts.add("would update " + String.join(", ", o.updated()));
        }
        if (!o.removed().isEmpty()) {
            parts.add("would remove " + String.join(", ", o.removed()));
        }
        return file + ": " + String.join("; ", parts);
    }
}

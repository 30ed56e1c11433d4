package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code artu hook install|uninstall}: merged beside what the user has, idempotent, undone exactly, never half-written. */
class HookInstallTest {
    static final String ARTU = "/opt/artuditu/artu";
    /** A settings file as Claude Code writes it (JSON.stringify, two spaces), with a hook of the user's own. */
    static final String USER_SETTINGS = String.join("\n",
            "{",
            "  \"model\": \"opus\",",
            "  \"permissions\": {",
            "    \"allow\": [",
            "      \"Bash(npm test:*)\"",
            "    ],",
            "    \"deny\": []",
            "  },",
            "  \"hooks\": {",
            "    \"PostToolUse\": [",
            "      {",
            "        \"matcher\": \"Edit|Write\",",
            "        \"hooks\": [",
            "          {",
            "            \"type\": \"command\",",
            "            \"command\": \"npx prettier --write \\\"$CLAUDE_FILE_PATHS\\\"\",",
            "            \"timeout\": 30",
            "          }",
            "        ]",
            "      }",
            "    ],",
            "    \"Stop\": [",
            "      {",
            "        \"hooks\": [",
            "          {",
            "            \"type\": \"command\",",
            "            \"command\": \"afplay /System/Library/Sounds/Glass.aiff\"",
            "          }",
            "        ]",
            "      }",
            "    ]",
            "  },",
            "  \"feedbackSurveyRate\": 0.05",
            "}") + "\n";

    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int artu(String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("ARTUDITU_CLI", ARTU);
        env.put("HOME", dir.toString());
        out.reset();
        err.reset();
        List<String> argv = new ArrayList<>(List.of("hook"));
        argv.addAll(List.of(args));
        return new Artu(env, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(argv.toArray(new String[0]));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private static JsonNode json(String s) throws IOException {
        return new ObjectMapper().readTree(s);
    }

    @Test
    void installMergesBesideTheUsersSettingsAndHooks() throws IOException {
        Path f = dir.resolve("settings.json");
        Files.writeString(f, USER_SETTINGS);
        assertEquals(0, artu("install", "claude", "--settings", f.toString()));
        JsonNode s = json(Files.readString(f));
        assertEquals("opus", s.path("model").asText());
        assertEquals("Bash(npm test:*)", s.path("permissions").path("allow").get(0).asText());
        assertEquals("0.05", s.path("feedbackSurveyRate").asText());
        // the user's hooks first, as they were; artu's after them
        JsonNode post = s.path("hooks").path("PostToolUse");
        assertEquals(2, post.size());
        assertEquals("Edit|Write", post.get(0).path("matcher").asText());
        assertEquals(30, post.get(0).path("hooks").get(0).path("timeout").asInt());
        assertEquals("*", post.get(1).path("matcher").asText());
        assertEquals(ARTU + " hook claude PostToolUse", post.get(1).path("hooks").get(0).path("command").asText());
        assertEquals("afplay /System/Library/Sounds/Glass.aiff", s.path("hooks").path("Stop").get(0).path("hooks").get(0).path("command").asText());
        for (String event : HookInstall.CLAUDE_EVENTS) {
            JsonNode groups = s.path("hooks").path(event);
            JsonNode last = groups.get(groups.size() - 1);
            assertEquals("command", last.path("hooks").get(0).path("type").asText());
            assertEquals(ARTU + " hook claude " + event, last.path("hooks").get(0).path("command").asText(), event);
            assertEquals(event.endsWith("ToolUse"), last.has("matcher"), event);
        }
        JsonNode result = json(stdout());
        assertEquals("hook_install", result.path("type").asText());
        assertEquals(8, result.path("added").size());
        assertTrue(result.path("written").asBoolean());
    }

    @Test
    void installingTwiceAddsNothingAndLeavesTheFileAlone() throws IOException {
        Path f = dir.resolve("settings.json");
        Files.writeString(f, USER_SETTINGS);
        assertEquals(0, artu("install", "claude", "--settings", f.toString()));
        String once = Files.readString(f);
        long modified = Files.getLastModifiedTime(f).toMillis();
        assertEquals(0, artu("install", "claude", "--settings", f.toString()));
        assertEquals(once, Files.readString(f));
        assertEquals(modified, Files.getLastModifiedTime(f).toMillis());
        JsonNode result = json(stdout());
        assertEquals(0, result.path("added").size());
        assertEquals(8, result.path("unchanged").size());
        assertFalse(result.path("written").asBoolean());
    }

    @Test
    void aMovedArtuIsUpdatedInPlaceNotAddedAgain() throws IOException {
        Path f = dir.resolve("settings.json");
        Files.writeString(f, USER_SETTINGS);
        assertEquals(0, artu("install", "claude", "--settings", f.toString()));
        Files.writeString(f, Files.readString(f).replace(ARTU, "'/old place/artu'"));
        assertEquals(0, artu("install", "claude", "--settings", f.toString()));
        assertEquals(8, json(stdout()).path("updated").size());
        assertEquals(2, json(Files.readString(f)).path("hooks").path("PostToolUse").size());
        assertFalse(Files.readString(f).contains("old place"));
    }

    @Test
    void uninstallRestoresTheFileByteForByte() throws IOException {
        Path f = dir.resolve("settings.json");
        Files.writeString(f, USER_SETTINGS);
        assertEquals(0, artu("install", "claude", "--settings", f.toString()));
        assertNotEquals(USER_SETTINGS, Files.readString(f));
        assertEquals(0, artu("uninstall", "claude", "--settings", f.toString()));
        assertEquals(USER_SETTINGS, Files.readString(f));
        assertEquals(8, json(stdout()).path("removed").size());
        // and again: nothing to remove, nothing written
        assertEquals(0, artu("uninstall", "claude", "--settings", f.toString()));
        assertEquals(0, json(stdout()).path("removed").size());
    }

    @Test
    void uninstallIntoAFileInstallCreatedLeavesNoHooksKeyBehind() throws IOException {
        Path f = dir.resolve("new/settings.json");
        assertEquals(0, artu("install", "claude", "--settings", f.toString()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals(0, artu("uninstall", "claude", "--settings", f.toString()));
        assertEquals("{}\n", Files.readString(f));
    }

    @Test
    void aFileThatIsNotJsonIsRefusedAndLeftUntouched() throws IOException {
        Path f = dir.resolve("settings.json");
        String broken = "{\n  \"model\": \"opus\",\n  // a comment\n}\n";
        Files.writeString(f, broken);
        assertEquals(1, artu("install", "claude", "--settings", f.toString()));
        assertEquals(broken, Files.readString(f));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not valid JSON"), err.toString(StandardCharsets.UTF_8));
        assertEquals("", stdout());
        for (String bad : List.of("[1, 2]", "{\"hooks\": []}", "{\"hooks\": {\"Stop\": {}}}", "{\"a\": 1, \"a\": 2}", "{} {}")) {
            Files.writeString(f, bad);
            assertEquals(1, artu("install", "claude", "--settings", f.toString()), bad);
            assertEquals(bad, Files.readString(f));
            assertEquals(1, artu("uninstall", "claude", "--settings", f.toString()), bad);
            assertEquals(bad, Files.readString(f));
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(f), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void aDryRunPrintsTheResultAndWritesNothing() throws Exception {
        Path f = dir.resolve("settings.json");
        Files.writeString(f, USER_SETTINGS);
        assertEquals(0, artu("install", "claude", "--settings", f.toString(), "--dry-run"));
        assertEquals(USER_SETTINGS, Files.readString(f));
        // stdout is the file as it would be: ready for diff
        assertEquals(ARTU + " hook claude SessionEnd",
                json(stdout()).path("hooks").path("SessionEnd").get(0).path("hooks").get(0).path("command").asText());
        assertEquals(HookInstall.installClaude(USER_SETTINGS, ARTU).after(), stdout());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("would add UserPromptSubmit"), err.toString(StandardCharsets.UTF_8));
        Path absent = dir.resolve("absent/settings.json");
        assertEquals(0, artu("install", "claude", "--settings", absent.toString(), "--dry-run"));
        assertFalse(Files.exists(absent.getParent()));
    }

    @Test
    void theFilesModeIsKeptAndASymbolicLinkIsFollowed() throws IOException {
        Path real = Files.createDirectories(dir.resolve("dotfiles")).resolve("claude.json");
        Files.writeString(real, USER_SETTINGS);
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-r-----"));
        Path link = Files.createDirectories(dir.resolve(".claude")).resolve("settings.json");
        Files.createSymbolicLink(link, real);
        assertEquals(0, artu("install", "claude")); // the default: $HOME/.claude/settings.json
        assertTrue(Files.isSymbolicLink(link));
        assertTrue(Files.readString(real).contains(ARTU + " hook claude Stop"));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(real)));
    }

    @Test
    void aPathThatNeedsQuotingIsQuotedAndStillRecognised() throws IOException {
        assertEquals("'/home/a b/artu' hook claude Stop", HookInstall.claudeCommand("/home/a b/artu", "Stop"));
        assertEquals("'/x/it'\\''s/artu'", HookInstall.shellWord("/x/it's/artu"));
        assertEquals("/x/it's/artu", HookInstall.unshell("'/x/it'\\''s/artu'"));
        assertEquals("/home/a b/artu", HookInstall.ownProgram("'/home/a b/artu' hook claude Stop", " hook claude Stop"));
        assertEquals(null, HookInstall.ownProgram("/usr/bin/notartu hook claude Stop", " hook claude Stop"));
        assertEquals(null, HookInstall.ownProgram("echo; artu hook claude Stop", " hook claude Stop"));
        assertEquals(null, HookInstall.ownProgram("artu hook claude Stop", " hook claude PreToolUse"));
    }

    @Test
    void usageErrorsExit2AndWriteNothing() {
        assertEquals(Artu.USAGE, artu("install"));
        assertEquals(Artu.USAGE, artu("install", "aider"));
        assertEquals(Artu.USAGE, artu("install", "claude", "--bogus"));
        assertFalse(Files.exists(dir.resolve(".claude")));
    }

    // --- codex -------------------------------------------------------------------------------

    static final String CODEX = String.join("\n",
            "# my codex settings",
            "model = \"o3\"",
            "approval_policy = \"on-request\"  # ask first",
            "",
            "[profiles.fast]",
            "model = \"gpt-5-mini\"",
            "notify = [\"not-top-level\"]",
            "");

    @Test
    void codexGetsOneNotifyLineAtTopLevelAndUninstallTakesItOut() throws IOException {
        Path f = dir.resolve(".codex/config.toml");
        Files.createDirectories(f.getParent());
        Files.writeString(f, CODEX);
        assertEquals(0, artu("install", "codex"));
        String installed = Files.readString(f);
        assertEquals(CODEX.replace("# ask first\n", "# ask first\nnotify = [\"" + ARTU + "\", \"hook\", \"codex\", \"notify\"]\n"), installed);
        CodexConfig.Entry e = scan(installed).find("notify");
        assertEquals(List.of(ARTU, "hook", "codex", "notify"), CodexConfig.stringArray(installed.substring(e.valueStart(), e.valueEnd())));
        assertEquals(0, artu("install", "codex"));
        assertEquals(installed, Files.readString(f), "idempotent");
        assertFalse(json(stdout()).path("written").asBoolean());
        assertEquals(0, artu("uninstall", "codex"));
        assertEquals(CODEX, Files.readString(f));
    }

    @Test
    void codexFilesOfOtherShapesAreEditedAtTheirTopLevel() throws Exception {
        assertEquals("notify = [\"/a/artu\", \"hook\", \"codex\", \"notify\"]\n", installed("", "/a/artu"));
        assertEquals("model = \"o3\"\nnotify = [\"/a/artu\", \"hook\", \"codex\", \"notify\"]", installed("model = \"o3\"", "/a/artu"));
        assertEquals("# only a comment\nnotify = [\"/a/artu\", \"hook\", \"codex\", \"notify\"]\n[tui]\nx = 1\n",
                installed("# only a comment\n[tui]\nx = 1\n", "/a/artu"));
        String multi = "a = [\n  1,\n  [2, 3], # nested\n]\ns = \"\"\"\n[not a table]\n\"\"\"\n[t]\n";
        assertEquals(multi.replace("\"\"\"\n[t]", "\"\"\"\nnotify = [\"/a/artu\", \"hook\", \"codex\", \"notify\"]\n[t]"),
                installed(multi, "/a/artu"));
        for (String before : List.of("", "model = \"o3\"", "# only a comment\n[tui]\nx = 1\n", multi, CODEX)) {
            String after = installed(before, "/a/artu");
            assertEquals(before, HookInstall.uninstallCodex(after).after(), before);
        }
        // a moved artu: the value is replaced, nothing added
        HookInstall.Outcome moved = HookInstall.installCodex(installed(CODEX, "/old/artu"), "/a/artu", Path.of("c"));
        assertEquals(List.of("notify"), moved.updated());
        assertEquals(installed(CODEX, "/a/artu"), moved.after());
    }

    @Test
    void aNotifyOfSomeoneElsesIsRefusedNotReplaced() throws IOException {
        Path f = dir.resolve(".codex/config.toml");
        Files.createDirectories(f.getParent());
        String theirs = "notify = [\"python3\", \"/home/u/notify.py\"]\nmodel = \"o3\"\n";
        Files.writeString(f, theirs);
        assertEquals(1, artu("install", "codex"));
        assertEquals(theirs, Files.readString(f));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("already sets notify"), err.toString(StandardCharsets.UTF_8));
        assertEquals(0, artu("uninstall", "codex"));
        assertEquals(theirs, Files.readString(f), "uninstall leaves another program's notify alone");
        String broken = "model = \"o3\nnotify = 1\n";
        Files.writeString(f, broken);
        assertEquals(1, artu("install", "codex"));
        assertEquals(broken, Files.readString(f));
    }

    // --- Gemini CLI ---------------------------------------------------------------------------

    /** A Gemini CLI settings file (two spaces, as the CLI writes it) with a hook of the user's own and no newline at the end. */
    static final String GEMINI_SETTINGS = String.join("\n",
            "{",
            "  \"general\": {",
            "    \"vimMode\": true",
            "  },",
            "  \"security\": {",
            "    \"auth\": {",
            "      \"selectedType\": \"oauth-personal\"",
            "    }",
            "  },",
            "  \"hooks\": {",
            "    \"BeforeTool\": [",
            "      {",
            "        \"matcher\": \"write_file|replace\",",
            "        \"hooks\": [",
            "          {",
            "            \"name\": \"security-check\",",
            "            \"type\": \"command\",",
            "            \"command\": \"$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh\",",
            "            \"timeout\": 5000",
            "          }",
            "        ]",
            "      }",
            "    ]",
            "  }",
            "}");

    @Test
    void geminiInstallsBesideTheUsersHooksInItsOwnSettingsFile() throws IOException {
        Path f = dir.resolve(".gemini/settings.json");
        Files.createDirectories(f.getParent());
        Files.writeString(f, GEMINI_SETTINGS);
        assertEquals(0, artu("install", "gemini")); // the default: $HOME/.gemini/settings.json
        JsonNode s = json(Files.readString(f));
        assertTrue(s.path("general").path("vimMode").asBoolean());
        assertEquals("oauth-personal", s.path("security").path("auth").path("selectedType").asText());
        JsonNode before = s.path("hooks").path("BeforeTool");
        assertEquals(2, before.size());
        assertEquals("security-check", before.get(0).path("hooks").get(0).path("name").asText(), "the user's group first");
        assertEquals("*", before.get(1).path("matcher").asText());
        for (String event : HookInstall.GEMINI_EVENTS) {
            JsonNode groups = s.path("hooks").path(event);
            JsonNode last = groups.get(groups.size() - 1);
            JsonNode hook = last.path("hooks").get(0);
            assertEquals("artu", hook.path("name").asText(), event);
            assertEquals("command", hook.path("type").asText(), event);
            assertEquals(ARTU + " hook gemini " + event, hook.path("command").asText(), event);
            assertEquals(event.endsWith("Tool"), last.has("matcher"), event);
        }
        assertFalse(s.path("hooks").has("BeforeModel"), "not on every model request");
        JsonNode result = json(stdout());
        assertEquals("gemini", result.path("agent").asText());
        assertEquals(f.toString(), result.path("file").asText());
        assertEquals(HookInstall.GEMINI_EVENTS.size(), result.path("added").size());
        assertTrue(result.path("written").asBoolean());
        assertEquals("", err.toString(StandardCharsets.UTF_8), "hooks are on: nothing to say");
        assertFalse(Files.readString(f).endsWith("\n"), "the file's last line stays as it was");

        // twice: nothing added, the file not touched
        String once = Files.readString(f);
        long modified = Files.getLastModifiedTime(f).toMillis();
        assertEquals(0, artu("install", "gemini"));
        assertEquals(once, Files.readString(f));
        assertEquals(modified, Files.getLastModifiedTime(f).toMillis());
        assertEquals(HookInstall.GEMINI_EVENTS.size(), json(stdout()).path("unchanged").size());
        assertFalse(json(stdout()).path("written").asBoolean());

        // uninstall: the exact bytes back; again: nothing to remove
        assertEquals(0, artu("uninstall", "gemini"));
        assertEquals(GEMINI_SETTINGS, Files.readString(f));
        assertEquals(HookInstall.GEMINI_EVENTS.size(), json(stdout()).path("removed").size());
        assertEquals(0, artu("uninstall", "gemini"));
        assertEquals(0, json(stdout()).path("removed").size());
        assertEquals(GEMINI_SETTINGS, Files.readString(f));
    }

    @Test
    void geminiIntoAnAbsentOrEmptyFileAndBackLeavesNoHooksBehind() throws Exception {
        Path absent = dir.resolve("absent/settings.json");
        assertEquals(0, artu("install", "gemini", "--settings", absent.toString()));
        assertEquals(HookInstall.installGemini("", ARTU).after(), Files.readString(absent));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(absent)));
        assertEquals(0, artu("uninstall", "gemini", "--settings", absent.toString()));
        assertEquals("{}\n", Files.readString(absent));
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, "");
        assertEquals(0, artu("install", "gemini", "--settings=" + empty));
        assertEquals(HookInstall.GEMINI_EVENTS, iterable(json(Files.readString(empty)).path("hooks").fieldNames()));
    }

    @Test
    void geminiHonoursGeminiCliHomeAsTheCliDoes() {
        assertEquals(Path.of("/g/.gemini/settings.json"), HookInstall.defaultFile("gemini", Map.of("HOME", "/h", "GEMINI_CLI_HOME", "/g")));
        assertEquals(Path.of("/h/.gemini/settings.json"), HookInstall.defaultFile("gemini", Map.of("HOME", "/h", "GEMINI_CLI_HOME", "")));
        assertEquals(Path.of("/h/.gemini/settings.json"), HookInstall.defaultFile("gemini", Map.of("HOME", "/h")));
    }

    @Test
    void geminiSettingsThatAreNotJsonAreRefusedAndLeftUntouched() throws IOException {
        Path f = dir.resolve("settings.json");
        // Gemini CLI itself reads comments in settings.json; this editor does not guess around them
        for (String bad : List.of("{\n  // my settings\n  \"general\": {}\n}\n", "{\"hooks\": {\"AfterAgent\": {}}}", "{\"a\": 1,}")) {
            Files.writeString(f, bad);
            assertEquals(1, artu("install", "gemini", "--settings", f.toString()), bad);
            assertEquals(bad, Files.readString(f));
            assertEquals("", stdout());
            assertEquals(1, artu("uninstall", "gemini", "--settings", f.toString()), bad);
            assertEquals(bad, Files.readString(f));
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(f), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void geminiAMovedArtuIsUpdatedAndTheOtherAgentsHooksAreNotItsOwn() throws Exception {
        String old = HookInstall.installGemini(GEMINI_SETTINGS, "/old/artu").after();
        HookInstall.Outcome moved = HookInstall.installGemini(old, ARTU);
        assertEquals(HookInstall.GEMINI_EVENTS, moved.updated());
        assertEquals(HookInstall.installGemini(GEMINI_SETTINGS, ARTU).after(), moved.after());
        // a claude hook under a Gemini event (gemini hooks migrate --from-claude copies commands) is not gemini's
        String claudeAfterMigrate = "{\"hooks\": {\"AfterAgent\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"artu hook claude Stop\"}]}]}}";
        assertEquals(List.of(), HookInstall.uninstallGemini(claudeAfterMigrate).removed());
        assertEquals(2, json(HookInstall.installGemini(claudeAfterMigrate, ARTU).after()).path("hooks").path("AfterAgent").size());
    }

    @Test
    void geminiSettingsThatTurnHooksOffAreReportedAndLeftAsTheyAre() throws IOException {
        Path f = dir.resolve("settings.json");
        String off = "{\n  \"hooksConfig\": {\n    \"enabled\": false\n  }\n}\n";
        Files.writeString(f, off);
        assertEquals(0, artu("install", "gemini", "--settings", f.toString()));
        assertFalse(json(Files.readString(f)).path("hooksConfig").path("enabled").asBoolean(), "not flipped");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("hooksConfig.enabled = false"), err.toString(StandardCharsets.UTF_8));
        assertEquals(0, artu("uninstall", "gemini", "--settings", f.toString()));
        assertEquals(off, Files.readString(f));
        assertEquals("tools.enableHooks = false", HookInstall.geminiHooksOff("{\"tools\": {\"enableHooks\": false}}"));
        assertEquals("hooksConfig.disabled naming \"artu\"", HookInstall.geminiHooksOff("{\"hooksConfig\": {\"disabled\": [\"x\", \"artu\"]}}"));
        assertEquals(null, HookInstall.geminiHooksOff("{\"hooksConfig\": {\"enabled\": true}, \"tools\": {}}"));
    }

    @Test
    void geminiDryRunPrintsTheFileAndWritesNothing() throws Exception {
        Path f = dir.resolve("settings.json");
        Files.writeString(f, GEMINI_SETTINGS);
        assertEquals(0, artu("install", "gemini", "--settings", f.toString(), "--dry-run"));
        assertEquals(GEMINI_SETTINGS, Files.readString(f));
        assertEquals(HookInstall.installGemini(GEMINI_SETTINGS, ARTU).after(), stdout());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("would add SessionStart, BeforeAgent"), err.toString(StandardCharsets.UTF_8));
    }

    private static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> xs = new ArrayList<>();
        it.forEachRemaining(xs::add);
        return xs;
    }

    // --- the ready-made files in docs/agents/hooks/ are what install writes -------------------

    @Test
    void theShippedSnippetsAreWhatInstallWritesForAnArtuOnPath() throws Exception {
        Path docs = Path.of("../../../docs/agents/hooks");
        assertEquals(HookInstall.installClaude("", "artu").after(), Files.readString(docs.resolve("claude-settings.json")));
        assertEquals(HookInstall.installGemini("", "artu").after(), Files.readString(docs.resolve("gemini-settings.json")));
        String codex = Files.readString(docs.resolve("codex-config.toml"));
        assertTrue(codex.contains("\n" + HookInstall.codexNotify("artu") + "\n"), codex);
        assertEquals(List.of("artu", "hook", "codex", "notify"),
                CodexConfig.stringArray(codex.substring(scan(codex).find("notify").valueStart(), scan(codex).find("notify").valueEnd())));
    }

    private static String installed(String before, String artu) throws Exception {
        return HookInstall.installCodex(before, artu, Path.of("config.toml")).after();
    }

    private static CodexConfig.Scan scan(String s) {
        try {
            return CodexConfig.scan(s);
        } catch (CodexConfig.Malformed e) {
            throw new AssertionError(e);
        }
    }
}

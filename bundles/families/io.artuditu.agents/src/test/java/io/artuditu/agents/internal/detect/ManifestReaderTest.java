package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One manifest file, read strictly: each kind of bad input names its problem; good input reads whole. */
class ManifestReaderTest {
    static final String HEAD = """
            name = "demo"
            [process]
            names = ["demo"]
            [launch]
            command = ["demo"]
            """;

    /** HEAD with a top-level line (before the first table). */
    static String top(String line) {
        return HEAD.replace("name = \"demo\"\n", "name = \"demo\"\n" + line + "\n");
    }

    static String rule(String id, String extra) {
        return "\n[[rules]]\nid = \"" + id + "\"\nregion = \"last_rows\"\nrows = 4\npattern = 'x'\nstatus = \"idle\"\n"
                + "priority = 10\nconfidence = 0.5\n" + extra;
    }

    static AgentManifest read(String toml) throws ManifestReader.Invalid {
        return ManifestReader.parse(toml.getBytes(StandardCharsets.UTF_8), "user", "/m/demo.toml");
    }

    static String problem(String toml) {
        return assertThrows(ManifestReader.Invalid.class, () -> read(toml)).getMessage();
    }

    @Test
    void aCompleteManifestReadsWhole() throws Exception {
        AgentManifest m = read("""
                name = "demo"
                display_name = "Demo Agent"
                fallback = "working"
                [process]
                names = ["demo", "demo-bin"]
                scripts = ["demo-cli"]
                [launch]
                command = ["demo", "--tui"]
                start_session = ["--session-id", "{session}"]
                resume = ["demo", "resume", "{session}"]
                fork = ["demo", "fork", "--from={session}"]
                [hooks]
                Start = "working"
                "turn.end" = "done"
                [[rules]]
                id = "low"
                region = "cursor_row"
                pattern = '^> '
                status = "idle"
                priority = 5
                confidence = 1
                [[rules]]
                id = "high"
                region = "box"
                rows = 12
                pattern = '(?s)Allow\\?.*Yes'
                status = "blocked"
                priority = 90
                confidence = 0.9
                [[rules]]
                id = "also-low"
                region = "title"
                pattern = 'busy'
                status = "working"
                priority = 5
                confidence = 0.25
                """);
        assertEquals("demo", m.name());
        assertEquals("Demo Agent", m.displayName());
        assertEquals("user", m.source());
        assertEquals("/m/demo.toml", m.path());
        assertEquals(List.of("demo", "demo-bin"), List.copyOf(m.processNames()));
        assertEquals(List.of("demo-cli"), List.copyOf(m.scripts()));
        assertEquals(List.of("demo", "fork", "--from=s9"), AgentManifest.withSession(m.fork(), "s9"));
        assertEquals(Status.DONE, m.hookStatus("turn.end").orElseThrow());
        assertEquals(Status.WORKING, m.fallback());
        assertEquals(List.of("high", "low", "also-low"), m.rules().stream().map(Rule::id).collect(Collectors.toList()),
                "highest priority first, then file order");
        assertEquals("box:12", m.rules().get(0).region().describe());
        assertEquals("cursor_row", m.rules().get(1).region().describe());
    }

    @Test
    void defaultsForTheOptionalKeys() throws Exception {
        AgentManifest m = read(HEAD);
        assertEquals("demo", m.displayName());
        assertEquals(Status.UNKNOWN, m.fallback());
        assertTrue(m.rules().isEmpty() && m.hooks().isEmpty() && m.resume().isEmpty() && m.fork().isEmpty());
    }

    @Test
    void unknownKeysAreRefusedWhereverTheyAre() {
        assertEquals("colour: is not a known field", problem(top("colour = \"red\"")));
        assertEquals("launch.shell: is not a known field", problem(HEAD.replace("[launch]", "[launch]\nshell = true")));
        assertEquals("rules[0].region_rows: is not a known field", problem(HEAD + rule("r", "region_rows = 3\n")));
    }

    @Test
    void missingFieldsAreNamed() {
        assertEquals("name: is required", problem(HEAD.replace("name = \"demo\"\n", "")));
        assertEquals("process: is required", problem(HEAD.replace("[process]\nnames = [\"demo\"]\n", "")));
        assertEquals("launch.command: is required", problem(HEAD.replace("command = [\"demo\"]\n", "")));
        assertTrue(problem(HEAD.replace("names = [\"demo\"]", "names = []"))
                .startsWith("process: needs names or scripts"));
        assertEquals("rules[0].status: is required", problem(HEAD + rule("r", "").replace("status = \"idle\"\n", "")));
        assertTrue(problem(HEAD + rule("r", "").replace("rows = 4\n", ""))
                .startsWith("rules[0].rows: is required for region last_rows"));
    }

    @Test
    void wrongTypesAreNamed() {
        assertEquals("name: expected string, got integer",
                problem(HEAD.replace("\"demo\"\n[process]", "5\n[process]")));
        assertEquals("rules[0].rows: expected integer, got string",
                problem(HEAD + rule("r", "").replace("rows = 4", "rows = \"4\"")));
        assertEquals("rules[0].priority: expected integer, got number",
                problem(HEAD + rule("r", "").replace("priority = 10", "priority = 1.5")));
        assertEquals("rules[0].confidence: expected number, got string",
                problem(HEAD + rule("r", "").replace("confidence = 0.5", "confidence = \"high\"")));
        assertTrue(problem(HEAD.replace("command = [\"demo\"]", "command = \"demo\""))
                .startsWith("launch.command: expected array, got string"));
        assertTrue(problem(HEAD.replace("names = [\"demo\"]", "names = [\"demo\", 7]"))
                .startsWith("process.names[1]: expected string, got integer"));
        assertEquals("rules: expected array, got integer", problem(top("rules = 3")));
    }

    @Test
    void valuesOutOfRangeAreRefused() {
        assertEquals("rules[0].priority: must be at most 1000",
                problem(HEAD + rule("r", "").replace("priority = 10", "priority = 1001")));
        assertEquals("rules[0].priority: must be at least 0",
                problem(HEAD + rule("r", "").replace("priority = 10", "priority = -1")));
        assertEquals("rules[0].confidence: must be at most 1",
                problem(HEAD + rule("r", "").replace("confidence = 0.5", "confidence = 1.5")));
        assertEquals("rules[0].rows: must be at least 1",
                problem(HEAD + rule("r", "").replace("rows = 4", "rows = 0")));
        assertEquals("rules[0].rows: must be at most 200",
                problem(HEAD + rule("r", "").replace("rows = 4", "rows = 201")));
        assertTrue(problem(HEAD + rule("r", "").replace("priority = 10", "priority = 99999999999999999999"))
                .startsWith("rules[0].priority: is out of range"));
    }

    @Test
    void statusesRegionsNamesAndIdsAreChecked() {
        assertTrue(problem(HEAD + rule("r", "").replace("\"idle\"", "\"busy\""))
                .startsWith("rules[0].status: must be one of [\"idle\", \"working\", \"blocked\", \"done\", \"unknown\"]"));
        assertTrue(problem(top("fallback = \"asleep\"")).startsWith("fallback: must be one of [\"idle\""));
        assertTrue(problem(HEAD + "[hooks]\nStop = \"finished\"\n").startsWith("hooks.Stop: must be one of [\"idle\""));
        assertTrue(problem(HEAD + "[hooks]\n\"bad event\" = \"done\"\n")
                .startsWith("hooks.bad event: name must match"));
        assertTrue(problem(HEAD + rule("r", "").replace("\"last_rows\"", "\"screen\""))
                .startsWith("rules[0].region: must be one of [\"last_rows\", \"box\", \"title\", \"cursor_row\", \"above\", \"below\"]"));
        assertEquals("rules[0].rows: does not apply to region title",
                problem(HEAD + rule("r", "").replace("region = \"last_rows\"\nrows = 4", "region = \"title\"\nrows = 4")));
        assertTrue(problem(HEAD.replace("name = \"demo\"", "name = \"Demo Agent\""))
                .startsWith("name: must match ^[a-z0-9]"));
        assertEquals("rules[1].id: \"r\" is declared twice", problem(HEAD + rule("r", "") + rule("r", "")));
        assertTrue(problem(HEAD.replace("names = [\"demo\"]", "names = [\"/usr/bin/demo\"]"))
                .startsWith("process.names[0]: must match"));
    }

    /** Format 2's regions and keys: refused in a format 1 file, anchor exactly where it belongs. */
    @Test
    void formatTwoKeysNeedFormatTwoAndAnchorsBelongToAboveAndBelow() throws Exception {
        String above = rule("r", "").replace("region = \"last_rows\"", "region = \"above\"\nanchor = '^> '");
        assertEquals("rules[0].anchor: needs format = 2 at the top of the file", problem(HEAD + above));
        assertEquals("rules[0].region: region above needs format = 2 at the top of the file",
                problem(HEAD + rule("r", "").replace("region = \"last_rows\"", "region = \"above\"")));
        assertEquals("rules[0].unless: needs format = 2 at the top of the file",
                problem(HEAD + rule("r", "unless = 'y'\n")));
        assertEquals("rules[0].anchor: is required for region below (where it is cut)",
                problem(top("format = 2") + rule("r", "").replace("region = \"last_rows\"", "region = \"below\"")));
        assertEquals("rules[0].anchor: does not apply to region last_rows",
                problem(top("format = 2") + rule("r", "anchor = '^> '\n")));
        assertTrue(problem(top("format = 2") + above.replace("anchor = '^> '", "anchor = '(x'"))
                .startsWith("rules[0].anchor: is not valid RE2 syntax"));
        assertTrue(problem(top("format = 3")).startsWith("format: must be one of [1, 2]"));
        assertEquals("rules[0].needs: needs format = 2 at the top of the file",
                problem(HEAD + rule("r", "needs = ['x']\n")));
        assertEquals("rules[0].needs: must have at least 1 items", problem(top("format = 2") + rule("r", "needs = []\n")));

        AgentManifest m = read(top("format = 2") + above + rule("s", "unless = 'y'\n"));
        assertEquals("above:4", m.rules().get(0).region().describe());
        assertEquals("^> ", m.rules().get(0).region().anchor().pattern());
        assertEquals("y", m.rules().get(1).unless().pattern());
        assertEquals(List.of("x", "z"), read(top("format = 2") + rule("r", "needs = ['x', 'z']\n")).rules().get(0).needs());
    }

    @Test
    void sessionCommandsMustCarryTheSessionAndTheLaunchMustNot() {
        assertEquals("launch.resume: must carry the session id as {session}",
                problem(HEAD.replace("[launch]", "[launch]\nresume = [\"demo\", \"--continue\"]")));
        assertTrue(problem(HEAD.replace("command = [\"demo\"]", "command = [\"demo\", \"{session}\"]"))
                .startsWith("launch.command[1]: must not use {session}"));
        assertEquals("launch.command[1]: must be at least 1 bytes",
                problem(HEAD.replace("command = [\"demo\"]", "command = [\"demo\", \"\"]")));
    }

    @Test
    void patternsMustBeRe2() {
        assertTrue(problem(HEAD + rule("r", "").replace("pattern = 'x'", "pattern = '(a'"))
                .startsWith("rules[0].pattern: is not valid RE2 syntax"));
        // Backreferences and lookaround need backtracking; RE2 has neither.
        assertTrue(problem(HEAD + rule("r", "").replace("pattern = 'x'", "pattern = '(a)\\1'"))
                .contains("not valid RE2"));
        assertTrue(problem(HEAD + rule("r", "").replace("pattern = 'x'", "pattern = '(?=a)b'"))
                .contains("not valid RE2"));
        assertEquals("rules[0].pattern: must be at least 1 bytes",
                problem(HEAD + rule("r", "").replace("pattern = 'x'", "pattern = ''")));
    }

    @Test
    void boundsOnPatternsRulesAndTheFile() {
        String longPattern = "a".repeat(ManifestReader.MAX_PATTERN + 1);
        assertEquals("rules[0].pattern: must be at most 1024 bytes",
                problem(HEAD + rule("r", "").replace("pattern = 'x'", "pattern = '" + longPattern + "'")));
        StringBuilder many = new StringBuilder(HEAD);
        for (int i = 0; i <= ManifestReader.MAX_RULES; i++) {
            many.append(rule("r" + i, ""));
        }
        assertEquals("rules: must have at most 64 items", problem(many.toString()));
        byte[] big = (HEAD + "#" + "x".repeat(ManifestReader.MAX_BYTES) + "\n").getBytes(StandardCharsets.UTF_8);
        assertEquals("the file is larger than 65536 bytes",
                assertThrows(ManifestReader.Invalid.class, () -> ManifestReader.parse(big, "user", "big.toml")).getMessage());
    }

    @Test
    void notTomlAndEmptyFilesAreRefused() {
        assertTrue(problem("name = \"a\"\nname = \"b\"\n").startsWith("not valid TOML"), "a key twice");
        assertTrue(problem("[process\n").startsWith("not valid TOML"));
        assertEquals("the file is empty", problem(""));
    }

    /** Both TOML examples of docs/agents/manifests.md read as they stand. */
    @Test
    void theDocumentedExamplesRead() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("../../../docs/agents/manifests.md"));
        List<String> blocks = new java.util.ArrayList<>();
        for (int at = doc.indexOf("```toml\n"); at >= 0; at = doc.indexOf("```toml\n", at + 1)) {
            int start = at + "```toml\n".length();
            blocks.add(doc.substring(start, doc.indexOf("```", start)));
        }
        assertEquals(2, blocks.size());
        AgentManifest format = read(blocks.get(0));
        assertEquals("myagent", format.name());
        assertEquals(Status.IDLE, format.hookStatus("Notification:idle_prompt").orElseThrow());
        AgentManifest example = read(blocks.get(1));
        assertEquals(List.of("confirm", "busy", "prompt"), example.rules().stream().map(Rule::id).collect(Collectors.toList()));
    }

    /**
     * The classic catastrophic pattern: a backtracking engine takes time exponential in the
     * input's length on "aaaa…b"; RE2 answers in one linear pass. No timing is asserted: the
     * match simply finishes (a backtracking engine would not within the test's life).
     */
    @Test
    void anExplosivePatternIsLinearUnderRe2() throws Exception {
        AgentManifest m = read(HEAD + rule("explosive", "").replace("pattern = 'x'", "pattern = '(a+)+$'")
                .replace("rows = 4", "rows = 200"));
        Pattern p = m.rules().get(0).pattern();
        String input = "a".repeat(100_000) + "b";
        assertFalse(p.matcher(input).find());
        assertTrue(p.matcher("a".repeat(100_000)).find());

        // And through the screen: 200 rows of 999 "a" and a "b" (a pattern with $ is tried at every row's end).
        io.artuditu.vt.Terminal t = io.artuditu.vt.Terminal.create(1000, 200);
        StringBuilder screen = new StringBuilder();
        for (int r = 0; r < 200; r++) {
            screen.append("a".repeat(999)).append('b').append(r == 199 ? "" : "\r\n");
        }
        t.feed(screen.toString().getBytes(StandardCharsets.UTF_8));
        Verdict v = ScreenRules.evaluate(m, t, t.revision());
        assertEquals(null, v.rule(), "no row ends in a run of a");
        assertEquals(Status.UNKNOWN, v.status());
        assertEquals(200, v.rowsRead());
    }
}

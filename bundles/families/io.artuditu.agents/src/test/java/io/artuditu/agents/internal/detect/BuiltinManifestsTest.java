package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The six built-in manifests load without a problem, and the index lists exactly the files there are. */
class BuiltinManifestsTest {
    @Test
    void theSixBuiltInsLoadCleanly() {
        ManifestSet set = ManifestSet.load(null, null);

        assertEquals(List.of(), set.problems());
        assertEquals(List.of("aider", "claude", "codex", "gemini", "goose", "opencode"),
                set.active().stream().map(AgentManifest::name).collect(Collectors.toList()));
        for (AgentManifest m : set.active()) {
            assertEquals("builtin", m.source());
            assertTrue(m.path().startsWith("agents/builtin/"), m.path());
            assertFalse(m.rules().isEmpty(), m.name() + " has screen rules");
        }
        assertEquals(set.active().stream().mapToInt(m -> m.rules().size()).sum(), set.ruleCount());
    }

    @Test
    void theIndexListsEveryBuiltInFile() throws IOException {
        Path dir = Path.of("src/main/resources/agents/builtin");
        List<String> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".toml"))
                    .map(n -> n.substring(0, n.length() - 5)).sorted().collect(Collectors.toList());
        }
        List<String> index = Files.readAllLines(dir.resolve("index.txt")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).sorted().collect(Collectors.toList());
        assertEquals(files, index);
    }

    @Test
    void launchCommandsAsTheClisTakeThem() {
        ManifestSet set = ManifestSet.load(null, null);
        AgentManifest claude = set.get("claude").orElseThrow();
        assertEquals(List.of("claude", "--resume", "s1", "--fork-session"), AgentManifest.withSession(claude.fork(), "s1"));
        assertEquals(List.of("--session-id", "s1"), AgentManifest.withSession(claude.startSession(), "s1"));
        assertEquals(List.of("codex", "resume", "s1"), AgentManifest.withSession(set.get("codex").orElseThrow().resume(), "s1"));
        assertEquals(List.of("codex", "fork", "s1"), AgentManifest.withSession(set.get("codex").orElseThrow().fork(), "s1"),
                "codex forks an exact session, never --last");
        assertTrue(set.get("aider").orElseThrow().resume().isEmpty(), "aider has no sessions");
    }

    @Test
    void hookEventsMapToStatesAndQualifiedEventsFallBackToTheirBase() {
        AgentManifest claude = ManifestSet.load(null, null).get("claude").orElseThrow();
        assertEquals(Status.WORKING, claude.hookStatus("PreToolUse").orElseThrow());
        assertEquals(Status.WORKING, claude.hookStatus("SubagentStop").orElseThrow(), "the main turn goes on");
        assertEquals(Status.DONE, claude.hookStatus("Stop").orElseThrow());
        assertEquals(Status.IDLE, claude.hookStatus("Notification:idle_prompt").orElseThrow());
        assertEquals(Status.BLOCKED, claude.hookStatus("Notification:elicitation_dialog").orElseThrow());
        assertTrue(claude.hookStatus("Unheard").isEmpty());
        AgentManifest gemini = ManifestSet.load(null, null).get("gemini").orElseThrow();
        assertEquals(Status.WORKING, gemini.hookStatus("BeforeTool").orElseThrow());
        assertEquals(Status.BLOCKED, gemini.hookStatus("Notification:ToolPermission").orElseThrow());
        assertEquals(Status.BLOCKED, gemini.hookStatus("Notification").orElseThrow(), "a payload too large to read");
        assertEquals(Status.DONE, gemini.hookStatus("AfterAgent").orElseThrow());
        assertEquals(Status.IDLE, gemini.hookStatus("SessionEnd").orElseThrow());
    }
}

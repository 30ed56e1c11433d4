package io.artuditu.pty.internal.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The script base name taken from an interpreter's argument vector, and nothing else. */
class ScriptsTest {
    static String script(String interpreter, String... argv) {
        StringBuilder b = new StringBuilder();
        for (String a : argv) {
            b.append(a).append('\0');
        }
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        return Scripts.fromCmdline(interpreter, bytes, bytes.length, false);
    }

    @Test
    void interpretersAreNodeBunDenoPythonAndRuby() {
        for (String n : new String[] {"node", "nodejs", "bun", "deno", "python", "python3", "python3.12", "ruby"}) {
            assertTrue(Scripts.interpreter(n), n);
        }
        for (String n : new String[] {"claude", "bash", "python3-config", "python2", "nodemon", "rubocop", ""}) {
            assertFalse(Scripts.interpreter(n), n);
        }
    }

    @Test
    void theScriptsBaseNameWithoutFolderOrExtension() {
        assertEquals("claude", script("node", "node", "/home/u/.npm-global/bin/claude", "--resume", "secret-prompt"));
        assertEquals("claude", script("python3", "python3", "/tmp/x/claude.py"));
        assertEquals("codex", script("node", "node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"));
        assertEquals("aider", script("ruby", "ruby", "aider.rb", "-e"));
    }

    @Test
    void aGenericNameGivesTheNearestMeaningfulFolder() {
        assertEquals("claude-code", script("node", "node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"));
        assertEquals("gemini-cli", script("node", "node", "--no-warnings=DEP0040",
                "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"));
        assertEquals("aider", script("python3", "python3", "/venv/lib/python3.12/site-packages/aider/__main__.py"));
        assertEquals("index", script("node", "node", "/node_modules/index.js"), "nothing better above it");
    }

    @Test
    void optionsAndTheirValuesAreSkipped() {
        assertEquals("gemini", script("node", "node", "--max-old-space-size=8192", "-r", "/x/preload.js",
                "/usr/bin/gemini"));
        assertEquals("opencode", script("bun", "bun", "run", "/x/opencode/bin/opencode.ts"));
        assertEquals("gemini-cli", script("deno", "deno", "run", "-A", "npm:@google/gemini-cli"));
        assertEquals("tool", script("python3", "python3", "-u", "-W", "ignore", "-X", "dev", "tool.py"));
        assertEquals("x", script("node", "node", "--", "x.mjs"));
    }

    @Test
    void modulesRunWithDashM() {
        assertEquals("aider", script("python3", "python3", "-m", "aider"));
        assertEquals("aider", script("python3", "python3", "-m", "aider.main"));
        assertEquals("http", script("python3", "python3", "-mhttp.server", "8000"));
    }

    @Test
    void inlineCodeStandardInputAndTheBareInterpreterHaveNoScript() {
        assertNull(script("node", "node", "-e", "console.log('esc to interrupt')"));
        assertNull(script("python3", "python3", "-c", "print(1)", "claude.py"));
        assertNull(script("ruby", "ruby", "-e", "puts 1"));
        assertNull(script("node", "node"));
        assertNull(script("python3", "python3", "-"));
        assertNull(script("node", "node", "--inspect"));
    }

    @Test
    void aCutVectorLosesItsLastArgument() {
        byte[] b = "node\0/usr/bin/claude\0--print\0very long pro".getBytes(StandardCharsets.UTF_8);
        assertEquals("claude", Scripts.fromCmdline("node", b, b.length, true));
        byte[] cutScript = "node\0/usr/bin/cla".getBytes(StandardCharsets.UTF_8);
        assertNull(Scripts.fromCmdline("node", cutScript, cutScript.length, true));
    }

    @Test
    void aRewrittenTitleSeparatedBySpaces() {
        byte[] b = "node /opt/claude/cli.js --dangerously-skip-permissions".getBytes(StandardCharsets.UTF_8);
        assertEquals("claude", Scripts.fromCmdline("node", b, b.length, false));
    }

    @Test
    void namesAreBoundedAndPrintable() {
        assertEquals("a?b", script("node", "node", "/x/a\u0007b.js"));
        assertEquals(Scripts.MAX_NAME, script("node", "node", "/x/" + "n".repeat(300)).length());
    }
}

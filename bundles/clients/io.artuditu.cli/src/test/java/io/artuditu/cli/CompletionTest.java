package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The completion scripts in the real shells: loaded as a user would, then asked as TAB would ask. */
class CompletionTest {
    @TempDir
    Path dir;

    private String shell(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not finish in 20 s");
        }
        assertEquals(0, p.exitValue(), out);
        return out.trim();
    }

    private Path script(String shell) throws IOException {
        Path f = dir.resolve("artu." + shell);
        Files.writeString(f, Completion.script(shell), StandardCharsets.UTF_8);
        return f;
    }

    /** What bash's programmable completion offers for the words (the last one being completed). */
    private String bash(String... words) throws Exception {
        String arr = String.join(" ", words).replace("'", "");
        return shell("bash", "--norc", "--noprofile", "-c", "source '" + script("bash") + "'; complete -p artu >/dev/null"
                + " && COMP_WORDS=(" + arr + " " + (words[words.length - 1].isEmpty() ? "''" : "") + "); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ));"
                + " _artu_bash; printf '%s\\n' \"${COMPREPLY[@]}\"");
    }

    /** What zsh's completion (compinit, compdef) would add: compadd's arguments, recorded. */
    private String zsh(String... words) throws Exception {
        StringBuilder w = new StringBuilder();
        for (String x : words) {
            w.append(" '").append(x).append('\'');
        }
        return shell("zsh", "-f", "-c", "autoload -Uz compinit; compinit -u -d '" + dir.resolve("zcompdump") + "';"
                + " source '" + script("zsh") + "'; [[ $_comps[artu] == _artu_zsh ]] || exit 7;"
                + " compadd() { shift; print -rl -- \"$@\" }; words=(" + w + "); CURRENT=" + words.length + "; _artu_zsh");
    }

    @Test
    void bashCompletesNounsVerbsAndFlags() throws Exception {
        assertEquals("pane", bash("artu", "pa"));
        assertEquals("split", bash("artu", "pane", "sp"));
        assertEquals("--down\n--direction", bash("artu", "pane", "split", "--d"));
        assertEquals("--direction", bash("artu", "pane", "split", "--dir"));
        assertEquals("--history\n--help", bash("artu", "pane", "read", "--h"));
        assertEquals("backend", bash("artu", "terminal", "b"));
        assertEquals("send-key", bash("artu", "terminal", "backend", "send-k"));
        assertEquals("--key", bash("artu", "terminal", "backend", "send-key", "term-1", "--k"));
        assertEquals("stop\nstart\nstatus", bash("artu", "server", "st"));
        assertEquals("zsh", bash("artu", "completion", "z"));
        assertEquals("import", bash("artu", "theme", "im"));
        assertEquals("use", bash("artu", "theme", "u"));
        assertEquals("--scheme", bash("artu", "theme", "import", "settings.json", "--sc"));
    }

    @Test
    void zshCompletesNounsVerbsAndFlags() throws Exception {
        assertEquals("pane", zsh("artu", "pa"));
        assertEquals("split", zsh("artu", "pane", "sp"));
        assertEquals("--down\n--direction", zsh("artu", "pane", "split", "--d"));
        assertEquals("--down", zsh("artu", "pane", "split", "--do"));
        assertEquals("report-metadata", zsh("artu", "workspace", "rep"));
        assertEquals("--ttl-s\n--ttl", zsh("artu", "token", "create", "--scope", "read", "--tt"));
    }
}

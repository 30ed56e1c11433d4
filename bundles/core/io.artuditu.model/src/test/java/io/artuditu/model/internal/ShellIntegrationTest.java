package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launch each argv gets, the files written to the home, and the scripts run by the real
 * bash and zsh: the shell reads the user's own startup files, the marks come out in order
 * with the commands' exit statuses, and the user's prompt hooks still see those statuses.
 * The shells run interactively on pipes (their prompts go to stderr), which is enough for
 * the scripts; the PTY path is covered by the terminal family's tests.
 */
class ShellIntegrationTest {
    @TempDir
    Path home;
    @TempDir
    Path user;

    private static final String ESC = "\033";

    @Test
    void bashIsRecognisedByItsBaseName() {
        for (String bash : List.of("bash", "/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash")) {
            ShellIntegration.Launch l = ShellIntegration.prepare(List.of(bash), Map.of("A", "b"), home, Map.of());
            assertEquals("bash", l.shell(), bash);
            assertEquals(List.of(bash, "--rcfile", home.resolve("shell/bash/artuditu.bash").toString(), "-i"), l.command());
            assertEquals(Map.of("A", "b"), l.env());
        }
        assertEquals("bash", ShellIntegration.prepare(List.of("bash", "-i"), Map.of(), home, Map.of()).shell());
    }

    @Test
    void otherCommandsRunAsAsked() {
        for (List<String> argv : List.of(List.of("cat"), List.of("sh"), List.of("/bin/dash"), List.of("fish"),
                List.of("bash", "-c", "true"), List.of("bash", "--norc"), List.of("bash", "-l"),
                List.of("/opt/bashful"), List.of("zsh", "-c", "true"), List.of("zsh", "-f"), List.of("mybash"))) {
            ShellIntegration.Launch l = ShellIntegration.prepare(argv, Map.of("A", "b"), home, Map.of());
            assertNull(l.shell(), argv.toString());
            assertEquals(argv, l.command());
            assertEquals(Map.of("A", "b"), l.env());
        }
        assertFalse(Files.exists(home.resolve("shell")), "nothing is written for them");
    }

    @Test
    void zshGetsItsOwnZdotdirAndPassesTheUsersOn() {
        ShellIntegration.Launch l = ShellIntegration.prepare(List.of("/usr/bin/zsh", "-l"), Map.of(), home,
                Map.of("ZDOTDIR", "/u/conf"));
        assertEquals("zsh", l.shell());
        assertEquals(List.of("/usr/bin/zsh", "-l"), l.command());
        assertEquals(home.resolve("shell/zsh").toString(), l.env().get("ZDOTDIR"));
        assertEquals("/u/conf", l.env().get(ShellIntegration.USER_ZDOTDIR_ENV));
        // A ZDOTDIR in the request wins over the server's; none at all passes none on.
        assertEquals("/req", ShellIntegration.prepare(List.of("zsh"), Map.of("ZDOTDIR", "/req"), home,
                Map.of("ZDOTDIR", "/u/conf")).env().get(ShellIntegration.USER_ZDOTDIR_ENV));
        assertNull(ShellIntegration.prepare(List.of("zsh"), Map.of(), home, Map.of()).env()
                .get(ShellIntegration.USER_ZDOTDIR_ENV));
        for (String f : ShellIntegration.ZSH_FILES) {
            assertTrue(Files.isRegularFile(home.resolve("shell/zsh/." + f)), f);
        }
    }

    @Test
    void scriptsAreOwnerOnlyAndRewrittenOnlyWhenTheyDiffer() throws Exception {
        ShellIntegration.prepare(List.of("bash"), Map.of(), home, Map.of());
        Path rc = home.resolve("shell/bash/artuditu.bash");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(rc)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(rc.getParent())));
        assertArrayEquals(ShellIntegration.resource("artuditu.bash"), Files.readAllBytes(rc));

        FileTime old = FileTime.fromMillis(1_000_000_000L);
        Files.setLastModifiedTime(rc, old);
        ShellIntegration.prepare(List.of("bash"), Map.of(), home, Map.of());
        assertEquals(old, Files.getLastModifiedTime(rc), "an identical file is left alone");

        Files.writeString(rc, "# edited by hand\n");
        ShellIntegration.prepare(List.of("bash"), Map.of(), home, Map.of());
        assertArrayEquals(ShellIntegration.resource("artuditu.bash"), Files.readAllBytes(rc), "a changed file is replaced");
        try (var s = Files.list(rc.getParent())) {
            assertEquals(List.of(rc), s.toList(), "no temporary file is left behind");
        }
    }

    @Test
    void anUnwritableHomeStartsThePaneWithoutMarks() throws IOException {
        Path file = home.resolve("not-a-folder");
        Files.writeString(file, "x");
        ShellIntegration.Launch l = ShellIntegration.prepare(List.of("bash"), Map.of(), file, Map.of());
        assertNull(l.shell());
        assertEquals(List.of("bash"), l.command());
    }

    // --- the scripts, run by the real shells ---

    @Test
    void bashReadsTheUsersRcAndMarksEachCommand() throws Exception {
        Files.writeString(user.resolve(".bashrc"), """
                USER_RC=loaded
                PS1='user> '
                PROMPT_COMMAND='echo "[user pc status=$?]"'
                """);
        String out = runBash(Map.of(), "true", "", "sh -c 'exit 3'", "printf abc", "echo rc=$USER_RC", "exit");
        assertTrue(out.contains("rc=loaded"), "~/.bashrc was read: " + visible(out));
        assertInOrder(out, mark("A"), "user> ", mark("B"), mark("C"), mark("D;0"), mark("A"), mark("B"),
                mark("A"), mark("B"), mark("C"), mark("D;3"), "[user pc status=3]", mark("C"), "abc", mark("D;0"));
        assertEquals(4, count(out, mark("D;")), "one finished mark per command, none for the empty line: " + visible(out));
        assertEquals(5, count(out, mark("C")), visible(out));
    }

    @Test
    void bashKeepsAnArrayPromptCommandAndTheUsersDebugTrapOnTheFallbackPath() throws Exception {
        Files.writeString(user.resolve(".bashrc"), """
                PS1='user> '
                PROMPT_COMMAND=('echo "[pc1 status=$?]"' 'echo "[pc2 status=$?]"')
                trap 'USER_TRAP=$((USER_TRAP+1))' DEBUG
                """);
        for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("__ARTU_FORCE_DEBUG_TRAP", "1"))) {
            String out = runBash(env, "true", "", "sh -c 'exit 3'", "echo trap=$((USER_TRAP > 0))", "exit");
            assertInOrder(out, mark("C"), mark("D;0"), mark("C"), mark("D;3"), "[pc1 status=3]", "[pc2 status=3]",
                    "trap=1", mark("D;0"));
            assertEquals(3, count(out, mark("D;")), env + ": " + visible(out));
            assertEquals(4, count(out, mark("C")), env + ": " + visible(out));
        }
    }

    @Test
    void bashWithoutAnRcFileStillGetsMarks() throws Exception {
        String out = runBash(Map.of(), "false", "exit");
        assertInOrder(out, mark("A"), mark("B"), mark("C"), mark("D;1"));
    }

    @Test
    void zshReadsTheUsersFilesAndMarksEachCommand() throws Exception {
        Files.writeString(user.resolve(".zshenv"), "export ENV_RC=yes\n");
        Files.writeString(user.resolve(".zshrc"), """
                USER_RC=loaded
                PS1='zuser> '
                precmd() { echo "[user precmd status=$?]" }
                """);
        String out = runZsh(List.of("zsh", "-i"), Map.of(), "true", "", "sh -c 'exit 3'",
                "echo rc=$USER_RC env=$ENV_RC zd=${ZDOTDIR-unset} left=${__artu_zdotdir-none}", "exit");
        assertTrue(out.contains("rc=loaded env=yes zd=unset left=none"), visible(out));
        assertInOrder(out, mark("A"), "zuser> ", mark("B"), mark("C"), mark("D;0"), mark("A"), mark("C"),
                mark("D;3"), "[user precmd status=3]");
        assertEquals(3, count(out, mark("D;")), visible(out));
    }

    @Test
    void zshLoginReadsEveryFileFromTheUsersZdotdirAndLeavesItSet() throws Exception {
        Path conf = Files.createDirectories(user.resolve("conf"));
        Files.writeString(conf.resolve(".zshenv"), "E=env\n");
        Files.writeString(conf.resolve(".zprofile"), "P=prof\n");
        Files.writeString(conf.resolve(".zshrc"), "R=rc\nPS1='c> '\n");
        Files.writeString(conf.resolve(".zlogin"), "L=login\n");
        String out = runZsh(List.of("zsh", "-l", "-i"), Map.of("ZDOTDIR", conf.toString()),
                "echo $E $P $R $L zd=$ZDOTDIR", "exit");
        assertTrue(out.contains("env prof rc login zd=" + conf), visible(out));
        assertInOrder(out, mark("A"), "c> ", mark("B"), mark("C"), mark("D;0"));
    }

    @Test
    void zshFollowsAZdotdirTheUsersZshenvSets() throws Exception {
        Path conf = Files.createDirectories(user.resolve("conf"));
        Files.writeString(user.resolve(".zshenv"), "ZDOTDIR=" + conf + "\n");
        Files.writeString(conf.resolve(".zshrc"), "R=rc\n");
        String out = runZsh(List.of("zsh", "-i"), Map.of(), "echo r=$R zd=$ZDOTDIR", "exit");
        assertTrue(out.contains("r=rc zd=" + conf), visible(out));
    }

    @Test
    void bothShellsReportTheWorkingDirectoryEscaped() throws Exception {
        Path dir = Files.createDirectories(user.resolve("a b/é%"));
        String expected = ESC + "]7;file://";
        String path = user.resolve("a%20b/%C3%A9%25").toString();
        String bash = runBash(Map.of(), "cd " + "'" + dir + "'", "exit");
        assertTrue(bash.contains(expected) && bash.contains(path + "\007"), visible(bash));
        String zsh = runZsh(List.of("zsh", "-i"), Map.of(), "cd " + "'" + dir + "'", "exit");
        assertTrue(zsh.contains(expected) && zsh.contains(path + "\007"), visible(zsh));
    }

    private String runBash(Map<String, String> env, String... lines) throws Exception {
        ShellIntegration.Launch l = ShellIntegration.prepare(List.of("bash"), env, home, Map.of());
        assertEquals("bash", l.shell());
        return run(l, lines);
    }

    private String runZsh(List<String> argv, Map<String, String> inherited, String... lines) throws Exception {
        ShellIntegration.Launch l = ShellIntegration.prepare(argv, Map.of(), home, inherited);
        assertEquals("zsh", l.shell());
        return run(l, lines);
    }

    private String run(ShellIntegration.Launch l, String... lines) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(l.command()).redirectErrorStream(true);
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("BASH_ENV") || k.equals("ENV") || k.equals("PROMPT_COMMAND")
                || k.equals("ZDOTDIR") || k.startsWith("ARTUDITU_"));
        e.put("HOME", user.toString());
        e.put("COLUMNS", "40");
        e.putAll(l.env());
        Process p = pb.start();
        p.getOutputStream().write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the shell exits");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String mark(String what) {
        return ESC + "]133;" + what;
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static void assertInOrder(String out, String... parts) {
        int at = 0;
        List<String> seen = new ArrayList<>();
        for (String part : parts) {
            int i = out.indexOf(part, at);
            assertTrue(i >= 0, "after " + seen + " expected " + visible(part) + " in " + visible(out));
            seen.add(visible(part));
            at = i + part.length();
        }
    }

    private static String visible(String s) {
        return s.replace(ESC, "^[").replace("\007", "^G").replace("\r", "^M");
    }

    @Test
    void leftoversOfInterruptedScriptWritesAreRemovedAndNothingElse() throws Exception {
        Path bash = Files.createDirectories(home.resolve("shell/bash"));
        Path zsh = Files.createDirectories(home.resolve("shell/zsh"));
        List<Path> gone = List.of(Files.writeString(bash.resolve(".artuditu.bash.31.tmp"), "half"),
                Files.writeString(zsh.resolve("..zshrc.32.tmp"), "half"),
                Files.writeString(zsh.resolve("..zshenv.33.tmp"), "half"));
        List<Path> kept = List.of(Files.writeString(bash.resolve(".bashrc.34.tmp"), "not ours"),
                Files.writeString(zsh.resolve(".zsh_history"), "the user's"));
        ShellIntegration.removeLeftovers(home);
        for (Path g : gone) {
            assertFalse(Files.exists(g), g.toString());
        }
        for (Path k : kept) {
            assertTrue(Files.exists(k), k.toString());
        }
        ShellIntegration.removeLeftovers(home.resolve("nowhere"));
    }
}

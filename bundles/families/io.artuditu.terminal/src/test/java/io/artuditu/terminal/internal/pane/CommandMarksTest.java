package io.artuditu.terminal.internal.pane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.terminal.internal.pane.CommandMarks.Finished;
import io.artuditu.terminal.internal.pane.CommandMarks.ShellState;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The marks as our bash script writes them, fed to a real emulator: a prompt is
 * {@code A}, the prompt text, {@code B}; Enter moves to a new line where {@code C} is
 * written; after the output the script writes {@code COLUMNS} blanks, a carriage return and
 * an erase (which starts a new line only when the output did not end with one), then
 * {@code D;status} and the next prompt.
 */
class CommandMarksTest {
    private static final int COLS = 20;
    private final Terminal t = Terminal.create(COLS, 6, new Limits(1 << 20, 4096));

    private void feed(String s) {
        t.feed(s.getBytes(StandardCharsets.UTF_8));
    }

    private void prompt() {
        feed("\033]133;A\007$ \033]133;B\007");
    }

    /** Types {@code command} at the prompt and presses Enter; the shell writes C. */
    private void start(String command) {
        feed(command + "\r\n\033]133;C\007");
    }

    private void finish(int status) {
        feed(" ".repeat(COLS) + "\r\033[K\033]133;D;" + status + "\007");
        prompt();
    }

    private void run(String command, String output, int status) {
        start(command);
        feed(output);
        finish(status);
    }

    @Test
    void theShellStateFollowsTheMarks() {
        assertEquals(ShellState.NO_MARKS, CommandMarks.state(t));
        feed("welcome\r\n");
        assertEquals(ShellState.NO_MARKS, CommandMarks.state(t), "text without marks");
        prompt();
        assertEquals(ShellState.AT_PROMPT, CommandMarks.state(t));
        start("sleep 5");
        assertEquals(ShellState.RUNNING, CommandMarks.state(t));
        feed("some output\r\n");
        assertEquals(ShellState.RUNNING, CommandMarks.state(t), "rows without marks below C");
        finish(0);
        assertEquals(ShellState.AT_PROMPT, CommandMarks.state(t));
        start("true");
        finish(0);
        assertEquals(ShellState.AT_PROMPT, CommandMarks.state(t), "C and D on one row: finished");
        start("vim");
        feed("\033[?1049h\033[2J");
        assertEquals(ShellState.RUNNING, CommandMarks.state(t), "the alternate screen has no marks");
        feed("\033[?1049l");
        finish(0);
        assertEquals(ShellState.AT_PROMPT, CommandMarks.state(t));
    }

    @Test
    void marksPushedOutByOutputMeanARunningCommand() {
        Terminal small = Terminal.create(COLS, 3, new Limits(0, 4096));
        small.feed("\033]133;A\007$ \033]133;B\007true\r\n\033]133;C\007\033]133;D;0\007\033]133;A\007$ \033]133;B\007yes\r\n\033]133;C\007"
                .getBytes(StandardCharsets.UTF_8));
        small.feed("y\r\n".repeat(10).getBytes(StandardCharsets.UTF_8));
        assertEquals(ShellState.RUNNING, CommandMarks.state(small));
    }

    @Test
    void aCommandWithoutOutput() {
        prompt();
        long before = t.commandsFinished();
        run("true", "", 0);
        Finished f = CommandMarks.finished(t, before, 1000);
        assertEquals(0, f.exitStatus());
        assertEquals("", f.output());
        assertFalse(f.truncated());
    }

    @Test
    void outputAndStatus() {
        prompt();
        run("ls", "x\r\n", 0);
        long before = t.commandsFinished();
        run("sh -c 'printf a; exit 3'", "a\r\nb\r\n", 3);
        Finished f = CommandMarks.finished(t, before, 1000);
        assertEquals(3, f.exitStatus());
        assertEquals("a\nb", f.output());
        assertFalse(f.truncated());
    }

    @Test
    void outputWithoutAFinalNewlineEndsBeforeThePrompt() {
        prompt();
        long before = t.commandsFinished();
        run("printf abc", "abc", 0);
        Finished f = CommandMarks.finished(t, before, 1000);
        assertEquals("abc", f.output());
        assertEquals("$", t.rowText(t.cursorRow(), false).strip(), "the prompt is on a line of its own");
    }

    @Test
    void blankLinesInsideTheOutputStayAndTrailingOnesGo() {
        prompt();
        long before = t.commandsFinished();
        run("x", "a\r\n\r\n  b  \r\n\r\n", 0);
        assertEquals("a\n\n  b", CommandMarks.finished(t, before, 1000).output());
    }

    @Test
    void aLineLongerThanTheScreenComesBackWhole() {
        prompt();
        long before = t.commandsFinished();
        String line = "0123456789".repeat(5);
        run("x", line + "\r\nend\r\n", 0);
        assertEquals(line + "\nend", CommandMarks.finished(t, before, 1000).output());
    }

    @Test
    void outputThatScrolledIntoTheHistoryIsRead() {
        prompt();
        long before = t.commandsFinished();
        StringBuilder out = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            out.append("line ").append(i).append("\r\n");
            expected.append(i == 0 ? "" : "\n").append("line ").append(i);
        }
        run("seq", out.toString(), 0);
        assertTrue(t.historySize() > 40);
        Finished f = CommandMarks.finished(t, before, 1 << 20);
        assertEquals(expected.toString(), f.output());
        assertFalse(f.truncated());
    }

    @Test
    void theEndIsKeptWhenTheOutputIsTooLong() {
        prompt();
        long before = t.commandsFinished();
        run("x", "first\r\nsecond\r\nthird\r\n", 1);
        Finished f = CommandMarks.finished(t, before, 9);
        assertEquals("ond\nthird", f.output());
        assertTrue(f.truncated());
        assertEquals(1, f.exitStatus());
    }

    @Test
    void aCutNeverSplitsACharacter() {
        assertEquals("é", CommandMarks.tail("aé", 2));
        assertEquals("aé", CommandMarks.tail("aé", 3));
        assertEquals("", CommandMarks.tail("é", 1));
        assertEquals("😀", CommandMarks.tail("x😀", 4));
        assertEquals("", CommandMarks.tail("😀", 3));
        assertEquals(4, io.artuditu.terminal.internal.Utf8.length("😀"));
        assertEquals(3, io.artuditu.terminal.internal.Utf8.length("a" + "é"));
    }

    @Test
    void outputWhoseStartLeftTheHistoryIsMarkedTruncated() {
        Terminal small = Terminal.create(COLS, 3, new Limits(300, 4096));
        String s = "\033]133;A\007$ \033]133;B\007seq\r\n\033]133;C\007" + "n\r\n".repeat(100)
                + " ".repeat(COLS) + "\r\033[K\033]133;D;0\007\033]133;A\007$ \033]133;B\007";
        small.feed(s.getBytes(StandardCharsets.UTF_8));
        Finished f = CommandMarks.finished(small, 0, 1 << 20);
        assertTrue(f.truncated());
        assertEquals(0, f.exitStatus());
        assertTrue(f.output().startsWith("n\nn"), f.output());
    }

    @Test
    void theFirstOfTwoFinishedCommandsIsOurs() {
        prompt();
        long before = t.commandsFinished();
        run("ours", "mine\r\n", 4);
        run("theirs", "not mine\r\n", 0);
        Finished f = CommandMarks.finished(t, before, 1000);
        assertEquals(4, f.exitStatus());
        assertEquals("mine", f.output());
    }

    @Test
    void aMultiLineCommandLineHasAnOutputMarkPerLineAndOneFinish() {
        prompt();
        long before = t.commandsFinished();
        feed("echo one\r\necho two\r\n\033]133;C\007one\r\n\033]133;C\007two\r\n");
        finish(0);
        assertEquals("one\ntwo", CommandMarks.finished(t, before, 1000).output());

        before = t.commandsFinished();
        feed("echo three\r\ntrue\r\n\033]133;C\007three\r\n\033]133;C\007");
        finish(0);
        assertEquals("three", CommandMarks.finished(t, before, 1000).output(), "the last line had no output");
    }

    @Test
    void aMarkWithoutStatusGivesNull() {
        prompt();
        start("x");
        feed("\033]133;D\007");
        prompt();
        assertNull(CommandMarks.finished(t, 0, 100).exitStatus());
    }
}

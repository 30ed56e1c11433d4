package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.ClipboardWrite;
import io.artuditu.vt.Hyperlink;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Notification;
import io.artuditu.vt.ShellMarks;
import io.artuditu.vt.Terminal;
import io.artuditu.vt.WorkingDirectory;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OSC 7, 8, 9, 777, 133 and 52: bytes in, expected state out. */
class OscTest {

    private static Terminal term(int cols, int rows, Limits limits, String input) {
        Terminal t = Terminal.create(cols, rows, limits);
        feed(t, input);
        return t;
    }

    private static Terminal term(String input) {
        return term(20, 4, Limits.DEFAULT, input);
    }

    private static void feed(Terminal t, String s) {
        t.feed(s.getBytes(StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------------ OSC 7

    @Test
    void workingDirectoryIsDecodedFromAFileUri() {
        Terminal t = term("\033]7;file://box.local/home/ann/My%20Docs/%C3%A9t%C3%A9\007");
        assertEquals(new WorkingDirectory("box.local", "/home/ann/My Docs/\u00e9t\u00e9"), t.workingDirectory());
        feed(t, "\033]7;file:///tmp\033\\");
        assertEquals(new WorkingDirectory("", "/tmp"), t.workingDirectory());
    }

    @Test
    void workingDirectoryIgnoresOtherSchemesAndBadEscapes() {
        Terminal t = term("\033]7;http://x/y\007\033]7;file://h\007\033]7;file://h/a%zzb\007\033]7;file://h/a%4\007");
        assertNull(t.workingDirectory());
        feed(t, "\033]7;FILE://h/ok\007\033]7;file://h/a%zz\007");
        assertEquals(new WorkingDirectory("h", "/ok"), t.workingDirectory(), "a bad one keeps the last good one");
    }

    @Test
    void workingDirectoryBumpsTheRevision() {
        Terminal t = term("");
        long r = t.revision();
        feed(t, "\033]7;file:///srv\007");
        assertEquals(r + 1, t.revision());
    }

    // ------------------------------------------------------------------ OSC 8

    @Test
    void linkAttachesToCellsWrittenWhileOpen() {
        Terminal t = term("a\033]8;;https://x.test/\007link\u4e2d\033]8;;\007b");
        Hyperlink x = new Hyperlink("https://x.test/", "");
        assertNull(t.link(0, 0));
        for (int c = 1; c <= 6; c++) {
            assertEquals(x, t.link(0, c), "col " + c);
        }
        assertNull(t.link(0, 7), "closed before b");
        assertNull(t.link(0, 8), "never written");
        assertEquals("alink\u4e2db", t.rowText(0, false));
    }

    @Test
    void linkIdIsKeptAndSameIdAndUriShareOneEntry() {
        Emulator t = new Emulator(20, 4, Limits.DEFAULT);
        t.feed(bytes("\033]8;foo=1:id=42:bar=2;file:///etc\007ab\033]8;;\007  \033]8;id=42;file:///etc\007cd\033]8;;\007"));
        Hyperlink l = new Hyperlink("file:///etc", "42");
        assertEquals(l, t.link(0, 0));
        assertEquals(l, t.link(0, 5));
        assertNull(t.link(0, 2));
        assertEquals(1, t.liveLinks());
    }

    @Test
    void overwritingErasingAndInsertingMoveOrDropLinks() {
        Terminal t = term("\033]8;;u\007abcd\033]8;;\007\rX\033[2@\033[4G\033[K");
        // X replaced a (unlinked), two blanks inserted after it, then erased from col 3.
        assertEquals("X", t.rowText(0, false));
        for (int c = 0; c < 20; c++) {
            assertNull(t.link(0, c), "col " + c);
        }
        Terminal u = term("\033]8;;u\007abcd\033]8;;\007\r\033[2P");
        assertEquals("cd", u.rowText(0, false));
        assertEquals("u", u.link(0, 0).uri());
        assertEquals("u", u.link(0, 1).uri());
        assertNull(u.link(0, 2), "deleted cells leave unlinked blanks");
    }

    @Test
    void linksFollowTheLineIntoScrollback() {
        Terminal t = term(10, 2, Limits.DEFAULT, "x\033]8;;https://a/\007yz\033]8;;\007\r\n\r\n\r\n");
        assertEquals(2, t.historySize());
        assertEquals("xyz", t.historyText(0, false));
        assertNull(t.historyLink(0, 0));
        assertEquals("https://a/", t.historyLink(0, 1).uri());
        assertEquals("https://a/", t.historyLink(0, 2).uri());
        assertNull(t.historyLink(0, 3));
        assertNull(t.historyLink(0, 50));
        assertNull(t.historyLink(1, 0));
    }

    @Test
    void aMalformedOrOversizedLinkClosesTheOpenOne() {
        String longUri = "https://x/" + "a".repeat(Hyperlink.MAX_URI_BYTES);
        Terminal t = term("\033]8;;u\007a\033]8;;" + longUri + "\007b\033]8;;u\007c\033]8;nosemicolon\007d");
        assertEquals("u", t.link(0, 0).uri());
        assertNull(t.link(0, 1), "an over-long URI opens nothing and ends the previous link");
        assertEquals("u", t.link(0, 2).uri());
        assertNull(t.link(0, 3));
        Terminal u = term("\033]8;id=" + "i".repeat(Hyperlink.MAX_ID_BYTES + 1) + ";u\007a");
        assertNull(u.link(0, 0));
    }

    @Test
    void fullResetClosesTheLink() {
        Terminal t = term("\033]8;;u\007a\033cb");
        assertNull(t.link(0, 0));
    }

    @Test
    void oldLinksAreEvictedAndReadAsUnlinked() {
        Emulator t = new Emulator(80, 4, Limits.DEFAULT);
        t.feed(bytes("\033]8;;first\007F\033]8;;\007\r\n"));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < LinkTable.CAPACITY - 1; i++) {
            sb.append("\033]8;;u").append(i).append("\007\033]8;;\007");
        }
        t.feed(bytes(sb.toString()));
        assertEquals("first", t.link(0, 0).uri(), "still among the newest CAPACITY");
        t.feed(bytes("\033]8;;one-more\007\033]8;;\007"));
        assertNull(t.link(0, 0), "evicted, never pointing at another link");
        assertEquals(LinkTable.CAPACITY, t.liveLinks());
    }

    // ------------------------------------------------------------------ OSC 9, 777

    @Test
    void notificationsAreQueuedAndDrained() {
        Terminal t = term("\033]9;build done\007\033]777;notify;CI;tests; all green\033\\\033]777;notify;only title\007"
                + "\033]9;4;1;50\007\033]9;12\007\033]9;3 files\007\033]777;other;x\007");
        assertEquals(List.of(new Notification("", "build done"), new Notification("CI", "tests; all green"),
                new Notification("only title", ""), new Notification("", "3 files")), t.takeNotifications());
        assertEquals(List.of(), t.takeNotifications());
    }

    @Test
    void notificationQueueKeepsTheNewest() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            sb.append("\033]9;n").append(i).append('\007');
        }
        List<Notification> got = term(sb.toString()).takeNotifications();
        assertEquals(OscExtensions.MAX_NOTIFICATIONS, got.size());
        assertEquals("n" + (100 - OscExtensions.MAX_NOTIFICATIONS), got.get(0).body());
        assertEquals("n99", got.get(got.size() - 1).body());
    }

    // ------------------------------------------------------------------ OSC 133

    @Test
    void shellMarksAreRecordedPerLineAndScrollIntoHistory() {
        String session = "\033]133;A\007$ \033]133;B\007false\r\n\033]133;C\007\033]133;D;1\007"
                + "\033]133;A;aid=7\007$ \033]133;B\007true\r\n\033]133;C\007out\r\n\033]133;D;0\007\033]133;A\007$ ";
        Terminal t = term(20, 3, Limits.DEFAULT, session);
        assertEquals(List.of("$ false", "$ true", "out", "$"), allText(t));
        int[] marks = {ShellMarks.PROMPT | ShellMarks.COMMAND,
            ShellMarks.OUTPUT | ShellMarks.FINISHED | ShellMarks.PROMPT | ShellMarks.COMMAND,
            ShellMarks.OUTPUT, ShellMarks.FINISHED | ShellMarks.PROMPT};
        int[] status = {ShellMarks.NO_STATUS, 1, ShellMarks.NO_STATUS, 0};
        assertEquals(1, t.historySize());
        assertEquals(marks[0], t.historyMarks(0));
        assertEquals(status[0], t.historyExitStatus(0));
        for (int r = 0; r < 3; r++) {
            assertEquals(marks[r + 1], t.rowMarks(r), "row " + r);
            assertEquals(status[r + 1], t.rowExitStatus(r), "row " + r);
        }
        feed(t, "\r\n\r\n\r\n");
        assertEquals(4, t.historySize());
        for (int i = 0; i < 4; i++) {
            assertEquals(marks[i], t.historyMarks(i), "history " + i);
            assertEquals(status[i], t.historyExitStatus(i), "history " + i);
        }
        assertEquals(0, t.rowMarks(0), "the reused row starts without marks");
        assertEquals(0, t.lastExitStatus());
        assertEquals(2, t.commandsFinished());
    }

    @Test
    void exitStatusParsing() {
        Terminal t = term("\033]133;D;130\007");
        assertEquals(130, t.lastExitStatus());
        feed(t, "\033]133;D\007");
        assertEquals(ShellMarks.NO_STATUS, t.lastExitStatus());
        feed(t, "\033]133;D;99999999;err=x\007");
        assertEquals(Short.MAX_VALUE, t.lastExitStatus());
        feed(t, "\033]133;D;-3\007");
        assertEquals(ShellMarks.NO_STATUS, t.lastExitStatus());
        assertEquals(4, t.commandsFinished());
        feed(t, "\033]133;DD\007\033]133;E\007\033]133;\007");
        assertEquals(4, t.commandsFinished(), "malformed marks are ignored");
        assertEquals(ShellMarks.FINISHED, t.rowMarks(0));
    }

    @Test
    void clearingTheScreenClearsItsMarks() {
        Terminal t = term("\033]133;A\007$ \033[2J");
        assertEquals(0, t.rowMarks(0));
    }

    @Test
    void aMarkChangesTheRowRevision() {
        Terminal t = term("");
        long r = t.revision();
        feed(t, "\r\n\033]133;A\007");
        assertEquals(java.util.BitSet.valueOf(new long[] {0b10}), t.rowsChangedSince(r));
    }

    // ------------------------------------------------------------------ OSC 52

    private static final Limits CLIP = Limits.DEFAULT.withClipboardBytes(64);

    private static String osc52(String sel, String text) {
        return "\033]52;" + sel + ";" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "\007";
    }

    @Test
    void clipboardIsIgnoredByDefault() {
        Terminal t = term(osc52("c", "secret") + "\033]52;c;?\007");
        assertNull(t.takeClipboardWrite());
        assertArrayEquals(new byte[0], t.takeReplies());
    }

    @Test
    void clipboardWriteIsSurfacedWhenAllowed() {
        Terminal t = term(20, 4, CLIP, osc52("c", "h\u00e9llo"));
        ClipboardWrite w = t.takeClipboardWrite();
        assertEquals("c", w.selections());
        assertEquals("h\u00e9llo", w.text());
        assertNull(t.takeClipboardWrite(), "taken once");
        feed(t, osc52("", "a") + osc52("pcxp", "b"));
        w = t.takeClipboardWrite();
        assertEquals("pc", w.selections(), "the newest replaces; unknown and repeated letters dropped");
        assertEquals("b", w.text());
        feed(t, "\033]52;c;\007");
        assertEquals(0, t.takeClipboardWrite().data().length, "empty data clears");
        feed(t, osc52("", "x"));
        assertEquals("s0", t.takeClipboardWrite().selections());
    }

    @Test
    void clipboardQueriesAreNeverAnsweredAndJunkIsIgnored() {
        Terminal t = term(20, 4, CLIP, osc52("c", "mine") + "\033]52;c;?\007");
        assertArrayEquals(new byte[0], t.takeReplies());
        assertEquals("mine", t.takeClipboardWrite().text(), "the query did not touch the pending write");
        feed(t, "\033]52;c;!!notbase64\007\033]52;c\007");
        assertNull(t.takeClipboardWrite());
    }

    @Test
    void clipboardLargerThanThePolicyIsDropped() {
        Terminal t = term(20, 4, CLIP, osc52("c", "y".repeat(65)));
        assertNull(t.takeClipboardWrite());
        feed(t, osc52("c", "y".repeat(64)));
        assertEquals(64, t.takeClipboardWrite().data().length);
    }

    @Test
    void clipboardMayExceedTheGeneralStringBoundButOtherOscsMayNot() {
        Limits limits = new Limits(0, 64, 300);
        Terminal t = term(20, 4, limits, osc52("c", "z".repeat(300)) + "\033]2;" + "t".repeat(100) + "\007");
        assertEquals(300, t.takeClipboardWrite().data().length);
        assertEquals("", t.title());
    }

    @Test
    void limitsValidateTheClipboardPolicy() {
        assertEquals(0, Limits.DEFAULT.clipboardBytes());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Limits.DEFAULT.withClipboardBytes(-1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Limits.DEFAULT.withClipboardBytes(Limits.MAX_CLIPBOARD_BYTES + 1));
    }

    private static List<String> allText(Terminal t) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < t.historySize(); i++) {
            out.add(t.historyText(i, false));
        }
        for (int r = 0; r < t.rows(); r++) {
            String s = t.rowText(r, false);
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theLinkTableIsAllocatedByTheFirstLink() {
        LinkTable table = new LinkTable();
        assertFalse(table.allocated(), "a pane that never prints a link holds no link ring");
        assertNull(table.get(1));
        int serial = table.open(new Hyperlink("https://example.org/", ""));
        assertTrue(table.allocated());
        assertEquals("https://example.org/", table.get(serial).uri());
    }
}

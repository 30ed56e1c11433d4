package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.artuditu.vt.ClipboardWrite;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Mode;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fixture fed in two pieces at every boundary, and one byte at a time, ends as when fed whole. */
class SplitFeedTest {
    private static final List<String> FIXTURES = List.of(
            "plain text that wraps past the edge of a narrow screen\r\nand more",
            "\033[1;31mred\033[0m \033[38;2;10;20;30;48:5:200mrgb\033[4:3mcurly\033[m\r\n",
            "\u4e2d\u6587 \ud83d\ude00 e\u0301 \u00e9\u00e8 \u20ac\r\n\u4e2d\u4e2d\u4e2d\u4e2d\u4e2d\u4e2d\u4e2d",
            "\033]0;t\u00eftle\007\033]2;second\033\\\033[?1049h\033[2J\033[5;3Halt\033[?1049l",
            "\033[2;5r\033[3;1H\033[2L\033[1M\033[3@\033[2P\033[4X\033[?6h\033[2;2HO\033[?6l",
            "\033(0lqqk\033(B\033[?1;1000;1006;2004h\033=\033[3 q\033[6n\033[c\0337\033[10;10H\0338",
            "\033P1$qm\033\\\033_apc\033\\\033[?999z\033[1;2;3;4;5;6;7;8;9;10;11;12m\tx\ty\033[Zz",
            "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n10\r\n11\033[S\033[T\033M\033D\033E",
            // OSC 7, 8, 9, 777, 133, 52 (docs/vt.md, "OSC and shell integration").
            "\033]7;file://h/a%20b\007a\033]8;id=1;https://x/\u00e9\033\\link\u4e2d\033]8;;\007b\r\n"
                    + "\033]8;;u2\007wraps past the edge\033]8;;\007\r\n\r\n\r\n\r\n",
            "\033]133;A\007$ \033]133;B\007ls\r\n\033]133;C\007out\r\n\033]133;D;127\007\033]133;A\007$ "
                    + "\033]9;done \u00e9\007\033]777;notify;T;b;c\033\\\033]52;c;aMOpbGxv\007\033]52;p;?\007");

    private static String snapshot(Terminal t) {
        StringBuilder sb = new StringBuilder(t.screenText(true));
        sb.append("|cursor=").append(t.cursorRow()).append(',').append(t.cursorCol())
                .append("|title=").append(t.title()).append("|shape=").append(t.cursorShape())
                .append("|replies=").append(new String(t.takeReplies(), StandardCharsets.ISO_8859_1));
        for (Mode m : Mode.values()) {
            sb.append(t.mode(m) ? '1' : '0');
        }
        for (int r = 0; r < t.rows(); r++) {
            sb.append(t.wrapped(r) ? 'w' : '-');
        }
        for (int i = 0; i < t.historySize(); i++) {
            sb.append('\n').append(t.historyText(i, true)).append(t.historyWrapped(i) ? "+" : "");
            sb.append("|marks=").append(t.historyMarks(i)).append(',').append(t.historyExitStatus(i));
            for (int c = 0; c < t.cols(); c++) {
                sb.append(' ').append(t.historyLink(i, c));
            }
        }
        for (int r = 0; r < t.rows(); r++) {
            sb.append("\nrow ").append(r).append(" marks=").append(t.rowMarks(r)).append(',').append(t.rowExitStatus(r));
            for (int c = 0; c < t.cols(); c++) {
                sb.append(' ').append(t.link(r, c));
            }
        }
        ClipboardWrite clip = t.takeClipboardWrite();
        sb.append("\ncwd=").append(t.workingDirectory()).append("|notes=").append(t.takeNotifications())
                .append("|clip=").append(clip == null ? null : clip.selections() + ":" + clip.text())
                .append("|exit=").append(t.lastExitStatus()).append(',').append(t.commandsFinished());
        return sb.toString();
    }

    private static Terminal fresh() {
        return Terminal.create(12, 6, Limits.DEFAULT.withClipboardBytes(64));
    }

    @Test
    void everySplitGivesTheSameScreen() {
        for (String fixture : FIXTURES) {
            byte[] bytes = fixture.getBytes(StandardCharsets.UTF_8);
            Terminal whole = fresh();
            whole.feed(bytes);
            String expected = snapshot(whole);
            for (int cut = 0; cut <= bytes.length; cut++) {
                Terminal t = fresh();
                t.feed(bytes, 0, cut);
                t.feed(bytes, cut, bytes.length - cut);
                assertEquals(expected, snapshot(t), () -> "split of " + fixture.replace('\033', '^'));
            }
            Terminal bytewise = fresh();
            for (int i = 0; i < bytes.length; i++) {
                bytewise.feed(bytes, i, 1);
            }
            assertEquals(expected, snapshot(bytewise), () -> "bytewise " + fixture.replace('\033', '^'));
        }
    }

    @Test
    void oscFixturesReachTheStateTheyCover() {
        Terminal a = fresh();
        a.feed(FIXTURES.get(FIXTURES.size() - 2).getBytes(StandardCharsets.UTF_8));
        String sa = snapshot(a);
        for (String want : new String[] {"cwd=WorkingDirectory[host=h, path=/a b]",
                "Hyperlink[uri=https://x/\u00e9, id=1]", "Hyperlink[uri=u2, id=]"}) {
            org.junit.jupiter.api.Assertions.assertTrue(sa.contains(want), want + " in " + sa);
        }
        Terminal b = fresh();
        b.feed(FIXTURES.get(FIXTURES.size() - 1).getBytes(StandardCharsets.UTF_8));
        String sb = snapshot(b);
        for (String want : new String[] {"marks=3,-1", "marks=9,127", "exit=127,1", "clip=c:h\u00e9llo",
                "notes=[Notification[title=, body=done \u00e9], Notification[title=T, body=b;c]]"}) {
            org.junit.jupiter.api.Assertions.assertTrue(sb.contains(want), want + " in " + sb);
        }
    }
}

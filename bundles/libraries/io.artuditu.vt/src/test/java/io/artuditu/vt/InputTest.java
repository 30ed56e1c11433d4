package io.artuditu.vt;

import static io.artuditu.vt.InputBytes.assertBytes;
import static io.artuditu.vt.InputBytes.feed;
import static io.artuditu.vt.InputBytes.terminal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.MouseEvent.Action;
import io.artuditu.vt.MouseEvent.Button;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Input}: pastes, mouse reports and focus reports under the modes a program set. */
class InputTest {
    private static final String START = "\033[200~";
    private static final String END = "\033[201~";

    // --- paste ---

    @Test
    void plainPasteOnlyNormalisesLineBreaks() {
        Terminal t = terminal("");
        assertBytes("a\rb\rc\rd", Input.paste("a\nb\r\nc\rd", t), "line breaks");
        assertBytes("\r\r", Input.paste("\n\n", t), "two LFs");
        assertBytes("\r\r", Input.paste("\r\n\r\n", t), "two CRLFs");
        assertBytes("\r\r", Input.paste("\n\r", t), "LF CR is two breaks");
        assertBytes("é\t😀", Input.paste("é\t😀", t), "UTF-8 and tab kept");
        // Without brackets nothing is bracketed, so nothing is stripped either.
        assertBytes("x" + END + "y", Input.paste("x" + END + "y", t), "no stripping when off");
    }

    @Test
    void bracketedPasteIsWrapped() {
        Terminal t = terminal("\033[?2004h");
        assertTrue(t.mode(Mode.BRACKETED_PASTE));
        assertBytes(START + "ls -l\r" + END, Input.paste("ls -l\n", t), "wrapped");
        assertBytes(START + "a\rb\rc" + END, Input.paste("a\r\nb\nc", t), "normalised inside");
        assertBytes(START + "é" + END, Input.paste("é", t), "UTF-8");

        feed(t, "\033[?2004l");
        assertBytes("ls -l\r", Input.paste("ls -l\n", t), "off again");
    }

    @Test
    void bracketedPasteCannotEndTheBracketEarly() {
        Terminal t = terminal("\033[?2004h");
        assertBytes(START + "ab" + END, Input.paste("a" + END + "b", t), "end marker removed");
        assertBytes(START + "ab" + END, Input.paste("a" + START + "b", t), "start marker removed");
        assertBytes(START + "rm -rf ~\r" + END, Input.paste(END + "rm -rf ~\n" + START, t), "both");
        // A marker that only appears once an inner one is removed is removed too.
        assertBytes(START + "xy" + END, Input.paste("x\033[20" + END + "1~y", t), "nested");
        assertBytes(START + "xy" + END, Input.paste("x\033[2\033[20" + END + "1~01~y", t), "nested twice");
        // Near misses stay.
        assertBytes(START + "\033[202~\033[201\r~" + END, Input.paste("\033[202~\033[201\n~", t), "near misses");
    }

    @Test
    void bracketedPasteOfHostileTextNeverContainsAMarkerInside() {
        Terminal t = terminal("\033[?2004h");
        char[] alphabet = {'\033', '[', '2', '0', '1', '~', '\n', '\r', 'x'};
        Random random = new Random(7);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder sb = new StringBuilder();
            int len = 1 + random.nextInt(40);
            for (int i = 0; i < len; i++) {
                sb.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String out = new String(Input.paste(sb.toString(), t), StandardCharsets.UTF_8);
            assertTrue(out.startsWith(START) && out.endsWith(END), out);
            String inside = out.substring(START.length(), out.length() - END.length());
            assertFalse(inside.contains(START) || inside.contains(END), "marker inside: " + sb);
            assertFalse(inside.contains("\n"), "LF inside: " + sb);
        }
    }

    @Test
    void bracketedPasteOfALongTextIsLinear() {
        Terminal t = terminal("\033[?2004h");
        // 100,000 nested markers: quadratic removal would take minutes.
        String nested = "\033[20".repeat(100_000) + "1~".repeat(100_000);
        assertBytes(START + "ok" + END, Input.paste("o" + nested + "k", t), "all nested markers removed");
    }

    @Test
    void emptyPasteSendsNothing() {
        assertEquals(0, Input.paste("", terminal("")).length);
        assertEquals(0, Input.paste("", terminal("\033[?2004h")).length);
    }

    // --- mouse ---

    private static MouseEvent press(Button b, int col, int row) {
        return new MouseEvent(Action.PRESS, b, col, row);
    }

    private static MouseEvent release(Button b, int col, int row) {
        return new MouseEvent(Action.RELEASE, b, col, row);
    }

    private static MouseEvent drag(Button b, int col, int row) {
        return new MouseEvent(Action.DRAG, b, col, row);
    }

    private static MouseEvent motion(int col, int row) {
        return new MouseEvent(Action.MOTION, Button.NONE, col, row);
    }

    private static MouseEvent wheel(Action a, int col, int row) {
        return new MouseEvent(a, Button.NONE, col, row);
    }

    /** The X10/normal report: CSI M and 32 + b, 32 + x, 32 + y (1-based). */
    private static byte[] x10(int b, int x, int y) {
        return new byte[] {0x1b, '[', 'M', (byte) (32 + b), (byte) (32 + x), (byte) (32 + y)};
    }

    private static void none(Terminal t, MouseEvent e, String why) {
        assertEquals(0, Input.mouse(e, t).length, why + ": " + e);
    }

    @Test
    void noMouseModeReportsNothing() {
        for (String modes : new String[] {"", "\033[?1006h", "\033[?1000h\033[?1000l", "\033[?1004h\033[?2004h"}) {
            Terminal t = terminal(modes);
            assertFalse(t.wantsMouse());
            none(t, press(Button.LEFT, 0, 0), modes);
            none(t, release(Button.LEFT, 0, 0), modes);
            none(t, drag(Button.LEFT, 1, 0), modes);
            none(t, motion(1, 0), modes);
            none(t, wheel(Action.WHEEL_UP, 0, 0), modes);
            none(t, wheel(Action.WHEEL_DOWN, 0, 0), modes);
        }
    }

    @Test
    void buttonModeReportsPressReleaseAndWheelInX10Form() {
        Terminal t = terminal("\033[?1000h");
        assertBytes(x10(0, 1, 1), Input.mouse(press(Button.LEFT, 0, 0), t), "left press");
        assertBytes(x10(3, 1, 1), Input.mouse(release(Button.LEFT, 0, 0), t), "release is button 3");
        assertBytes(x10(1, 10, 5), Input.mouse(press(Button.MIDDLE, 9, 4), t), "middle press");
        assertBytes(x10(2, 80, 24), Input.mouse(press(Button.RIGHT, 79, 23), t), "right press at the corner");
        assertBytes(x10(3, 80, 24), Input.mouse(release(Button.RIGHT, 79, 23), t), "right release");
        assertBytes(x10(64, 3, 2), Input.mouse(wheel(Action.WHEEL_UP, 2, 1), t), "wheel up");
        assertBytes(x10(65, 3, 2), Input.mouse(wheel(Action.WHEEL_DOWN, 2, 1), t), "wheel down");
        assertBytes("\033[M !!", Input.mouse(press(Button.LEFT, 0, 0), t), "as text");
        none(t, drag(Button.LEFT, 5, 5), "drag needs 1002 or 1003");
        none(t, motion(5, 5), "motion needs 1003");
    }

    @Test
    void modifiersAddToTheButton() {
        Terminal t = terminal("\033[?1000h");
        assertBytes(x10(4, 1, 1), Input.mouse(new MouseEvent(Action.PRESS, Button.LEFT, 0, 0, false, false, true), t),
                "shift");
        assertBytes(x10(8, 1, 1), Input.mouse(new MouseEvent(Action.PRESS, Button.LEFT, 0, 0, false, true, false), t),
                "alt");
        assertBytes(x10(16 + 2, 1, 1),
                Input.mouse(new MouseEvent(Action.PRESS, Button.RIGHT, 0, 0, true, false, false), t), "ctrl");
        assertBytes(x10(64 + 28, 1, 1),
                Input.mouse(new MouseEvent(Action.WHEEL_UP, Button.NONE, 0, 0, true, true, true), t), "all on wheel");
        feed(t, "\033[?1006h");
        assertBytes("\033[<21;1;1m",
                Input.mouse(new MouseEvent(Action.RELEASE, Button.MIDDLE, 0, 0, true, false, true), t), "SGR");
    }

    @Test
    void dragModeAlsoReportsDragsButNotMotion() {
        Terminal t = terminal("\033[?1002h");
        assertTrue(t.wantsMouse());
        assertBytes(x10(0, 1, 1), Input.mouse(press(Button.LEFT, 0, 0), t), "press");
        assertBytes(x10(32, 4, 2), Input.mouse(drag(Button.LEFT, 3, 1), t), "left drag");
        assertBytes(x10(34, 4, 2), Input.mouse(drag(Button.RIGHT, 3, 1), t), "right drag");
        assertBytes(x10(3, 4, 2), Input.mouse(release(Button.LEFT, 3, 1), t), "release");
        none(t, motion(5, 5), "motion needs 1003");
    }

    @Test
    void anyModeReportsEverything() {
        Terminal t = terminal("\033[?1003h");
        assertBytes(x10(35, 6, 6), Input.mouse(motion(5, 5), t), "motion is 32 + 3");
        assertBytes(x10(33, 6, 6), Input.mouse(drag(Button.MIDDLE, 5, 5), t), "drag");
        assertBytes(x10(0, 6, 6), Input.mouse(press(Button.LEFT, 5, 5), t), "press");
        feed(t, "\033[?1003l");
        none(t, motion(5, 5), "off again");
        none(t, press(Button.LEFT, 5, 5), "off again");
    }

    @Test
    void sgrEncoding() {
        Terminal t = terminal("\033[?1000h\033[?1006h");
        assertTrue(t.mode(Mode.MOUSE_SGR));
        assertBytes("\033[<0;1;1M", Input.mouse(press(Button.LEFT, 0, 0), t), "press");
        assertBytes("\033[<0;1;1m", Input.mouse(release(Button.LEFT, 0, 0), t), "release keeps the button");
        assertBytes("\033[<1;10;5M", Input.mouse(press(Button.MIDDLE, 9, 4), t), "middle");
        assertBytes("\033[<2;80;24m", Input.mouse(release(Button.RIGHT, 79, 23), t), "right release");
        assertBytes("\033[<64;3;2M", Input.mouse(wheel(Action.WHEEL_UP, 2, 1), t), "wheel up");
        assertBytes("\033[<65;3;2M", Input.mouse(wheel(Action.WHEEL_DOWN, 2, 1), t), "wheel down");
        none(t, drag(Button.LEFT, 1, 1), "drag needs 1002");
        feed(t, "\033[?1002h");
        assertBytes("\033[<32;2;2M", Input.mouse(drag(Button.LEFT, 1, 1), t), "drag");
        none(t, motion(1, 1), "motion needs 1003");
        feed(t, "\033[?1003h");
        assertBytes("\033[<35;2;2M", Input.mouse(motion(1, 1), t), "motion");
        feed(t, "\033[?1006l");
        assertBytes(x10(35, 2, 2), Input.mouse(motion(1, 1), t), "back to X10");
    }

    @Test
    void largeCoordinates() {
        Terminal t = Terminal.create(400, 300);
        feed(t, "\033[?1000h");
        assertBytes(x10(0, 223, 223), Input.mouse(press(Button.LEFT, 299, 250), t), "X10 caps at 223");
        assertBytes(x10(0, 223, 1), Input.mouse(press(Button.LEFT, 222, 0), t), "223 itself");
        byte[] b = Input.mouse(press(Button.LEFT, 299, 250), t);
        assertEquals(255, b[4] & 0xff);
        assertBytes(x10(0, 96, 1), Input.mouse(press(Button.LEFT, 95, 0), t), "above 127 is a raw byte");
        feed(t, "\033[?1006h");
        assertBytes("\033[<0;300;251M", Input.mouse(press(Button.LEFT, 299, 250), t), "SGR is not capped");
        assertBytes("\033[<0;400;300M", Input.mouse(press(Button.LEFT, 10_000, 10_000), t), "clamped to the screen");
    }

    @Test
    void positionsBeyondTheScreenAreClamped() {
        Terminal t = terminal("\033[?1000h");
        assertBytes(x10(0, 80, 24), Input.mouse(press(Button.LEFT, 500, 500), t), "last cell");
    }

    @Test
    void mouseEventValidation() {
        assertThrows(IllegalArgumentException.class, () -> press(Button.LEFT, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> press(Button.LEFT, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> press(Button.NONE, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> release(Button.NONE, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> drag(Button.NONE, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new MouseEvent(Action.MOTION, Button.LEFT, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new MouseEvent(Action.WHEEL_UP, Button.LEFT, 0, 0));
        assertThrows(NullPointerException.class, () -> new MouseEvent(null, Button.LEFT, 0, 0));
        assertThrows(NullPointerException.class, () -> new MouseEvent(Action.PRESS, null, 0, 0));
    }

    // --- focus ---

    @Test
    void focusReportsOnlyWhenAskedFor() {
        Terminal t = terminal("");
        assertEquals(0, Input.focus(true, t).length);
        assertEquals(0, Input.focus(false, t).length);
        feed(t, "\033[?1004h");
        assertBytes("\033[I", Input.focus(true, t), "in");
        assertBytes("\033[O", Input.focus(false, t), "out");
        feed(t, "\033[?1004l");
        assertEquals(0, Input.focus(true, t).length);
    }
}

package io.artuditu.vt.internal;

import io.artuditu.vt.ClipboardWrite;
import io.artuditu.vt.Hyperlink;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Notification;
import io.artuditu.vt.ShellMarks;
import io.artuditu.vt.WorkingDirectory;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The OSC commands beyond the title: working directory (7), hyperlinks (8), notifications
 * (9, 777), shell-integration marks (133) and the clipboard (52). It owns their state; the
 * {@link Emulator} hands it each OSC string and stamps the current link on the cells it
 * writes. Every string it gets is already bounded by the parser.
 */
final class OscExtensions {
    /** Notifications kept until {@link #takeNotifications}; the oldest are dropped beyond it. */
    static final int MAX_NOTIFICATIONS = 32;

    private final int clipboardBytes;
    final LinkTable links = new LinkTable();
    /** Serial of the open hyperlink, 0 when none is open. */
    int currentLink;
    private WorkingDirectory cwd;
    private final ArrayDeque<Notification> notifications = new ArrayDeque<>();
    private ClipboardWrite clipboard;
    private int lastExitStatus = ShellMarks.NO_STATUS;
    private long commandsFinished;

    OscExtensions(Limits limits) {
        this.clipboardBytes = limits.clipboardBytes();
    }

    /** Longest OSC 52 string the parser should keep: room for the base64 of the allowed payload. */
    static int clipboardStringBytes(Limits limits) {
        int clip = limits.clipboardBytes();
        if (clip == 0) {
            return limits.maxStringBytes();
        }
        long encoded = 4L * ((clip + 2L) / 3) + 64;
        return (int) Math.max(limits.maxStringBytes(), encoded);
    }

    /**
     * Handles OSC {@code code} whose argument is {@code s[from, len)}; {@code line} is the
     * cursor's row. Returns whether anything changed.
     */
    boolean osc(int code, byte[] s, int from, int len, Line line) {
        switch (code) {
            case 7:
                return workingDirectory(s, from, len);
            case 8:
                hyperlink(s, from, len);
                return false;
            case 9:
                notifyConEmuAware(s, from, len);
                return false;
            case 777:
                notify777(s, from, len);
                return false;
            case 133:
                return mark(s, from, len, line);
            case 52:
                clipboard(s, from, len);
                return false;
            default:
                return false;
        }
    }

    /** RIS: closes an open link; the rest describes the shell, not the screen, and stays. */
    void reset() {
        currentLink = 0;
    }

    // ------------------------------------------------------------------ OSC 7

    private boolean workingDirectory(byte[] s, int from, int len) {
        String prefix = "file://";
        if (len - from < prefix.length()
                || !new String(s, from, prefix.length(), StandardCharsets.US_ASCII).equalsIgnoreCase(prefix)) {
            return false;
        }
        int hostStart = from + prefix.length();
        int slash = hostStart;
        while (slash < len && s[slash] != '/') {
            slash++;
        }
        if (slash == len) {
            return false;
        }
        String host = percentDecode(s, hostStart, slash);
        String path = percentDecode(s, slash, len);
        if (host == null || path == null) {
            return false;
        }
        WorkingDirectory next = new WorkingDirectory(host, path);
        boolean changed = !next.equals(cwd);
        cwd = next;
        return changed;
    }

    /** UTF-8 text of {@code s[from, to)} with %XX escapes decoded; null for a malformed escape. */
    private static String percentDecode(byte[] s, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            int b = s[i] & 0xFF;
            if (b == '%') {
                int hi = i + 2 < to ? Character.digit(s[i + 1], 16) : -1;
                int lo = hi >= 0 ? Character.digit(s[i + 2], 16) : -1;
                if (lo < 0) {
                    return null;
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                out.write(b);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    WorkingDirectory workingDirectory() {
        return cwd;
    }

    // ------------------------------------------------------------------ OSC 8

    private void hyperlink(byte[] s, int from, int len) {
        int semi = indexOf(s, from, len, ';');
        // Whatever follows, the link open so far ends here: a malformed or oversized OSC 8
        // must not leave later text attributed to the previous target.
        currentLink = 0;
        if (semi < 0 || semi + 1 == len || len - (semi + 1) > Hyperlink.MAX_URI_BYTES) {
            return;
        }
        String id = "";
        for (int p = from; p < semi; ) {
            int end = indexOf(s, p, semi, ':');
            end = end < 0 ? semi : end;
            if (end - p > 3 && s[p] == 'i' && s[p + 1] == 'd' && s[p + 2] == '=') {
                if (end - p - 3 > Hyperlink.MAX_ID_BYTES) {
                    return;
                }
                id = new String(s, p + 3, end - p - 3, StandardCharsets.UTF_8);
            }
            p = end + 1;
        }
        String uri = new String(s, semi + 1, len - semi - 1, StandardCharsets.UTF_8);
        currentLink = links.open(new Hyperlink(uri, id));
    }

    Hyperlink link(int serial) {
        return links.get(serial);
    }

    // ------------------------------------------------------------------ OSC 9, 777

    private void notifyConEmuAware(byte[] s, int from, int len) {
        // ConEmu's OSC 9;1 .. 9;12 (progress, sleep, message box...) are not notifications.
        int i = from;
        int n = 0;
        while (i < len && i - from < 3 && s[i] >= '0' && s[i] <= '9') {
            n = n * 10 + s[i] - '0';
            i++;
        }
        if (i > from && n >= 1 && n <= 12 && (i == len || s[i] == ';')) {
            return;
        }
        queue(new Notification("", new String(s, from, len - from, StandardCharsets.UTF_8)));
    }

    private void notify777(byte[] s, int from, int len) {
        int semi = indexOf(s, from, len, ';');
        String verb = new String(s, from, (semi < 0 ? len : semi) - from, StandardCharsets.US_ASCII);
        if (!verb.equals("notify") || semi < 0) {
            return;
        }
        int titleEnd = indexOf(s, semi + 1, len, ';');
        String title = new String(s, semi + 1, (titleEnd < 0 ? len : titleEnd) - semi - 1, StandardCharsets.UTF_8);
        String body = titleEnd < 0 ? "" : new String(s, titleEnd + 1, len - titleEnd - 1, StandardCharsets.UTF_8);
        queue(new Notification(title, body));
    }

    private void queue(Notification n) {
        if (notifications.size() == MAX_NOTIFICATIONS) {
            notifications.removeFirst();
        }
        notifications.addLast(n);
    }

    List<Notification> takeNotifications() {
        if (notifications.isEmpty()) {
            return List.of();
        }
        List<Notification> out = List.copyOf(notifications);
        notifications.clear();
        return out;
    }

    // ------------------------------------------------------------------ OSC 133

    private boolean mark(byte[] s, int from, int len, Line line) {
        if (from == len || (from + 1 < len && s[from + 1] != ';')) {
            return false;
        }
        int bit;
        switch (s[from]) {
            case 'A':
                bit = ShellMarks.PROMPT;
                break;
            case 'B':
                bit = ShellMarks.COMMAND;
                break;
            case 'C':
                bit = ShellMarks.OUTPUT;
                break;
            case 'D':
                bit = ShellMarks.FINISHED;
                break;
            default:
                return false;
        }
        line.shellMarks |= (byte) bit;
        if (bit == ShellMarks.FINISHED) {
            int status = exitStatus(s, from + 2, len);
            line.exitStatus = (short) status;
            lastExitStatus = status;
            commandsFinished++;
        }
        return true;
    }

    /** The decimal status up to the next ';', clamped to 32767; NO_STATUS when absent or not a number. */
    private static int exitStatus(byte[] s, int from, int len) {
        int end = indexOf(s, from, len, ';');
        end = end < 0 ? len : end;
        if (from >= end) {
            return ShellMarks.NO_STATUS;
        }
        int v = 0;
        for (int i = from; i < end; i++) {
            if (s[i] < '0' || s[i] > '9') {
                return ShellMarks.NO_STATUS;
            }
            v = Math.min(Short.MAX_VALUE, v * 10 + s[i] - '0');
        }
        return v;
    }

    int lastExitStatus() {
        return lastExitStatus;
    }

    long commandsFinished() {
        return commandsFinished;
    }

    // ------------------------------------------------------------------ OSC 52

    private void clipboard(byte[] s, int from, int len) {
        if (clipboardBytes == 0) {
            return;
        }
        int semi = indexOf(s, from, len, ';');
        if (semi < 0) {
            return;
        }
        StringBuilder sel = new StringBuilder();
        for (int i = from; i < semi; i++) {
            if ("cpqs01234567".indexOf(s[i]) >= 0 && sel.indexOf(String.valueOf((char) s[i])) < 0) {
                sel.append((char) s[i]);
            }
        }
        int data = semi + 1;
        if (len - data == 1 && s[data] == '?') {
            // A query would hand the clipboard to whatever program runs here: never answered.
            return;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(Arrays.copyOfRange(s, data, len));
        } catch (IllegalArgumentException malformed) {
            return;
        }
        if (decoded.length > clipboardBytes) {
            return;
        }
        // Only the newest write matters: a later one replaces one not yet taken.
        clipboard = new ClipboardWrite(sel.length() == 0 ? "s0" : sel.toString(), decoded);
    }

    ClipboardWrite takeClipboardWrite() {
        ClipboardWrite out = clipboard;
        clipboard = null;
        return out;
    }

    private static int indexOf(byte[] s, int from, int to, char c) {
        for (int i = from; i < to; i++) {
            if (s[i] == c) {
                return i;
            }
        }
        return -1;
    }
}

package io.artuditu.pty.internal.proc;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The two fields of {@code /proc/<pid>/stat} the scan uses. The line is
 * {@code pid (comm) state ppid ...}; {@code comm} is up to 15 arbitrary bytes and may itself
 * hold spaces, {@code (} and {@code )}, so it runs from the first {@code (} to the
 * <em>last</em> {@code )}, and {@code ppid} is the second field after that.
 *
 * @param comm the raw {@code comm} bytes, as the kernel stores them
 * @param ppid the parent's pid
 */
record Stat(byte[] comm, long ppid) {
    /** The longest {@code comm} the kernel keeps (TASK_COMM_LEN less the NUL). */
    static final int COMM_MAX = 15;

    /** Parses one stat line; {@code null} when it does not have the expected shape. */
    static Stat parse(byte[] line, int length) {
        int open = indexOf(line, length, (byte) '(');
        int close = lastIndexOf(line, length, (byte) ')');
        if (open < 0 || close < open) {
            return null;
        }
        // After ')': " <state> <ppid> ..."
        int i = close + 1;
        i = skip(line, length, i, (byte) ' ');
        int stateEnd = until(line, length, i, (byte) ' ');
        if (stateEnd == i) {
            return null;
        }
        i = skip(line, length, stateEnd, (byte) ' ');
        long ppid = 0;
        int digits = 0;
        for (; i < length && line[i] >= '0' && line[i] <= '9' && digits < 19; i++, digits++) {
            ppid = ppid * 10 + (line[i] - '0');
        }
        if (digits == 0 || (i < length && line[i] != ' ' && line[i] != '\n')) {
            return null;
        }
        return new Stat(Arrays.copyOfRange(line, open + 1, close), ppid);
    }

    /** Whether the kernel may have cut {@code comm} (it is exactly {@value #COMM_MAX} bytes). */
    boolean commMayBeTruncated() {
        return comm.length == COMM_MAX;
    }

    /** {@code comm} as text: UTF-8, control characters as {@code ?}. */
    String commText() {
        return printable(new String(comm, StandardCharsets.UTF_8));
    }

    /** {@code s} with C0 controls and DEL replaced by {@code ?}. */
    static String printable(String s) {
        StringBuilder b = null;
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c < 0x20 || c == 0x7f) {
                if (b == null) {
                    b = new StringBuilder(s);
                }
                b.setCharAt(k, '?');
            }
        }
        return b == null ? s : b.toString();
    }

    private static int indexOf(byte[] a, int length, byte b) {
        for (int i = 0; i < length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(byte[] a, int length, byte b) {
        for (int i = length - 1; i >= 0; i--) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static int skip(byte[] a, int length, int i, byte b) {
        while (i < length && a[i] == b) {
            i++;
        }
        return i;
    }

    private static int until(byte[] a, int length, int i, byte b) {
        while (i < length && a[i] != b) {
            i++;
        }
        return i;
    }
}

package io.artuditu.vt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

/** Helpers for the input-encoding tests: feeding mode sequences and readable byte comparisons. */
final class InputBytes {
    private InputBytes() {
    }

    /** An 80×24 terminal after the program wrote {@code modes} (escape sequences) to it. */
    static Terminal terminal(String modes) {
        Terminal t = Terminal.create(80, 24);
        feed(t, modes);
        return t;
    }

    static void feed(Terminal t, String s) {
        t.feed(s.getBytes(StandardCharsets.UTF_8));
    }

    /** The bytes as text with ESC and other controls spelled out, for failure messages. */
    static String show(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            int v = x & 0xff;
            if (v == 0x1b) {
                sb.append("ESC");
            } else if (v < 0x20 || v >= 0x7f) {
                sb.append(String.format("<%02x>", v));
            } else {
                sb.append((char) v);
            }
        }
        return sb.toString();
    }

    /** Compares bytes; {@code expected} chars are taken as UTF-8 text. */
    static void assertBytes(String expected, byte[] actual, String what) {
        assertBytes(expected.getBytes(StandardCharsets.UTF_8), actual, what);
    }

    static void assertBytes(byte[] expected, byte[] actual, String what) {
        assertEquals(show(expected), show(actual), what);
    }
}

package io.artuditu.vt;

import java.nio.charset.StandardCharsets;

/**
 * A program's request (OSC 52) to set a clipboard, kept only when {@link Limits#clipboardBytes()}
 * allows it.
 *
 * <p><b>Trust.</b> Untrusted program output: whether to honour it is the caller's decision
 * (for example only for the focused pane, or after asking the user).
 *
 * @param selections the selection letters the program named ({@code c} clipboard, {@code p}
 *     primary, {@code q} secondary, {@code s} select, {@code 0}–{@code 7} cut buffers); "s0"
 *     when it named none
 * @param data the decoded payload, at most {@link Limits#clipboardBytes()} bytes; empty asks
 *     for the selection to be cleared. The array is the caller's.
 */
public record ClipboardWrite(String selections, byte[] data) {
    /** The payload as UTF-8 text, malformed bytes replaced. */
    public String text() {
        return new String(data, StandardCharsets.UTF_8);
    }
}

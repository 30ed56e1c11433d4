package io.artuditu.vt;

/**
 * A desktop notification a program asked for: OSC 9 ({@code body} only, {@code title} "")
 * or OSC 777 {@code notify;title;body}.
 *
 * <p><b>Trust.</b> Untrusted program output, UTF-8 decoded with malformed bytes replaced;
 * each string is at most {@link Limits#maxStringBytes()} bytes.
 */
public record Notification(String title, String body) {
}

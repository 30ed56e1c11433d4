package io.artuditu.vt;

/**
 * The working directory a shell reported with OSC 7 ({@code file://host/path}), with the
 * URI's percent-escapes decoded.
 *
 * <p><b>Trust.</b> Untrusted program output: the host is the one the shell claims to run on
 * and the path need not exist; check both before using them.
 *
 * @param host the URI's host, "" when it had none ({@code file:///tmp})
 * @param path an absolute path, starting with {@code /}
 */
public record WorkingDirectory(String host, String path) {
}

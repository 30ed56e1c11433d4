package io.artuditu.vt;

/**
 * The hyperlink a program attached to cells with OSC 8. Cells written while one link was open
 * share one {@code Hyperlink}; two links with the same non-empty {@code id} and {@code uri}
 * are the same link (a program redrawing one link in pieces uses that).
 *
 * <p><b>Trust.</b> Both strings are untrusted program output: the URI is whatever the program
 * wrote (any scheme), at most {@value #MAX_URI_BYTES} bytes of UTF-8; show it to the user
 * before following it.
 *
 * @param uri the target, never empty
 * @param id the {@code id=} parameter, or "" when the program gave none
 */
public record Hyperlink(String uri, String id) {
    /** Longest URI kept; an OSC 8 with a longer one opens no link. */
    public static final int MAX_URI_BYTES = 2048;
    /** Longest id kept; an OSC 8 with a longer one opens no link. */
    public static final int MAX_ID_BYTES = 256;
}

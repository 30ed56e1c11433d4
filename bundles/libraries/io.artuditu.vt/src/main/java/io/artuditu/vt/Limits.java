package io.artuditu.vt;

/**
 * The bounds a {@link Terminal} keeps to whatever it is fed, and the one policy that lets
 * program output reach the user's clipboard.
 *
 * @param historyBytes bytes of scrollback retained, counted as described in {@code docs/vt.md};
 *     0 keeps no scrollback. The oldest lines are dropped first.
 * @param maxStringBytes longest OSC string kept; a longer one is discarded as it arrives and
 *     then ignored as a whole. At least 16.
 * @param clipboardBytes the OSC 52 clipboard policy: 0 (the default) ignores every OSC 52;
 *     a positive value lets a program set the clipboard with at most this many decoded bytes
 *     (a longer payload is discarded as it arrives and ignored), surfaced through
 *     {@link Terminal#takeClipboardWrite()}. Clipboard queries are never answered. At most
 *     16 MiB.
 */
public record Limits(long historyBytes, int maxStringBytes, int clipboardBytes) {
    /** 4 MiB of scrollback, 4 KiB OSC strings, clipboard writes off. */
    public static final Limits DEFAULT = new Limits(4L << 20, 4096);

    /** Largest {@link #clipboardBytes} accepted. */
    public static final int MAX_CLIPBOARD_BYTES = 16 << 20;

    public Limits {
        if (historyBytes < 0) {
            throw new IllegalArgumentException("historyBytes < 0");
        }
        if (maxStringBytes < 16) {
            throw new IllegalArgumentException("maxStringBytes < 16");
        }
        if (clipboardBytes < 0 || clipboardBytes > MAX_CLIPBOARD_BYTES) {
            throw new IllegalArgumentException("clipboardBytes not in 0.." + MAX_CLIPBOARD_BYTES);
        }
    }

    /** Clipboard writes off. */
    public Limits(long historyBytes, int maxStringBytes) {
        this(historyBytes, maxStringBytes, 0);
    }

    /** These limits with the clipboard policy changed: 0 turns OSC 52 off. */
    public Limits withClipboardBytes(int bytes) {
        return new Limits(historyBytes, maxStringBytes, bytes);
    }
}

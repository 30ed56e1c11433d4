package io.artuditu.vt;

/**
 * The bounds a {@link Terminal} keeps to whatever it is fed.
 *
 * @param historyBytes bytes of scrollback retained, counted as described in {@code docs/vt.md};
 *     0 keeps no scrollback. The oldest lines are dropped first.
 * @param maxStringBytes longest OSC string kept; a longer one is discarded as it arrives and
 *     then ignored as a whole. At least 16.
 */
public record Limits(long historyBytes, int maxStringBytes) {
    /** 4 MiB of scrollback, 4 KiB OSC strings. */
    public static final Limits DEFAULT = new Limits(4L << 20, 4096);

    public Limits {
        if (historyBytes < 0) {
            throw new IllegalArgumentException("historyBytes < 0");
        }
        if (maxStringBytes < 16) {
            throw new IllegalArgumentException("maxStringBytes < 16");
        }
    }
}

package io.artuditu.terminal.internal;

/** UTF-8 sizes of text without encoding it: every byte limit of the terminal methods counts this way. */
public final class Utf8 {
    private Utf8() {
    }

    /** The number of bytes {@code s} takes as UTF-8 (a lone surrogate counts 3, an upper bound). */
    public static int length(CharSequence s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}

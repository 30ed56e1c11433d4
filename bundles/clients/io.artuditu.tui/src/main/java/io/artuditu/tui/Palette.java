package io.artuditu.tui;

/** The xterm 256-colour palette, to reduce true colour to 256 and 256 to 16. */
final class Palette {
    private static final int[] CUBE = {0, 95, 135, 175, 215, 255};
    /** xterm's default 16 colours. */
    private static final int[] BASE = {
        0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
        0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
    };

    private Palette() {
    }

    /** The RGB of palette entry {@code i} (0–255). */
    static int rgb(int i) {
        if (i < 16) {
            return BASE[i];
        }
        if (i < 232) {
            int n = i - 16;
            return CUBE[n / 36] << 16 | CUBE[(n / 6) % 6] << 8 | CUBE[n % 6];
        }
        int g = 8 + 10 * (i - 232);
        return g << 16 | g << 8 | g;
    }

    /** The entry 16–255 closest to (r, g, b): the 6×6×6 cube or the grey ramp. */
    static int nearest256(int r, int g, int b) {
        int best = 16;
        long bestD = Long.MAX_VALUE;
        for (int i = 16; i < 256; i++) {
            long d = distance(rgb(i), r, g, b);
            if (d < bestD) {
                bestD = d;
                best = i;
            }
        }
        return best;
    }

    /** The entry 0–15 closest to palette entry {@code i}. */
    static int nearest16(int i) {
        int c = rgb(i);
        int best = 0;
        long bestD = Long.MAX_VALUE;
        for (int j = 0; j < 16; j++) {
            long d = distance(BASE[j], (c >> 16) & 255, (c >> 8) & 255, c & 255);
            if (d < bestD) {
                bestD = d;
                best = j;
            }
        }
        return best;
    }

    private static long distance(int c, int r, int g, int b) {
        long dr = ((c >> 16) & 255) - r;
        long dg = ((c >> 8) & 255) - g;
        long db = (c & 255) - b;
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db;
    }
}

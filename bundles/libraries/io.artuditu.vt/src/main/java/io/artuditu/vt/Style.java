package io.artuditu.vt;

/**
 * Decodes the packed {@code long} a {@link Terminal} keeps per cell for its rendition.
 *
 * <p>Layout (bit 0 is least significant): bits 0–25 the foreground colour, bits 26–51 the
 * background colour, bits 52–58 the flags below, bits 59–61 the underline style (0 none,
 * 1 single, 2 double, 3 curly, 4 dotted, 5 dashed), bit 62 {@link #OVERLINE}; bit 63 is
 * unused. A colour is 26 bits: its kind in bits 24–25 ({@link #COLOR_DEFAULT},
 * {@link #COLOR_INDEXED}, {@link #COLOR_RGB}) and its value in bits 0–23 (a palette index
 * 0–255, or {@code 0xRRGGBB}). {@code 0} is the default rendition.
 *
 * <p>The underline colour (SGR 58) is not part of this {@code long}: it is a colour of the
 * same 26-bit form, read with {@link Terminal#underlineColor}, and most cells have none, so
 * the terminal keeps it beside the rendition only for rows that use it.
 */
public final class Style {
    public static final long DEFAULT = 0L;

    public static final int COLOR_DEFAULT = 0;
    public static final int COLOR_INDEXED = 1;
    public static final int COLOR_RGB = 2;

    public static final long BOLD = 1L << 52;
    public static final long DIM = 1L << 53;
    public static final long ITALIC = 1L << 54;
    public static final long BLINK = 1L << 55;
    public static final long REVERSE = 1L << 56;
    public static final long HIDDEN = 1L << 57;
    public static final long STRIKE = 1L << 58;
    /** SGR 53, reset by 55. */
    public static final long OVERLINE = 1L << 62;

    public static final int UNDERLINE_SHIFT = 59;
    public static final long UNDERLINE_MASK = 7L << UNDERLINE_SHIFT;
    public static final long FG_MASK = (1L << 26) - 1;
    public static final long BG_MASK = FG_MASK << 26;

    private Style() {
    }

    /** The foreground colour: see {@link #colorKind} and {@link #colorValue}. */
    public static int fg(long style) {
        return (int) (style & FG_MASK);
    }

    /** The background colour: see {@link #colorKind} and {@link #colorValue}. */
    public static int bg(long style) {
        return (int) ((style & BG_MASK) >>> 26);
    }

    public static int colorKind(int color) {
        return color >>> 24;
    }

    /** A palette index, or {@code 0xRRGGBB}, or 0 for the default colour. */
    public static int colorValue(int color) {
        return color & 0xFFFFFF;
    }

    /** 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed. */
    public static int underline(long style) {
        return (int) ((style & UNDERLINE_MASK) >>> UNDERLINE_SHIFT);
    }

    public static boolean has(long style, long flag) {
        return (style & flag) != 0;
    }

    public static int indexed(int index) {
        return (COLOR_INDEXED << 24) | (index & 0xFF);
    }

    public static int rgb(int r, int g, int b) {
        return (COLOR_RGB << 24) | ((r & 0xFF) << 16) | ((g & 0xFF) << 8) | (b & 0xFF);
    }

    public static long withFg(long style, int color) {
        return (style & ~FG_MASK) | (color & FG_MASK);
    }

    public static long withBg(long style, int color) {
        return (style & ~BG_MASK) | ((color & FG_MASK) << 26);
    }
}

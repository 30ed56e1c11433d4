package io.artuditu.themes;

import java.util.Locale;

/** Colours as 0xRRGGBB integers: parsing, formatting and the arithmetic the derivations use. */
public final class Rgb {
    private Rgb() {
    }

    /** {@code #rrggbb} or {@code #rgb} (either case), else -1. */
    public static int parse(String s) {
        if (s == null || s.isEmpty() || s.charAt(0) != '#') {
            return -1;
        }
        String h = s.substring(1);
        if (h.length() == 3) {
            h = "" + h.charAt(0) + h.charAt(0) + h.charAt(1) + h.charAt(1) + h.charAt(2) + h.charAt(2);
        }
        if (h.length() != 6) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < 6; i++) {
            int d = Character.digit(h.charAt(i), 16);
            if (d < 0) {
                return -1;
            }
            v = v << 4 | d;
        }
        return v;
    }

    /** {@code #rrggbb}, lower case. */
    public static String hex(int rgb) {
        return String.format(Locale.ROOT, "#%06x", rgb & 0xffffff);
    }

    /** {@code a} moved towards {@code b} by {@code t} (0: a, 1: b), per channel. */
    public static int blend(int a, int b, double t) {
        int r = mix((a >> 16) & 255, (b >> 16) & 255, t);
        int g = mix((a >> 8) & 255, (b >> 8) & 255, t);
        int bl = mix(a & 255, b & 255, t);
        return r << 16 | g << 8 | bl;
    }

    private static int mix(int x, int y, double t) {
        return (int) Math.round(x + (y - x) * t);
    }

    /** WCAG relative luminance, 0 (black) to 1 (white). */
    public static double luminance(int rgb) {
        return 0.2126 * linear((rgb >> 16) & 255) + 0.7152 * linear((rgb >> 8) & 255) + 0.0722 * linear(rgb & 255);
    }

    private static double linear(int c) {
        double s = c / 255.0;
        return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    }

    /** WCAG contrast ratio, 1 to 21. */
    public static double contrast(int a, int b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    /** Of the candidates, the one that reads best on {@code background}. */
    public static int readableOn(int background, int... candidates) {
        int best = candidates[0];
        double bestC = -1;
        for (int c : candidates) {
            double k = contrast(background, c);
            if (k > bestC) {
                bestC = k;
                best = c;
            }
        }
        return best;
    }
}

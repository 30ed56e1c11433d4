package io.artuditu.bench.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/** How numbers and table cells are written on the page. */
final class Fmt {
    static final String NONE = "–";

    private Fmt() {
    }

    /**
     * At least 100: no decimals, thousands separated by commas; 10 to 100: one decimal; below 10: two,
     * and below 1 as many as two significant figures need (0.61, 0.012).
     */
    static String num(Double v) {
        if (v == null || !Double.isFinite(v)) {
            return NONE;
        }
        double a = Math.abs(v);
        if (Math.round(a * 10) / 10.0 >= 100) {
            return String.format(Locale.US, "%,.0f", v);
        }
        if (Math.round(a * 100) / 100.0 >= 10) {
            return String.format(Locale.US, "%.1f", v);
        }
        if (a >= 0.995 || a == 0) {
            return String.format(Locale.US, "%.2f", v);
        }
        BigDecimal two = new BigDecimal(v).round(new MathContext(2));
        return two.setScale(Math.max(2, two.scale()), RoundingMode.HALF_EVEN).toPlainString();
    }

    /** As {@link #num}, but whole numbers of a unit that counts things (count, B) keep no decimals. */
    static String num(Double v, String unit) {
        if (v != null && v == Math.rint(v) && ("count".equals(unit) || "B".equals(unit))) {
            return String.format(Locale.US, "%,.0f", v);
        }
        return num(v);
    }

    /** Two significant figures: 0.61, 1.2, 12, 120. */
    static String sig2(Double v) {
        if (v == null || !Double.isFinite(v)) {
            return NONE;
        }
        if (v == 0) {
            return "0";
        }
        return new BigDecimal(v).round(new MathContext(2)).toPlainString();
    }

    /** A short label for an axis tick: 0.5, 2, 20, 1,000. */
    static String tick(double v) {
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.US, "%,.0f", v);
        }
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** Text fit for a table cell: one line, pipes escaped; null becomes a dash. */
    static String cell(String s) {
        if (s == null || s.isBlank()) {
            return NONE;
        }
        return s.replace("\r", "").replace("\n", " ").replace("|", "\\|").trim();
    }

    /** Text as a markdown code span, whatever backticks it holds. */
    static String code(String s) {
        String one = s.replace("\r", "").replace("\n", " ");
        String fence = one.contains("`") ? "``" : "`";
        return fence + (one.startsWith("`") || one.endsWith("`") ? " " + one + " " : one) + fence;
    }
}

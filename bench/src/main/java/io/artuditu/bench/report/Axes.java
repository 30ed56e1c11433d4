package io.artuditu.bench.report;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.Tick;
import org.jfree.chart.axis.TickType;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;

/** The two axes JFreeChart lacks: a log axis with ticks between the powers of ten, and a "nines" axis. */
final class Axes {
    private Axes() {
    }

    /**
     * A log axis labelled at 1, 2, 5 × 10ⁿ (or every power of ten, or every digit, whichever gives
     * a readable handful of ticks over the range), each label followed by {@code suffix}.
     */
    static final class Log extends LogAxis {
        private static final long serialVersionUID = 1L;
        private final String suffix;

        Log(String label, String suffix) {
            super(label);
            this.suffix = suffix;
        }

        @Override
        public List<Tick> refreshTicks(Graphics2D g2, AxisState state, Rectangle2D dataArea, RectangleEdge edge) {
            List<Tick> ticks = new ArrayList<>();
            for (double v : values(getLowerBound(), getUpperBound())) {
                ticks.add(new NumberTick(TickType.MAJOR, v, Fmt.tick(v) + suffix, anchor(edge), TextAnchor.CENTER, 0.0));
            }
            return ticks;
        }

        static List<Double> values(double lo, double hi) {
            double[][] levels = {{1}, {1, 2, 5}, steps(1), steps(0.5), steps(0.1)};
            List<Double> out = new ArrayList<>();
            for (double[] mantissas : levels) {
                out = within(lo, hi, mantissas);
                if (out.size() >= 4) {
                    break;
                }
            }
            int step = (out.size() + 13) / 14;
            List<Double> thinned = new ArrayList<>();
            for (int i = 0; i < out.size(); i += Math.max(1, step)) {
                thinned.add(out.get(i));
            }
            return thinned;
        }

        private static List<Double> within(double lo, double hi, double[] mantissas) {
            List<Double> out = new ArrayList<>();
            int from = (int) Math.floor(Math.log10(lo)) - 1;
            int to = (int) Math.ceil(Math.log10(hi)) + 1;
            for (int e = from; e <= to; e++) {
                for (double m : mantissas) {
                    double v = Double.parseDouble(m + "E" + e);
                    if (v >= lo && v <= hi) {
                        out.add(v);
                    }
                }
            }
            return out;
        }

        /** Mantissas from 1 to below 10 in steps of {@code step}. */
        private static double[] steps(double step) {
            int n = (int) Math.round(9 / step);
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = Math.round((1 + i * step) * 10) / 10.0;
            }
            return out;
        }
    }

    /**
     * A percentile axis on which each nine takes the same width: the value plotted is
     * {@code -log10(1 - p/100)}, so 90 sits at 1, 99 at 2, 99.9 at 3; labelled in percent.
     */
    static final class Nines extends NumberAxis {
        private static final long serialVersionUID = 1L;
        private static final double[] LABELLED = {50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999};

        Nines(String label) {
            super(label);
        }

        static double position(double percentile) {
            return -Math.log10(1 - percentile / 100);
        }

        @Override
        public List<Tick> refreshTicks(Graphics2D g2, AxisState state, Rectangle2D dataArea, RectangleEdge edge) {
            List<Tick> ticks = new ArrayList<>();
            for (double p : LABELLED) {
                double x = position(p);
                if (getRange().contains(x)) {
                    ticks.add(new NumberTick(TickType.MAJOR, x, new BigDecimal(Double.toString(p)).stripTrailingZeros().toPlainString(), anchor(edge), TextAnchor.CENTER, 0.0));
                }
            }
            return ticks;
        }
    }

    private static TextAnchor anchor(RectangleEdge edge) {
        if (edge == RectangleEdge.TOP) {
            return TextAnchor.BOTTOM_CENTER;
        }
        if (edge == RectangleEdge.BOTTOM) {
            return TextAnchor.TOP_CENTER;
        }
        return edge == RectangleEdge.LEFT ? TextAnchor.CENTER_RIGHT : TextAnchor.CENTER_LEFT;
    }
}

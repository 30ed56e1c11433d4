package io.artuditu.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Stroke;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The page's two kinds of chart, drawn the same way: white, large type, fixed colours per side. */
final class Charts {
    static final Color ARTUDITU = new Color(0x1f, 0x77, 0xb4);
    static final Color TMUX = new Color(0xe6, 0x7e, 0x22);
    static final Color MET = new Color(0x2e, 0x9d, 0x3a);
    static final Color MISSED = new Color(0xd6, 0x27, 0x28);
    static final Color NO_TARGET = new Color(0x9e, 0x9e, 0x9e);
    static final Color GRID = new Color(0xdd, 0xdd, 0xdd);
    static final int WIDTH = 900;
    static final int HEIGHT = 450;
    private static final Stroke[] KIND_STROKES = {
        new BasicStroke(2.5f),
        new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {9f, 5f}, 0f),
        new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f, new float[] {1.5f, 5f}, 0f),
        new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {12f, 4f, 2f, 4f}, 0f),
    };

    /** A chart and the size to draw it at. */
    record Png(JFreeChart chart, int width, int height) {
        byte[] bytes() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ChartUtils.writeChartAsPNG(out, chart, width, height);
            return out.toByteArray();
        }
    }

    private Charts() {
    }

    /**
     * One horizontal bar per figure with a tmux value: how many times worse than tmux Artuditu is
     * (lower-better figures artuditu/tmux, higher-better tmux/artuditu), on a log axis, bars growing
     * from the 1× line, coloured by whether the figure's target was met. Null when no figure has both.
     */
    static Png againstTmux(List<Figure> figures) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        List<Paint> paints = new ArrayList<>();
        double lo = 1;
        double hi = 1;
        for (Figure f : figures) {
            Double v = f.timesWorse();
            if (v == null) {
                continue;
            }
            String label = f.title() + "  " + Fmt.sig2(v) + "×";
            if (data.getColumnKeys().contains(label)) {
                label += " (" + f.id() + ")";
            }
            data.addValue(v, "Artuditu / tmux", label);
            paints.add(!f.hasTarget() || f.met() == null ? NO_TARGET : f.met() ? MET : MISSED);
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        if (paints.isEmpty()) {
            return null;
        }
        CategoryAxis categories = new CategoryAxis(null);
        categories.setMaximumCategoryLabelWidthRatio(0.45f);
        categories.setMaximumCategoryLabelLines(2);
        categories.setCategoryMargin(0.35);
        Axes.Log times = new Axes.Log("times worse than tmux (log scale; left of 1×: Artuditu is better)", "×");
        times.setRange(lo / 1.4, hi * 1.4);
        ColouredBars bars = new ColouredBars(paints.toArray(new Paint[0]));
        bars.setBase(1);
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setDrawBarOutline(false);
        bars.setItemMargin(0);
        bars.setMaximumBarWidth(0.08);
        CategoryPlot plot = new CategoryPlot(data, categories, times, bars);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
        plot.addRangeMarker(new ValueMarker(1, Color.BLACK, new BasicStroke(1.5f)));
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(GRID);
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        plot.setOutlineVisible(false);
        LegendItemCollection legend = new LegendItemCollection();
        legend.add(new LegendItem("target met", MET));
        legend.add(new LegendItem("target missed", MISSED));
        legend.add(new LegendItem("no target", NO_TARGET));
        plot.setFixedLegendItems(legend);
        JFreeChart chart = new JFreeChart("Artuditu against tmux (medians)", font(18, true), plot, true);
        style(chart, categories, times);
        return new Png(chart, WIDTH, Math.max(HEIGHT, 110 + 40 * paints.size()));
    }

    /**
     * Value against percentile (nines axis, 50 up to the highest the sample count supports; log
     * values), one line per side and sample array, every run's samples pooled. Null without samples.
     */
    static Png distribution(String title, Samples samples) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, false);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        double right = Axes.Nines.position(90);
        for (Samples.Series s : samples.series) {
            XYSeries xy = new XYSeries(s.label() + String.format(Locale.US, " (n=%,d)", s.sorted().length), false, true);
            int n = s.sorted().length;
            double lastX = Double.NEGATIVE_INFINITY;
            for (int i = n / 2; i < n; i++) {
                double p = (i + 0.5) / n;
                double x = -Math.log10(1 - p);
                double v = s.sorted()[i];
                if (p < 0.5 || v <= 0 || (x - lastX < 0.003 && i < n - 1)) {
                    continue;
                }
                xy.add(x, v);
                lastX = x;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
                right = Math.max(right, x);
            }
            if (xy.getItemCount() == 0) {
                continue;
            }
            int index = data.getSeriesCount();
            data.addSeries(xy);
            lines.setSeriesPaint(index, s.side().equals("tmux") ? TMUX : ARTUDITU);
            lines.setSeriesStroke(index, KIND_STROKES[s.kindIndex() % KIND_STROKES.length]);
        }
        if (data.getSeriesCount() == 0) {
            return null;
        }
        Axes.Nines x = new Axes.Nines("percentile (%), each nine the same width");
        x.setRange(Axes.Nines.position(50), right);
        Axes.Log y = new Axes.Log(samples.unit + " (log scale)", "");
        y.setRange(lo / 1.15, hi * 1.15);
        XYPlot plot = new XYPlot(data, x, y, lines);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        plot.setDomainGridlineStroke(new BasicStroke(1f));
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        plot.setOutlineVisible(false);
        JFreeChart chart = new JFreeChart(title + ": all samples, pooled over runs", font(18, true), plot, true);
        style(chart, x, y);
        return new Png(chart, WIDTH, HEIGHT);
    }

    private static void style(JFreeChart chart, Axis... axes) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(8, 8, 8, 16));
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setItemFont(font(14, false));
            legend.setFrame(BlockBorder.NONE);
            legend.setBackgroundPaint(Color.WHITE);
        }
        for (Axis a : axes) {
            a.setLabelFont(font(14, false));
            a.setTickLabelFont(font(13, false));
            a.setTickLabelPaint(Color.DARK_GRAY);
            a.setLabelPaint(Color.DARK_GRAY);
        }
    }

    private static Font font(int size, boolean bold) {
        return new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, size);
    }

    /** Bars of one series, each with its own colour. */
    private static final class ColouredBars extends BarRenderer {
        private static final long serialVersionUID = 1L;
        private final Paint[] paints;

        ColouredBars(Paint[] paints) {
            this.paints = paints;
        }

        @Override
        public Paint getItemPaint(int row, int column) {
            return paints[column];
        }
    }
}

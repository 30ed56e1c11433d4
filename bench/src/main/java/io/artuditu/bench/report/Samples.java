package io.artuditu.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sample arrays of one scenario ({@code *samples_us}, {@code *samples_ms} under "artuditu" and
 * "tmux" in each run), pooled over all runs: one series per side and array name.
 */
final class Samples {
    static final String[] SIDES = {"artuditu", "tmux"};

    /**
     * One pooled array, sorted, in the set's unit. {@code kind} is the array's name without the
     * suffix ("" for plain {@code samples_us}, "idle" for {@code idle_samples_us}); {@code kindIndex}
     * numbers the kinds across both sides, so the same kind is drawn the same way on each.
     */
    record Series(String side, String kind, int kindIndex, double[] sorted) {
        String label() {
            return (side.equals("tmux") ? "tmux" : "Artuditu") + (kind.isEmpty() ? "" : " " + kind.replace('_', ' '));
        }

        /** Nearest rank: the smallest sample at or above p percent of them. */
        double percentile(double p) {
            int rank = (int) Math.ceil(p / 100 * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }
    }

    final String unit;
    final List<Series> series;

    private Samples(String unit, List<Series> series) {
        this.unit = unit;
        this.series = series;
    }

    boolean isEmpty() {
        return series.isEmpty();
    }

    /** The scenario's samples; milliseconds become microseconds when both units occur. */
    static Samples of(JsonNode scenario) {
        Map<String, List<Double>> pooled = new LinkedHashMap<>();
        Map<String, Boolean> inMs = new LinkedHashMap<>();
        List<String> kinds = new ArrayList<>();
        for (String side : SIDES) {
            for (JsonNode run : Json.list(scenario, "runs")) {
                JsonNode values = Json.obj(run, side);
                if (values == null || !values.isObject()) {
                    continue;
                }
                for (Map.Entry<String, JsonNode> e : values.properties()) {
                    String key = e.getKey();
                    boolean ms = key.endsWith("samples_ms");
                    if (!(ms || key.endsWith("samples_us")) || !e.getValue().isArray()) {
                        continue;
                    }
                    String kind = key.substring(0, key.length() - "samples_us".length()).replaceAll("_+$", "");
                    if (!kinds.contains(kind)) {
                        kinds.add(kind);
                    }
                    pooled.computeIfAbsent(side + "\n" + kind, k -> new ArrayList<>()).addAll(Json.numbers(e.getValue()));
                    inMs.merge(side + "\n" + kind, ms, (a, b) -> a && b);
                }
            }
        }
        boolean allMs = !inMs.isEmpty() && !inMs.containsValue(false);
        List<Series> series = new ArrayList<>();
        for (Map.Entry<String, List<Double>> e : pooled.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            double scale = inMs.get(e.getKey()) && !allMs ? 1000 : 1;
            double[] sorted = e.getValue().stream().mapToDouble(d -> d * scale).sorted().toArray();
            String[] sideKind = e.getKey().split("\n", -1);
            series.add(new Series(sideKind[0], sideKind[1], kinds.indexOf(sideKind[1]), sorted));
        }
        return new Samples(allMs ? "ms" : "µs", series);
    }
}

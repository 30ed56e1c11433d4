package io.artuditu.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** One entry of {@code figures}, read leniently: whatever is missing reads as absent. */
record Figure(String id, String scenario, String title, String unit, boolean higherBetter,
              Side artuditu, Side tmux, Double ratio, String targetText, boolean hasTarget, Boolean met) {

    /** One side's value over the runs; null fields when the file does not give them. */
    record Side(Double median, Double min, Double max) {
        static Side of(JsonNode node) {
            if (node == null) {
                return null;
            }
            List<Double> runs = new ArrayList<>(Json.numbers(Json.obj(node, "runs")));
            Collections.sort(runs);
            Double median = Json.num(node, "median");
            Double min = Json.num(node, "min");
            Double max = Json.num(node, "max");
            if (!runs.isEmpty()) {
                int n = runs.size();
                median = median != null ? median : (runs.get((n - 1) / 2) + runs.get(n / 2)) / 2;
                min = min != null ? min : runs.get(0);
                max = max != null ? max : runs.get(n - 1);
            }
            return median == null ? null : new Side(median, min, max);
        }

        /** "40.1 (39.5–41.0)", just "40.1" when the range is a single value. */
        String cell(String unit) {
            String m = Fmt.num(median, unit);
            if (min == null || max == null || Fmt.num(min, unit).equals(Fmt.num(max, unit))) {
                return m;
            }
            return m + " (" + Fmt.num(min, unit) + "–" + Fmt.num(max, unit) + ")";
        }
    }

    static Figure of(JsonNode f) {
        Side a = Side.of(Json.obj(f, "artuditu"));
        Side t = Side.of(Json.obj(f, "tmux"));
        Double ratio = Json.num(f, "ratio");
        if (ratio == null && a != null && t != null && t.median() != 0) {
            ratio = a.median() / t.median();
        }
        JsonNode target = Json.obj(f, "target");
        String id = Json.text(f, "id");
        String title = Json.text(f, "title");
        return new Figure(id, Json.text(f, "scenario"), title != null ? title : id, Json.text(f, "unit"),
                "higher".equals(Json.text(f, "better")), a, t, ratio,
                Json.text(target, "text"), target != null, Json.bool(f, "met"));
    }

    /** How many times worse than tmux Artuditu is (below 1: better), or null without both medians. */
    Double timesWorse() {
        if (artuditu == null || tmux == null || artuditu.median() <= 0 || tmux.median() <= 0) {
            return null;
        }
        return higherBetter ? tmux.median() / artuditu.median() : artuditu.median() / tmux.median();
    }

    String metCell() {
        return met == null ? Fmt.NONE : met ? "**yes**" : "**no**";
    }
}

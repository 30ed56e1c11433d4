package io.artuditu.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.vt.TerminalMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pane.list's scrollback fields and counters, with and without the terminal bundle's TerminalMetrics. */
class PaneMetricsTest {
    static final List<String> HISTORY = List.of("scroll_offset", "history_rows", "history_budget_bytes", "history_bytes",
            "history_exact");

    @TempDir
    Path dir;
    Harness h;

    @BeforeEach
    void twoPanes() throws Exception {
        h = new Harness();
        Files.createDirectory(dir.resolve("api"));
        h.call("workspace.open", "{\"cwd\":\"" + dir.resolve("api") + "\"}");
        h.call("pane.split", "{\"direction\":\"right\"}");
    }

    /** Counter maps holding every name the contract requires, valued 7. */
    static Map<String, Long> counters(String field) {
        Map<String, Long> m = new LinkedHashMap<>();
        FamilyContract.load(PaneTopologyFamily.class, "protocol/uhp/v1/panes.json").document().at("/methods/pane.list/result/properties/" + field + "/required")
                .forEach(n -> m.put(n.asText(), 7L));
        return m;
    }

    @Test
    void withoutTheTerminalBundleEveryMetricIsNullAndTheResultKeepsItsShape() {
        ObjectNode list = h.read("pane.list", "{}"); // the harness checks the result schema
        for (JsonNode row : list.get("panes")) {
            for (String f : HISTORY) {
                assertTrue(row.get(f).isNull(), f);
            }
        }
        for (String f : List.of("render_performance", "detection_performance", "detection_extractions", "detection_skips")) {
            assertTrue(list.get(f).isNull(), f);
        }
    }

    @Test
    void withItRowsCarryTheirTerminalsHistoryAndTheResultTheCounters() {
        ObjectNode first = h.read("pane.list", "{}");
        String live = first.at("/panes/0/terminal_id").asText();
        Map<String, Long> render = counters("render_performance");
        Map<String, Long> detection = counters("detection_performance");
        detection.put("detection_extractions", 11L);
        detection.put("detection_skips", 12L);
        PaneTopologyFamily family = new PaneTopologyFamily(h.model);
        family.metrics = new TerminalMetrics() {
            @Override
            public Optional<History> history(String terminalId) {
                return terminalId.equals(live) ? Optional.of(new History(420, 1830, 10485760, 7340032, false))
                        : Optional.empty();
            }

            @Override
            public Map<String, Long> renderPerformance() {
                return render;
            }

            @Override
            public Map<String, Long> detectionPerformance() {
                return detection;
            }
        };
        UhpMethod list = family.methods().stream().filter(m -> m.name().equals("pane.list")).findFirst().orElseThrow();
        h.model.methods.put("pane.list", list);

        ObjectNode r = h.read("pane.list", "{}");
        JsonNode row = r.at("/panes/0");
        assertEquals(420, row.get("scroll_offset").intValue());
        assertEquals(1830, row.get("history_rows").intValue());
        assertEquals(10485760, row.get("history_budget_bytes").longValue());
        assertEquals(7340032, row.get("history_bytes").longValue());
        assertEquals(false, row.get("history_exact").booleanValue());
        for (String f : HISTORY) {
            assertTrue(r.at("/panes/1/" + f).isNull(), "a terminal without a live screen: " + f);
        }
        assertEquals(render.keySet(), fieldNames(r.get("render_performance")));
        r.get("render_performance").forEach(v -> assertTrue(v.isIntegralNumber()));
        assertEquals(11, r.at("/detection_performance/detection_extractions").longValue());
        assertEquals(11, r.get("detection_extractions").longValue(), "the compatibility copy");
        assertEquals(12, r.get("detection_skips").longValue());
    }

    static java.util.Set<String> fieldNames(JsonNode o) {
        java.util.Set<String> s = new java.util.LinkedHashSet<>();
        o.fieldNames().forEachRemaining(s::add);
        return s;
    }
}

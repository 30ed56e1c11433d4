package io.artuditu.topology.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.api.AgentStates;
import io.artuditu.vt.TerminalMetrics;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code pane.list} adds from the terminal bundle's {@link TerminalMetrics}: each row's
 * scrollback fields and the result's {@code render_performance} and
 * {@code detection_performance} (plus the compatibility copies {@code detection_extractions}
 * and {@code detection_skips}). Without the service (the terminal bundle stopped or being
 * updated) every one of them is null, so the result keeps its shape. While the agents family
 * runs, {@code detection_performance} also carries its detector's counters ({@link AgentStates#counters}).
 */
final class PaneMetrics {
    private PaneMetrics() {
    }

    /** Adds the fields to a {@code pane_list} result; {@code metrics} may be null. Returns {@code list}. */
    static ObjectNode add(ObjectNode list, TerminalMetrics metrics, AgentStates agents) {
        for (JsonNode row : list.path("panes")) {
            String terminal = row.path("terminal_id").textValue();
            Optional<TerminalMetrics.History> h = metrics == null || terminal == null ? Optional.empty()
                    : metrics.history(terminal);
            ObjectNode o = (ObjectNode) row;
            if (h.isPresent()) {
                TerminalMetrics.History x = h.get();
                o.put("scroll_offset", x.scrollOffset()).put("history_rows", x.rows())
                        .put("history_budget_bytes", x.budgetBytes()).put("history_bytes", x.bytes())
                        .put("history_exact", x.exact());
            } else {
                o.putNull("scroll_offset").putNull("history_rows").putNull("history_budget_bytes")
                        .putNull("history_bytes").putNull("history_exact");
            }
        }
        Map<String, Long> detection = metrics == null ? null : metrics.detectionPerformance();
        if (detection != null && agents != null) {
            // the agent detector's own work (screens evaluated, rows read, …) beside the process scan's
            detection = new java.util.LinkedHashMap<>(detection);
            detection.putAll(agents.counters());
        }
        counters(list, "render_performance", metrics == null ? null : metrics.renderPerformance());
        counters(list, "detection_performance", detection);
        for (String compat : new String[] {"detection_extractions", "detection_skips"}) {
            Long v = detection == null ? null : detection.get(compat);
            if (v == null) {
                list.putNull(compat);
            } else {
                list.put(compat, v);
            }
        }
        return list;
    }

    private static void counters(ObjectNode list, String field, Map<String, Long> values) {
        if (values == null) {
            list.putNull(field);
            return;
        }
        ObjectNode o = list.putObject(field);
        values.forEach(o::put);
    }
}

package io.artuditu.terminal.internal.pane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.terminal.internal.Screens;
import io.artuditu.uhp.api.schema.JsonSchema;
import org.junit.jupiter.api.Test;

/** The pane table keeps the placeholder's keys, schema and defaults, and they agree with Screens. */
class PaneConfigTest {
    private final PaneConfig section = new PaneConfig(null);
    private final JsonSchema schema = JsonSchema.compile(section.schema());

    @Test
    void defaultsAreValidAndMatchTheScreensDefaults() throws Exception {
        assertEquals("pane", section.name());
        ObjectNode d = section.defaults();
        assertTrue(schema.validate(d, "pane").isEmpty());
        assertEquals(Screens.DEFAULT_HISTORY_BUDGET, d.get("history_budget_bytes").asLong());
        assertEquals(Screens.DEFAULT_TOTAL_HISTORY_BUDGET, d.get("total_history_budget_bytes").asLong());
        assertEquals(new ObjectMapper().readTree("{\"history_budget_bytes\":10485760,\"total_history_budget_bytes\":536870912}"), d);
    }

    @Test
    void theSchemaRefusesUnknownKeysAndOutOfRangeValues() throws Exception {
        ObjectMapper m = new ObjectMapper();
        for (String bad : new String[] {"{\"history_budget_bytes\":65535}", "{\"history_budget_bytes\":1073741825}",
                "{\"total_history_budget_bytes\":1048575}", "{\"history_budget_bytes\":\"10M\"}", "{\"budget\":1}"}) {
            assertTrue(schema.validate(m.readTree(bad), "pane").isPresent(), bad);
        }
        assertTrue(schema.validate(m.readTree("{\"history_budget_bytes\":65536}"), "pane").isEmpty());
    }

    @Test
    void sectionCopiesAreTheCallersOwn() {
        section.defaults().put("history_budget_bytes", 1);
        assertEquals(10485760, section.defaults().get("history_budget_bytes").asLong());
    }
}

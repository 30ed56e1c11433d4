package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract covers the runtime: every method the server offers is described, with its
 * scope; nothing installed failed; what {@code artu uhp schema} prints is the contract the
 * family bundles carry, methods and events.
 */
class ContractTest {
    @TempDir
    Path home;

    @Test
    void everyRegisteredMethodHasASchemaAndTheContractsScope() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode caps = Wire.call(s.socket, "uhp.capabilities", "{}").get("result");
            List<String> missing = new ArrayList<>();
            Set<String> families = new TreeSet<>();
            for (JsonNode m : caps.get("methods")) {
                String name = m.get("name").asText();
                families.add(m.get("family").asText());
                if (!Installed.CONTRACT.describes(name)) {
                    missing.add(name);
                    continue;
                }
                assertEquals(Installed.CONTRACT.method(name).scope().wire(), m.get("scope").asText(), name);
            }
            assertEquals(List.of(), missing, "registered methods without a row in their bundle's contract");
            assertEquals(Installed.CONTRACT.methods().size(), caps.get("methods").size(),
                    "every method the contract describes is served");
            assertEquals("[]", caps.get("failures").toString(), "every built-in family offers its whole contract");
            families.add("model"); // the model core's contract declares its events and no method
            Installed.CONTRACT.events().values().forEach(e -> assertTrue(families.contains(e.family()), e.name()));
            assertEquals(List.of(), Installed.CONTRACT.problems());
        }
    }

    @Test
    void theSchemaTheCliPrintsIsTheInstalledContractWithItsEvents() throws Exception {
        Cli.Result r = Cli.run(Map.of("ARTUDITU_HOME", home.toString()), "uhp", "schema");
        assertEquals(0, r.status(), r.err());
        JsonNode printed = Wire.M.readTree(r.out());
        assertEquals(Installed.CONTRACT.document(), printed);
        // workspace.created and pane.closed are the model's own events, declared by its contract
        for (String[] e : new String[][] {{"terminal.output", "terminal"}, {"workspace.created", "model"},
                {"pane.closed", "model"}, {"config.changed", "config"}, {"events.resync_required", "events"}}) {
            assertEquals(e[1], printed.at("/events/" + e[0] + "/family").asText(), e[0]);
            assertTrue(printed.at("/events/" + e[0] + "/data").isObject(), e[0]);
        }
    }
}

package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.schema.UhpContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract covers the runtime: every method the server offers is described, with its scope. */
class ContractTest {
    @TempDir
    Path home;

    @Test
    void everyRegisteredMethodHasASchemaAndTheContractsScope() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode caps = Wire.call(s.socket, "uhp.capabilities", "{}").get("result");
            List<String> missing = new ArrayList<>();
            for (JsonNode m : caps.get("methods")) {
                String name = m.get("name").asText();
                if (!UhpContract.standard().describes(name)) {
                    missing.add(name);
                    continue;
                }
                assertEquals(UhpContract.standard().method(name).scope().wire(), m.get("scope").asText(), name);
            }
            assertEquals(List.of(), missing, "registered methods without a schema in protocol/uhp/v1");
            assertTrue(caps.get("methods").size() >= 4);
        }
    }

    @Test
    void theSchemaTheCliPrintsIsTheInstalledContract() throws Exception {
        Cli.Result r = Cli.run(Map.of("ARTUDITU_HOME", home.toString()), "uhp", "schema");
        assertEquals(0, r.status(), r.err());
        assertEquals(UhpContract.standard().document(), Wire.M.readTree(r.out()));
    }
}

package io.artuditu.terminal.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.MethodContract;
import io.artuditu.uhp.api.schema.UhpContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** terminal.json (in this bundle): the 17 methods with the brief's scopes, and stream and event schemas that compile. */
class ContractTest {
    private static final UhpContract C = UhpContract.assemble(UhpContract.envelope(), List.of(TerminalFamily.CONTRACT));
    private static final Set<String> READ = Set.of("inventory", "snapshot", "validate", "processes", "capture", "observe",
            "wait_change", "wait_output", "events.subscribe");

    private static List<String> terminalMethods() {
        List<String> out = new ArrayList<>();
        C.methods().keySet().stream().filter(n -> n.startsWith("terminal.backend.")).forEach(out::add);
        return out;
    }

    @Test
    void seventeenMethodsWithReadOrTerminalScope() {
        List<String> names = terminalMethods();
        assertEquals(17, names.size(), names.toString());
        for (String n : names) {
            MethodContract m = C.method(n);
            assertEquals("terminal", m.family());
            assertEquals(READ.contains(n.substring("terminal.backend.".length())) ? Scope.READ : Scope.TERMINAL, m.scope(), n);
        }
        assertTrue(C.method("terminal.backend.create").mutates());
        assertFalse(C.method("terminal.backend.close").mutates(), "close waits: it must not hold the state lock");
        assertTrue(C.method("terminal.backend.close").revision());
    }

    @Test
    void everyParamsSchemaIsClosedAndEveryIdentityIsRequired() {
        for (String n : terminalMethods()) {
            JsonNode m = C.document().at("/methods/" + n.replace("/", "~1"));
            assertEquals(false, m.at("/params/additionalProperties").asBoolean(true), n);
            assertEquals(false, m.at("/result/additionalProperties").asBoolean(true), n);
            boolean needsId = !Set.of("terminal.backend.inventory", "terminal.backend.create",
                    "terminal.backend.events.subscribe").contains(n);
            Set<String> req = new TreeSet<>();
            m.at("/params/required").forEach(r -> req.add(r.asText()));
            assertEquals(needsId, req.contains("terminal_id"), n + " requires terminal_id");
        }
    }

    @Test
    void streamSchemasCompileAndSeparateGoodLinesFromBad() throws Exception {
        JsonSchema client = JsonSchema.compile(C.document().at("/methods/terminal.backend.control/stream/client_line"));
        assertTrue(client.validate(Lines.MAPPER.readTree("{\"id\":\"1\",\"send_key\":\"ctrl+c\",\"repeat\":3}"), "l").isEmpty());
        assertTrue(client.validate(Lines.MAPPER.readTree("{\"resize\":{\"cols\":10,\"rows\":5}}"), "l").isEmpty());
        assertTrue(client.validate(Lines.MAPPER.readTree("{\"type_literal\":\"a\",\"send_key\":\"b\"}"), "l").isPresent());
        assertTrue(client.validate(Lines.MAPPER.readTree("{\"submit_text\":\"a\",\"extra\":1}"), "l").isPresent());
        JsonSchema server = JsonSchema.compile(C.document().at("/methods/terminal.backend.control/stream/server_line"));
        assertTrue(server.validate(Lines.MAPPER.readTree("{\"type\":\"control_ack\",\"action\":\"resize\",\"revision\":3}"), "l").isEmpty());
        assertTrue(server.validate(Lines.MAPPER.readTree(
                "{\"type\":\"terminal_exited\",\"terminal_id\":\"term-abcdef-1\",\"exit_status\":0,\"exited_at_ms\":1}"), "l").isEmpty());
        JsonSchema.compile(C.document().at("/methods/terminal.backend.observe/stream/server_line"));
        assertEquals(ControlLines.ACTIONS.size(), C.document().at("/methods/terminal.backend.control/stream/client_line/oneOf").size());
    }

    @Test
    void theEventsListedInTheContractAreTheOnesPublished() {
        assertEquals(List.of(), TerminalFamily.CONTRACT.problems());
        assertEquals(new TreeSet<>(TerminalEvents.NAMES), new TreeSet<>(TerminalFamily.CONTRACT.events().keySet()));
        TerminalFamily.CONTRACT.events().values().forEach(e -> assertFalse(e.description().isEmpty(), e.name()));
        JsonSchema note = TerminalFamily.CONTRACT.events().get("terminal.notification").data();
        assertTrue(note.validate(TerminalEvents.notification("term-abcdef-1", null, "", "hi", "api"), "d").isEmpty());
    }
}

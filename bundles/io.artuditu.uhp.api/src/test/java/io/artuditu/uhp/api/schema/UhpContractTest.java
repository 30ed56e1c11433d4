package io.artuditu.uhp.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class UhpContractTest {
    private final UhpContract contract = UhpContract.standard();

    @Test
    void describesTheDiscoveryMethods() {
        MethodContract ping = contract.method("ping");
        assertEquals(Scope.READ, ping.scope());
        assertEquals("discovery", ping.family());
        assertEquals(Scope.ADMIN, contract.method("server.stop").scope());
        assertTrue(contract.describes("uhp.capabilities"));
        assertFalse(contract.describes("no.such"));
    }

    @Test
    void theDocumentHoldsEnvelopeAndEveryMethod() {
        JsonNode doc = contract.document();
        assertEquals("1.0", doc.path("uhp").asText());
        assertTrue(doc.path("envelope").has("request"));
        assertEquals(contract.methods().keySet(), iterable(doc.path("methods")));
    }

    @Test
    void theReplyEnvelopeListsExactlyTheErrorCodes() {
        Set<String> inSchema = new HashSet<>();
        contract.document().at("/envelope/reply/properties/error/properties/code/enum").forEach(n -> inSchema.add(n.asText()));
        assertEquals(Arrays.stream(ErrorCode.values()).map(ErrorCode::wire).collect(Collectors.toSet()), inSchema);
    }

    @Test
    void theReplyEnvelopeValidatesResultsAndErrors() throws Exception {
        JsonSchema reply = JsonSchema.compile(contract.document().at("/envelope/reply"));
        ObjectMapper m = new ObjectMapper();
        assertTrue(reply.validate(m.readTree("{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}"), "r").isEmpty());
        assertTrue(reply.validate(m.readTree("{\"id\":null,\"error\":{\"code\":\"timeout\",\"message\":\"x\"}}"), "r").isEmpty());
        assertTrue(reply.validate(m.readTree("{\"id\":\"1\"}"), "r").isPresent());
        assertTrue(reply.validate(m.readTree("{\"id\":\"1\",\"error\":{\"code\":\"nope\",\"message\":\"x\"}}"), "r").isPresent());
    }

    private static Set<String> iterable(JsonNode n) {
        Set<String> s = new HashSet<>();
        n.fieldNames().forEachRemaining(s::add);
        return s;
    }
}

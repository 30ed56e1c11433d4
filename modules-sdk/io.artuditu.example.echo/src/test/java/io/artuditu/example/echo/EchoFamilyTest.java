package io.artuditu.example.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.platform.BasicCall;
import org.junit.jupiter.api.Test;

class EchoFamilyTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void echoesAndItsSchemasHold() {
        UhpMethod m = new EchoFamily().methods().get(0);
        ObjectNode params = M.createObjectNode().put("text", "hi").put("upper", true);
        assertTrue(m.paramsSchema().validate(params, "params").isEmpty());
        ObjectNode r = m.handler().handle(BasicCall.of("example.echo", params));
        assertEquals("HI", r.get("text").asText());
        assertTrue(m.resultSchema().validate(r, "result").isEmpty());
        assertTrue(m.paramsSchema().validate(M.createObjectNode().put("text", 3), "params").isPresent());
    }
}

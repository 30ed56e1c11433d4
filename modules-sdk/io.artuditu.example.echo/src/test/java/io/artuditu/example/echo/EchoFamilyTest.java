package io.artuditu.example.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.List;
import org.junit.jupiter.api.Test;

class EchoFamilyTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void echoesAndItsSchemasHold() {
        EchoFamily family = new EchoFamily();
        assertEquals(List.of(), family.problems(), "the contract file and the route table agree");
        assertEquals("example", family.family());
        UhpMethod m = family.methods().get(0);
        assertEquals("example.echo", m.name());
        assertEquals(Scope.READ, m.scope());
        ObjectNode params = M.createObjectNode().put("text", "hi").put("upper", true);
        assertTrue(m.paramsSchema().validate(params, "params").isEmpty());
        ObjectNode r = m.handler().handle(new TestCall("example.echo", params));
        assertEquals("HI", r.get("text").asText());
        assertTrue(m.resultSchema().validate(r, "result").isEmpty());
        assertTrue(m.paramsSchema().validate(M.createObjectNode().put("text", 3), "params").isPresent());
    }

    @Test
    void publishIsAMutatingMethodByItsContract() {
        FamilyContract c = FamilyContract.load(PublishFamily.class, "protocol/example.publish.json");
        assertEquals(List.of(), c.problems());
        assertTrue(c.method("example.publish").orElseThrow().mutates());
        assertEquals(Scope.EXTENSIONS, c.method("example.publish").orElseThrow().scope());
    }
}

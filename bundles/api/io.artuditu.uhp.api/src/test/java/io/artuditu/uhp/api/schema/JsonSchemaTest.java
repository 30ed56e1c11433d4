package io.artuditu.uhp.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonSchemaTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static JsonNode j(String s) throws Exception {
        return M.readTree(s);
    }

    private final JsonSchema schema = JsonSchema.compile(j("""
            {"type":"object","required":["name"],"additionalProperties":false,
             "properties":{
               "name":{"type":"string","minLength":1,"maxLength":4},
               "n":{"type":"integer","minimum":1,"maximum":10},
               "mode":{"enum":["a","b"]},
               "tags":{"type":"array","maxItems":2,"items":{"type":"string","pattern":"[a-z]+"}},
               "ref":{"type":["integer","string"]}}}
            """));

    JsonSchemaTest() throws Exception {
    }

    private String problem(String json) throws Exception {
        return schema.validate(j(json), "params").map(JsonSchema.Violation::toString).orElse("valid");
    }

    @Test
    void acceptsAConformingValue() throws Exception {
        assertEquals("valid", problem("{\"name\":\"ab\",\"n\":3,\"mode\":\"a\",\"tags\":[\"x\"],\"ref\":7}"));
        assertEquals("valid", problem("{\"name\":\"ab\",\"n\":3.0,\"ref\":\"x\"}"));
    }

    @Test
    void namesTheFieldAndTheProblem() throws Exception {
        assertEquals("params.name: is required", problem("{}"));
        assertEquals("params.n: expected integer, got string", problem("{\"name\":\"a\",\"n\":\"3\"}"));
        assertEquals("params.n: expected integer, got number", problem("{\"name\":\"a\",\"n\":1.5}"));
        assertEquals("params.n: must be at most 10", problem("{\"name\":\"a\",\"n\":11}"));
        assertEquals("params.extra: is not a known field", problem("{\"name\":\"a\",\"extra\":1}"));
        assertEquals("params.mode: must be one of [\"a\", \"b\"]", problem("{\"name\":\"a\",\"mode\":\"c\"}"));
        assertEquals("params.tags[1]: must match [a-z]+", problem("{\"name\":\"a\",\"tags\":[\"a\",\"B\"]}"));
        assertEquals("params.tags: must have at most 2 items", problem("{\"name\":\"a\",\"tags\":[\"a\",\"b\",\"c\"]}"));
        assertEquals("params.ref: expected integer or string, got boolean", problem("{\"name\":\"a\",\"ref\":true}"));
        assertEquals("params: expected object, got array", problem("[]"));
    }

    @Test
    void countsLengthsInUtf8Bytes() throws Exception {
        assertEquals("valid", problem("{\"name\":\"éé\"}"));
        assertEquals("params.name: must be at most 4 bytes", problem("{\"name\":\"ééé\"}"));
    }

    @Test
    void refusesKeywordsItDoesNotEnforce() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JsonSchema.compile(j("{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/x\"}}}")));
        assertTrue(e.getMessage().contains("'$ref'"), e.getMessage());
    }
}

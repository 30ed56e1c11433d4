package io.artuditu.uhp.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
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

    /**
     * Values a JSON reader can produce but no JSON number means (infinities, NaN) and
     * integers past 64 bits are violations, whatever the schema says, never an exception.
     */
    @Test
    void numbersBeyondRangeAreViolationsNeverExceptions() throws Exception {
        List<JsonNode> values = List.of(j("1e309"), j("-1e309"), DoubleNode.valueOf(Double.NaN),
                j("123456789012345678901234567890"), j("-9223372036854775809"), j("1e300"),
                DecimalNode.valueOf(new BigDecimal("1E+999999999")), DecimalNode.valueOf(new BigDecimal("-1E+400")));
        List<String> schemas = List.of("{}", "{\"type\":\"string\"}", "{\"type\":\"integer\"}",
                "{\"type\":\"number\"}", "{\"type\":[\"integer\",\"string\"]}",
                "{\"type\":\"integer\",\"minimum\":0,\"maximum\":8}", "{\"minimum\":0}", "{\"maximum\":0}",
                "{\"enum\":[1,2]}");
        for (String s : schemas) {
            JsonSchema schema = JsonSchema.compile(j(s));
            for (JsonNode v : values) {
                Optional<JsonSchema.Violation> bad = schema.validate(v, "params.x");
                assertTrue(bad.isPresent(), s + " took " + v);
                assertEquals("params.x", bad.get().path(), s + " " + v);
                assertTrue(bad.get().problem().contains("out of range") || bad.get().problem().contains("finite"),
                        s + " " + v + ": " + bad.get());
            }
        }
    }

    @Test
    void anIntegerIsANumberWithNoFractionWithinSixtyFourBitsHoweverItIsSpelt() throws Exception {
        JsonSchema integer = JsonSchema.compile(j("{\"type\":\"integer\",\"minimum\":0}"));
        for (JsonNode v : List.of(j("0"), j("-0"), j("-0.0"), j("1.0"), j("1e2"), j("9223372036854775807"),
                DecimalNode.valueOf(new BigDecimal("1E+18")), DecimalNode.valueOf(new BigDecimal("100E-2")))) {
            assertEquals(Optional.empty(), integer.validate(v, "n"), v.toString());
        }
        assertEquals("n: expected integer, got number", integer.validate(j("1.5"), "n").map(Object::toString).orElse(""));
        assertEquals("n: expected integer, got number",
                integer.validate(DecimalNode.valueOf(new BigDecimal("1E-400")), "n").map(Object::toString).orElse(""));
        assertEquals("n: must be at least 0", integer.validate(j("-1"), "n").map(Object::toString).orElse(""));
        assertEquals(Optional.empty(), JsonSchema.compile(j("{\"type\":\"integer\"}"))
                .validate(j("-9223372036854775808"), "n"));
    }
    /** A whole document's keys are named bare, from its top: the TOML files' wording. */
    @Test
    void anEmptyRootNamesADocumentsKeysBare() throws Exception {
        assertEquals("name: is required", schema.validate(j("{}"), "").map(Object::toString).orElse("valid"));
        JsonSchema.Violation v = schema.validate(j("{\"name\":\"a\",\"tags\":[\"a\",\"B\"]}"), "").orElseThrow();
        assertEquals("tags[1]", v.path());
        assertEquals("tags[1]: must match [a-z]+", v.toString());
        assertEquals("extra: is not a known field", schema.validate(j("{\"name\":\"a\",\"extra\":1}"), "")
                .map(Object::toString).orElse("valid"));
        JsonSchema nested = JsonSchema.compile(j("""
                {"type":"object","properties":{"t":{"type":"object","required":["k"],
                  "properties":{"k":{"type":"integer","maximum":3}}}}}"""));
        JsonSchema.Violation deep = nested.validate(j("{\"t\":{\"k\":4}}"), "").orElseThrow();
        assertEquals("t.k", deep.path());
        assertEquals("k", deep.field());
        assertEquals("t.k: is required", nested.validate(j("{\"t\":{}}"), "").map(Object::toString).orElse("valid"));
    }

    /** A table keyed by names the user chooses: the names have a rule and the table a size. */
    @Test
    void propertyNamesAndMaxPropertiesBoundATableOfChosenKeys() throws Exception {
        JsonSchema hooks = JsonSchema.compile(j("""
                {"type":"object","maxProperties":2,
                 "propertyNames":{"pattern":"^[A-Za-z][A-Za-z.]{0,7}$"},
                 "additionalProperties":{"enum":["idle","done"]}}"""));
        assertEquals(Optional.empty(), hooks.validate(j("{\"Stop\":\"done\",\"turn.end\":\"idle\"}"), "hooks"));
        assertEquals("hooks.bad event: name must match ^[A-Za-z][A-Za-z.]{0,7}$",
                hooks.validate(j("{\"bad event\":\"done\"}"), "hooks").map(Object::toString).orElse("valid"));
        assertEquals("hooks.Stop: must be one of [\"idle\", \"done\"]",
                hooks.validate(j("{\"Stop\":\"finished\"}"), "hooks").map(Object::toString).orElse("valid"));
        assertEquals("hooks: must have at most 2 fields",
                hooks.validate(j("{\"A\":\"done\",\"B\":\"done\",\"C\":\"done\"}"), "hooks")
                        .map(Object::toString).orElse("valid"));
        JsonSchema.Violation named = JsonSchema.compile(j("{\"propertyNames\":{\"maxLength\":3}}"))
                .validate(j("{\"abcd\":1}"), "").orElseThrow();
        assertEquals("abcd", named.path());
        assertEquals("name must be at most 3 bytes", named.problem());
        assertThrows(IllegalArgumentException.class, () -> JsonSchema.compile(j("{\"propertyNames\":{\"$ref\":\"#\"}}")),
                "the names' schema is held to the same keywords");
    }
}

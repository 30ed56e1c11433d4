package io.artuditu.uhp.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FamilyContractTest {
    private static final MethodHandler OK = call -> JsonNodeFactory.instance.objectNode().put("type", "ok");

    private static Map<String, String> byMethod(List<FamilyContract.Problem> problems) {
        return problems.stream().filter(p -> p.method() != null)
                .collect(Collectors.toMap(FamilyContract.Problem::method, FamilyContract.Problem::reason, (a, b) -> a + "; " + b,
                        TreeMap::new));
    }

    @Test
    void readsMethodsWithTheirRowsAndEvents() {
        FamilyContract c = FamilyContract.load(FamilyContractTest.class, "contracts/good.json");
        assertEquals(List.of(), c.problems());
        assertEquals("sample", c.family());
        assertEquals("contracts/good.json", c.source());
        assertEquals(List.of("sample.read", "sample.write"), List.copyOf(c.methods().keySet()));
        MethodContract read = c.method("sample.read").orElseThrow();
        assertEquals(Scope.READ, read.scope());
        assertEquals("sample", read.family());
        assertEquals(TargetSpec.Kind.PANE, read.target().kind());
        assertEquals(List.of("pane"), read.cli().positionals());
        assertFalse(read.mutates());
        MethodContract write = c.method("sample.write").orElseThrow();
        assertTrue(write.mutates() && write.revision(), "mutates implies the revision");
        assertTrue(c.method("sample.none").isEmpty());
        FamilyContract.EventContract e = c.events().get("sample.happened");
        assertEquals("Something happened.", e.description());
        assertEquals("sample", e.family());
        assertTrue(e.data().validate(JsonNodeFactory.instance.objectNode(), "data").isPresent());
        assertEquals("sample", c.document().path("family").asText());
        assertTrue(c.routes().isEmpty(), "an unbound contract has no route table");
    }

    @Test
    void aBadRowIsLeftOutAndListedNeverThrown() {
        FamilyContract c = FamilyContract.load(FamilyContractTest.class, "contracts/broken.json");
        assertEquals(List.of("broken.ok"), List.copyOf(c.methods().keySet()));
        Map<String, String> p = byMethod(c.problems());
        assertEquals(List.of("Bad.Name", "broken.cli", "broken.no_result", "broken.no_scope", "broken.schema", "broken.scope",
                "broken.target"), List.copyOf(p.keySet()));
        assertEquals("no scope", p.get("broken.no_scope"));
        assertTrue(p.get("broken.schema").contains("params schema does not compile")
                && p.get("broken.schema").contains("patternProperties"), p.get("broken.schema"));
        assertTrue(p.get("broken.scope").contains("unknown scope"), p.get("broken.scope"));
        assertTrue(p.get("broken.target").startsWith("bad target: target field pane_id is not a param"), p.get("broken.target"));
        assertTrue(p.get("broken.cli").startsWith("bad cli block: cli positional nope is not a param"), p.get("broken.cli"));
        assertEquals("no result schema", p.get("broken.no_result"));
        assertTrue(p.get("Bad.Name").contains("grammar"));
        assertEquals(List.of("broken.fine"), List.copyOf(c.events().keySet()));
        Map<String, String> events = c.problems().stream().filter(x -> x.event() != null)
                .collect(Collectors.toMap(FamilyContract.Problem::event, FamilyContract.Problem::reason));
        assertEquals(2, events.size(), events.toString());
        assertTrue(events.get("broken.bad_data").contains("data schema does not compile"), events.toString());
        assertTrue(events.get("nodots").contains("event grammar"), events.toString());
    }

    @Test
    void aMissingOrUnreadableFileIsAContractWithOneProblem() {
        FamilyContract missing = FamilyContract.load(FamilyContractTest.class, "contracts/none.json");
        assertTrue(missing.methods().isEmpty());
        assertEquals(1, missing.problems().size());
        assertNullMethod(missing.problems().get(0));
        assertTrue(missing.problems().get(0).reason().contains("missing"));
        for (String f : new String[] {"contracts/duplicate.json", "contracts/truncated.json"}) {
            FamilyContract bad = FamilyContract.load(FamilyContractTest.class, f);
            assertTrue(bad.methods().isEmpty(), f);
            assertEquals(1, bad.problems().size(), f);
            assertTrue(bad.problems().get(0).reason().contains("not JSON"), bad.problems().toString());
        }
        FamilyContract noFamily = FamilyContract.read("x.json",
                new ByteArrayInputStream("{\"methods\":{}}".getBytes(StandardCharsets.UTF_8)));
        assertTrue(noFamily.problems().get(0).reason().contains("names no family"), noFamily.problems().toString());
    }

    private static void assertNullMethod(FamilyContract.Problem p) {
        assertEquals(null, p.method());
        assertEquals(null, p.event());
    }

    @Test
    void bindingBuildsTheRouteTableAndListsWhatDoesNotMatch() {
        FamilyContract c = FamilyContract.load(FamilyContractTest.class, "contracts/good.json")
                .route("sample.write", OK)
                .route("sample.absent", OK)
                .route("sample.write", OK)
                .bind();
        List<UhpMethod> routes = c.routes();
        assertEquals(1, routes.size());
        UhpMethod w = routes.get(0);
        assertEquals("sample.write", w.name());
        assertEquals(Scope.WORKSPACE, w.scope());
        assertTrue(w.mutates() && w.carriesRevision(), "the row's mutates makes the method mutating");
        Map<String, String> p = byMethod(c.problems());
        assertEquals("no contract for sample.absent in contracts/good.json", p.get("sample.absent"));
        assertEquals("contract row without a handler", p.get("sample.read"));
        assertEquals("routed twice; the first route is kept", p.get("sample.write"));
    }

    @Test
    void aRouteToARowLeftOutAddsNoSecondProblemAndAFailingFactoryIsOne() {
        FamilyContract c = FamilyContract.load(FamilyContractTest.class, "contracts/broken.json")
                .route("broken.scope", OK)
                .routeWith("broken.ok", row -> {
                    throw new IllegalStateException("boom");
                })
                .bind();
        assertTrue(c.routes().isEmpty());
        Map<String, String> p = byMethod(c.problems());
        assertTrue(p.get("broken.scope").contains("unknown scope") && !p.get("broken.scope").contains(";"), p.toString());
        assertEquals("no handler: boom", p.get("broken.ok"));
    }

    @Test
    void routeWithHandsTheHandlerItsRow() {
        TargetSpec[] seen = new TargetSpec[1];
        FamilyContract c = FamilyContract.load(FamilyContractTest.class, "contracts/good.json")
                .routeWith("sample.read", row -> {
                    seen[0] = row.target();
                    return OK;
                })
                .route("sample.write", OK)
                .bind();
        assertEquals(List.of(), c.problems());
        assertEquals("pane", seen[0].idField());
        assertEquals(List.of("sample.read", "sample.write"), c.routes().stream().map(UhpMethod::name).toList());
    }

    @Test
    void aFamilyWithAContractNeedsNothingElse() {
        FamilyContract bound = FamilyContract.load(FamilyContractTest.class, "contracts/good.json")
                .route("sample.read", OK).bind();
        UhpFamily f = new UhpFamily() {
            @Override
            public FamilyContract contract() {
                return bound;
            }
        };
        assertEquals("sample", f.family());
        assertEquals(List.of("sample.read"), f.methods().stream().map(UhpMethod::name).toList());
        assertEquals(Map.of("sample.write", "contract row without a handler"), byMethod(f.problems()));
        UhpFamily legacy = new UhpFamily() {
            @Override
            public String family() {
                return "legacy";
            }

            @Override
            public List<UhpMethod> methods() {
                return List.of();
            }
        };
        assertEquals(null, legacy.contract());
        assertEquals(List.of(), legacy.problems());
        assertNotNull(legacy.methods());
    }
}

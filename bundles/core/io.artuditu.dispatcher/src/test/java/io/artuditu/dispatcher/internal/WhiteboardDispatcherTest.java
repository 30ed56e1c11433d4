package io.artuditu.dispatcher.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.platform.ClaimConflict;
import io.artuditu.uhp.platform.FamilyFailure;
import io.artuditu.uhp.platform.Reply;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;

class WhiteboardDispatcherTest {
    private static final ObjectMapper M = new ObjectMapper();
    private final WhiteboardDispatcher d = new WhiteboardDispatcher(true);

    private static UhpFamily family(String name, UhpMethod... methods) {
        return new UhpFamily() {
            @Override
            public String family() {
                return name;
            }

            @Override
            public List<UhpMethod> methods() {
                return List.of(methods);
            }
        };
    }

    private static UhpMethod method(String name, MethodHandler h) {
        try {
            return UhpMethod.of(name, Scope.READ,
                    M.readTree("{\"type\":\"object\",\"additionalProperties\":false,"
                            + "\"properties\":{\"n\":{\"type\":\"integer\"}}}"),
                    M.readTree("{\"type\":\"object\",\"required\":[\"type\"],\"properties\":{\"type\":{\"type\":\"string\"},"
                            + "\"from\":{\"type\":\"string\"}}}"),
                    h);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static UhpMethod answering(String name, String from) {
        return method(name, c -> c.newObject().put("type", "ok").put("from", from));
    }

    private JsonNode call(String line) throws Exception {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return call(b);
    }

    private JsonNode call(byte[] b) throws Exception {
        Reply r = d.dispatch(b, 0, b.length, Caller.inProcess());
        assertEquals('\n', r.line()[r.line().length - 1], "a reply is one newline-terminated line");
        return M.readTree(r.line());
    }

    private static String code(JsonNode reply) {
        return reply.path("error").path("code").asText("(none)");
    }

    @Test
    void routesByExactName() throws Exception {
        d.addFamily(family("t", answering("t.a", "one")), "b1", 0, 1);
        JsonNode r = call("{\"id\":\"1\",\"method\":\"t.a\",\"params\":{}}");
        assertEquals("1", r.path("id").asText());
        assertEquals("one", r.path("result").path("from").asText());
        assertEquals("unknown_method", code(call("{\"id\":\"2\",\"method\":\"t.A\"}")));
        assertEquals("unknown_method", code(call("{\"id\":\"2\",\"method\":\"t\"}")));
    }

    @Test
    void aFamilyThatLeavesVanishesAndItsCallsGetMethodUnavailable() throws Exception {
        d.addFamily(family("t", answering("t.a", "one")), "b1", 0, 1);
        assertEquals(1, d.methods().size());
        d.removeFamily(1);
        assertTrue(d.methods().isEmpty());
        assertEquals("method_unavailable", code(call("{\"id\":\"1\",\"method\":\"t.a\"}")));
    }

    private JsonNode stats() {
        com.fasterxml.jackson.databind.node.ObjectNode s = M.createObjectNode();
        d.contribute(s);
        return s;
    }

    private CompletableFuture<JsonNode> callAsync(String line) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call(line);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void underAHoldACallToAnAwayFamilyWaitsForItsReturnAndIsAnsweredByIt() throws Exception {
        d.addFamily(family("t", answering("t.a", "old")), "b1", 0, 1);
        AutoCloseable hold = d.holdAwayFamilies();
        d.removeFamily(1);
        CompletableFuture<JsonNode> waiting = callAsync("{\"id\":\"1\",\"method\":\"t.a\"}");
        Thread.sleep(200);
        assertFalse(waiting.isDone(), "the call waits for the family instead of method_unavailable");
        d.addFamily(family("t", answering("t.a", "new")), "b1", 0, 2);
        assertEquals("new", waiting.get(5, TimeUnit.SECONDS).path("result").path("from").asText());
        hold.close();
        hold.close(); // idempotent
        assertEquals(1, stats().path("requests").path("held_for_update").asLong());
        d.removeFamily(2);
        assertEquals("method_unavailable", code(call("{\"id\":\"2\",\"method\":\"t.a\"}")),
                "without a hold an away family answers at once");
    }

    @Test
    void aHoldThatEndsReleasesItsWaitingCallsWithMethodUnavailableAndUnknownMethodsNeverWait() throws Exception {
        d.addFamily(family("t", answering("t.a", "old")), "b1", 0, 1);
        d.removeFamily(1);
        AutoCloseable hold = d.holdAwayFamilies();
        assertEquals("unknown_method", code(call("{\"id\":\"u\",\"method\":\"t.never\"}")),
                "a method never registered is not held");
        CompletableFuture<JsonNode> waiting = callAsync("{\"id\":\"1\",\"method\":\"t.a\"}");
        Thread.sleep(200);
        assertFalse(waiting.isDone());
        hold.close(); // the update ended without bringing the family back (an uninstall)
        assertEquals("method_unavailable", code(waiting.get(5, TimeUnit.SECONDS)));
    }

    @Test
    void aRunningCallFinishesWhileItsFamilyLeaves() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        d.addFamily(family("t", method("t.slow", c -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return c.newObject().put("type", "ok");
        })), "b1", 0, 1);
        CompletableFuture<JsonNode> running = CompletableFuture.supplyAsync(() -> {
            try {
                return call("{\"id\":\"s\",\"method\":\"t.slow\"}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(entered.await(5, TimeUnit.SECONDS));
        CompletableFuture<Void> removal = CompletableFuture.runAsync(() -> d.removeFamily(1));
        Thread.sleep(100);
        assertFalse(removal.isDone(), "unbind waits for the running call");
        assertEquals("method_unavailable", code(call("{\"id\":\"n\",\"method\":\"t.slow\"}")));
        release.countDown();
        assertEquals("ok", running.get(5, TimeUnit.SECONDS).path("result").path("type").asText());
        removal.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aThrowingHandlerBecomesInternalErrorWithACorrelationIdAndNoStackTrace() throws Exception {
        d.addFamily(family("t", method("t.boom", c -> {
            throw new IllegalStateException("secret detail at com.example.Foo");
        })), "b1", 0, 1);
        JsonNode r = call("{\"id\":\"1\",\"method\":\"t.boom\"}");
        assertEquals("internal_error", code(r));
        String correlation = r.path("error").path("details").path("correlation_id").asText();
        assertTrue(correlation.matches("[0-9a-f]+"), r.toString());
        assertTrue(r.path("error").path("message").asText().contains(correlation));
        assertFalse(r.toString().contains("secret detail"));
        assertFalse(r.toString().contains("Exception"));
    }

    @Test
    void aHandlersUhpExceptionIsItsErrorReply() throws Exception {
        d.addFamily(family("t", method("t.nf", c -> {
            throw UhpException.notFound("no such pane: 42");
        })), "b1", 0, 1);
        JsonNode r = call("{\"id\":\"1\",\"method\":\"t.nf\"}");
        assertEquals("not_found", code(r));
        assertEquals("no such pane: 42", r.path("error").path("message").asText());
    }

    @Test
    void aResultThatBreaksItsSchemaIsAnInternalErrorInStrictMode() throws Exception {
        d.addFamily(family("t", method("t.bad", c -> c.newObject().put("type", "ok").put("from", 3))), "b1", 0, 1);
        assertEquals("internal_error", code(call("{\"id\":\"1\",\"method\":\"t.bad\"}")));
    }

    @Test
    void twoClaimsOnOneMethodHigherRankingThenFirstRegisteredWinsAndTheLoserIsReported() throws Exception {
        d.addFamily(family("a", answering("x.m", "first")), "bundle.a", 0, 10);
        d.addFamily(family("b", answering("x.m", "second")), "bundle.b", 0, 11);
        assertEquals("first", call("{\"id\":\"1\",\"method\":\"x.m\"}").at("/result/from").asText());
        assertEquals(List.of(new ClaimConflict("x.m", "bundle.a", "bundle.b")), d.conflicts());
        d.addFamily(family("c", answering("x.m", "ranked")), "bundle.c", 5, 12);
        assertEquals("ranked", call("{\"id\":\"1\",\"method\":\"x.m\"}").at("/result/from").asText());
        assertEquals(2, d.conflicts().size());
        d.removeFamily(12);
        d.removeFamily(10);
        assertEquals("second", call("{\"id\":\"1\",\"method\":\"x.m\"}").at("/result/from").asText(),
                "the loser takes over when the winner leaves");
        assertTrue(d.conflicts().isEmpty());
    }

    @Test
    void aFamilyWithABrokenRouteTableIsSkippedNotFatal() throws Exception {
        d.addFamily(new UhpFamily() {
            @Override
            public String family() {
                return "broken";
            }

            @Override
            public List<UhpMethod> methods() {
                throw new IllegalStateException("cannot list");
            }
        }, "b", 0, 1);
        d.addFamily(family("t", answering("t.a", "one")), "b1", 0, 2);
        assertEquals(1, d.methods().size());
    }

    @Test
    void aFamilyWithABrokenRowRegistersItsGoodMethodsAndTheBrokenOneIsAFailure() throws Exception {
        FamilyContract half = FamilyContract.load(WhiteboardDispatcherTest.class, "contracts/half.json")
                .route("half.good", c -> c.newObject().put("type", "good"))
                .route("half.bad", c -> c.newObject().put("type", "never"))
                .bind();
        d.addFamily(new UhpFamily() {
            @Override
            public FamilyContract contract() {
                return half;
            }
        }, "io.example.half", 0, 7);
        assertEquals("good", call("{\"id\":\"1\",\"method\":\"half.good\"}").at("/result/type").asText());
        assertEquals("unknown_method", code(call("{\"id\":\"2\",\"method\":\"half.bad\"}")));
        assertEquals(1, d.failures().size(), d.failures().toString());
        FamilyFailure f = d.failures().get(0);
        assertEquals("half", f.family());
        assertEquals("half.bad", f.method());
        assertEquals("io.example.half", f.bundle());
        assertTrue(f.reason().contains("params schema does not compile") && f.reason().contains("dependentRequired"),
                f.reason());
        // the dispatcher serves the contract of what is registered: the good row and the event
        assertEquals(List.of("half.good"), List.copyOf(d.contract().methods().keySet()));
        assertEquals(List.of("half.happened"), List.copyOf(d.contract().events().keySet()));
        assertTrue(d.contract().document().path("envelope").has("request"));
        d.removeFamily(7);
        assertEquals(List.of(), d.failures(), "a family's failures leave with it");
        assertTrue(d.contract().methods().isEmpty());
    }

    @Test
    void aFamilyThatCannotRegisterIsListedUntilItsServiceLeaves() throws Exception {
        d.addFamily(new UhpFamily() {
            @Override
            public String family() {
                return "broken";
            }

            @Override
            public List<UhpMethod> methods() {
                throw new IllegalStateException("cannot list");
            }
        }, "io.example.broken", 0, 3);
        FamilyFailure f = d.failures().get(0);
        assertEquals("broken", f.family());
        assertEquals(null, f.method());
        assertTrue(f.reason().contains("cannot list"), f.reason());
        d.removeFamily(3);
        assertEquals(List.of(), d.failures());
    }

    @Test
    void aFamilyComponentTheDsRuntimeCouldNotActivateIsAFailure() {
        ComponentDescriptionDTO family = new ComponentDescriptionDTO();
        family.name = "io.example.Failing";
        family.serviceInterfaces = new String[] {UhpFamily.class.getName()};
        family.bundle = new org.osgi.framework.dto.BundleDTO();
        family.bundle.symbolicName = "io.example.failing";
        ComponentDescriptionDTO other = new ComponentDescriptionDTO();
        other.name = "io.example.NotAFamily";
        other.serviceInterfaces = new String[] {Runnable.class.getName()};
        ComponentConfigurationDTO failed = new ComponentConfigurationDTO();
        failed.state = ComponentConfigurationDTO.FAILED_ACTIVATION;
        failed.failure = "org.osgi.service.component.ComponentException: activation\n\tat x.y(Z.java:1)\n"
                + "Caused by: java.lang.IllegalStateException: no database\n\tat a.b(C.java:2)\n";
        ComponentConfigurationDTO active = new ComponentConfigurationDTO();
        active.state = ComponentConfigurationDTO.ACTIVE;
        ServiceComponentRuntime scr = (ServiceComponentRuntime) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {ServiceComponentRuntime.class}, (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "getComponentDescriptionDTOs":
                            return List.of(family, other);
                        case "getComponentConfigurationDTOs":
                            return args[0] == family ? List.of(failed, active) : List.of(failed);
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
        d.components = scr;
        assertEquals(List.of(new FamilyFailure("io.example.Failing", null, null, "io.example.failing",
                "the family failed to activate: java.lang.IllegalStateException: no database")), d.failures());
        assertEquals("no reason given", WhiteboardDispatcher.rootCause(null));
        assertEquals("one line", WhiteboardDispatcher.rootCause("one line"));
    }

    @Test
    void everyMalformedEnvelopeIsAPreciseInvalidRequest() throws Exception {
        d.addFamily(family("t", answering("t.a", "one")), "b1", 0, 1);
        String[][] cases = {
            {"not json", "invalid_request", "null"},
            {"[1,2]", "invalid_request", "null"},
            {"\"text\"", "invalid_request", "null"},
            {"{}", "invalid_request", "null"},
            {"{\"id\":1,\"method\":\"t.a\"}", "invalid_request", "null"},
            {"{\"id\":\"\",\"method\":\"t.a\"}", "invalid_request", "null"},
            {"{\"id\":\"1\"}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":7}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":\"t.a\",\"params\":[]}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":\"t.a\",\"params\":\"x\"}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":\"t.a\",\"extra\":1}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":\"t.a\"} {}", "invalid_request", "null"},
            {"{\"id\":\"1\",\"id\":\"2\",\"method\":\"t.a\"}", "invalid_request", "null"},
            {"{\"id\":\"1\",\"method\":\"t.a\",\"params\":{\"n\":\"x\"}}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":\"t.a\",\"params\":{\"zz\":1}}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":\"t.a\",\"auth\":5}", "invalid_request", "1"},
            {"{\"id\":\"1\",\"method\":\"t.a\",\"auth\":\"tok\"}", "forbidden", "1"},
            {"{\"id\":\"1\",\"method\":\"nope\"}", "unknown_method", "1"},
        };
        for (String[] c : cases) {
            JsonNode r = call(c[0]);
            assertEquals(c[1], code(r), c[0] + " -> " + r);
            assertEquals(c[2], r.get("id").isNull() ? "null" : r.get("id").asText(), c[0]);
            assertFalse(r.has("result"));
        }
        JsonNode wrongType = call("{\"id\":\"1\",\"method\":\"t.a\",\"params\":{\"n\":\"x\"}}");
        assertEquals("n", wrongType.at("/error/details/field").asText());
    }

    @Test
    void aTokenLimitsTheRequestToItsScopesAndARefusalRunsNothing() throws Exception {
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<java.util.Set<Scope>> seen = new java.util.concurrent.atomic.AtomicReference<>();
        UhpMethod admin = UhpMethod.of("t.admin", Scope.ADMIN, M.readTree("{\"type\":\"object\"}"),
                M.readTree("{\"type\":\"object\"}"), c -> {
                    runs.incrementAndGet();
                    seen.set(c.scopes());
                    return c.newObject().put("type", "ok");
                });
        d.addFamily(family("t", admin), "b1", 0, 1);
        String line = "{\"id\":\"1\",\"method\":\"t.admin\",\"auth\":\"%s\"}";
        // No authority registered: every token is refused.
        assertEquals("forbidden", code(call(String.format(line, "good-admin"))));
        io.artuditu.uhp.api.auth.TokenAuthority authority = secret -> switch (secret) {
            case "good-read" -> java.util.Optional.of(java.util.Set.of(Scope.READ));
            case "good-admin" -> java.util.Optional.of(java.util.Set.of(Scope.ADMIN, Scope.READ));
            case "good-all" -> java.util.Optional.of(java.util.Set.of(Scope.ALL));
            default -> java.util.Optional.empty();
        };
        d.bindTokens(authority);
        JsonNode refused = call(String.format(line, "good-read"));
        assertEquals("forbidden", code(refused));
        assertEquals("admin", refused.at("/error/details/needed_scope").asText());
        assertTrue(refused.at("/error/message").asText().contains("admin"), refused.toString());
        assertEquals("unknown or expired token", call(String.format(line, "bogus")).at("/error/message").asText());
        assertEquals(0, runs.get(), "a refused request never reaches its handler");
        assertEquals("ok", call(String.format(line, "good-admin")).at("/result/type").asText());
        assertEquals(java.util.Set.of(Scope.ADMIN, Scope.READ), seen.get());
        assertEquals("ok", call(String.format(line, "good-all")).at("/result/type").asText());
        assertEquals("ok", call("{\"id\":\"1\",\"method\":\"t.admin\"}").at("/result/type").asText());
        assertEquals(java.util.Set.of(Scope.ALL), seen.get(), "without a token the owner holds every scope");
        assertEquals(3, runs.get());
        d.unbindTokens(authority);
        assertEquals("forbidden", code(call(String.format(line, "good-all"))));
    }

    @Test
    void invalidUtf8DeepNestingAndOversizeAreRefused() throws Exception {
        byte[] bad = "{\"id\":\"1\",\"method\":\"t.a\",\"params\":{\"s\":\"\u00ff\"}}".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("invalid_request", code(call(bad)));
        assertTrue(call(bad).at("/error/message").asText().contains("UTF-8"));
        String deep = "{\"id\":\"1\",\"method\":\"t.a\",\"params\":{\"a\":" + "[".repeat(200) + "]".repeat(200) + "}}";
        assertEquals("invalid_request", code(call(deep)));
        byte[] big = new byte[Limits.MAX_REQUEST_BYTES + 1];
        assertEquals("request_too_large", code(call(big)));
    }

    @Test
    void statsCountCompletedRequestsAndErrorsByCode() throws Exception {
        d.addFamily(family("t", answering("t.a", "one")), "b1", 0, 1);
        call("{\"id\":\"1\",\"method\":\"t.a\"}");
        call("nope");
        call("{\"id\":\"1\",\"method\":\"zz\"}");
        com.fasterxml.jackson.databind.node.ObjectNode s = M.createObjectNode();
        d.contribute(s);
        assertEquals(3, s.at("/requests/completed").asLong());
        assertEquals(1, s.at("/requests/errors/invalid_request").asLong());
        assertEquals(1, s.at("/requests/errors/unknown_method").asLong());
    }

    // ---- if_revision, at the top level or inside params ----

    /**
     * A bus whose only parts used here are its sequences: {@code publish} moves both the
     * sequence (the revision) and the state sequence, {@code publishObservation} only the first.
     */
    private static final class Revisions implements io.artuditu.uhp.api.events.EventBus {
        final java.util.concurrent.atomic.AtomicLong sequence = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong state = new java.util.concurrent.atomic.AtomicLong();

        @Override
        public synchronized long publish(String event, com.fasterxml.jackson.databind.node.ObjectNode data) {
            long s = sequence.incrementAndGet();
            state.set(s);
            return s;
        }

        @Override
        public long publishObservation(String event, com.fasterxml.jackson.databind.node.ObjectNode data) {
            return sequence.incrementAndGet();
        }

        @Override
        public long sequence() {
            return sequence.get();
        }

        @Override
        public long stateSequence() {
            return state.get();
        }

        @Override
        public io.artuditu.uhp.api.events.Subscription subscribe(java.util.OptionalLong after, java.util.Set<String> events) {
            throw new UnsupportedOperationException();
        }

        @Override
        public io.artuditu.uhp.api.events.EventWaiter await(String event, com.fasterxml.jackson.databind.node.ObjectNode where,
                java.util.OptionalLong after) {
            throw new UnsupportedOperationException();
        }
    }

    /**
     * A mutating {@code t.set} (params {@code {n}} only, no other field allowed) that records
     * the params it saw and publishes one event, and a read {@code t.get}.
     */
    private final Revisions bus = new Revisions();
    private final List<JsonNode> seenParams = new java.util.concurrent.CopyOnWriteArrayList<>();

    private void revisionFamily() throws Exception {
        String params = "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{\"n\":{\"type\":\"integer\"}}}";
        String result = "{\"type\":\"object\",\"required\":[\"type\"],\"properties\":{\"type\":{\"type\":\"string\"},"
                + "\"revision\":{\"type\":\"integer\"}}}";
        UhpMethod set = UhpMethod.of("t.set", Scope.WORKSPACE, M.readTree(params), M.readTree(result), c -> {
            seenParams.add(c.params().deepCopy());
            bus.publish("t.changed", c.newObject());
            return c.newObject().put("type", "ok");
        }).mutating();
        UhpMethod get = UhpMethod.of("t.get", Scope.READ, M.readTree(params), M.readTree(result),
                c -> c.newObject().put("type", "ok"));
        d.bus = bus;
        d.addFamily(family("t", set, get), "b1", 0, 1);
        bus.sequence.set(5);
        bus.state.set(5);
    }

    private JsonNode set(String top, String params) throws Exception {
        return call("{\"id\":\"r\",\"method\":\"t.set\"" + top + ",\"params\":" + params + "}");
    }

    @Test
    void ifRevisionInsideParamsIsHonouredAndTheHandlerNeverSeesIt() throws Exception {
        revisionFamily();
        JsonNode stale = set("", "{\"n\":1,\"if_revision\":4}");
        assertEquals("revision_conflict", code(stale), stale.toString());
        assertEquals(5, stale.at("/error/details/revision").asLong());
        assertTrue(seenParams.isEmpty(), "a stale if_revision runs nothing");
        assertEquals(5, bus.sequence());

        JsonNode current = set("", "{\"n\":1,\"if_revision\":5}");
        assertEquals("ok", current.at("/result/type").asText(), current.toString());
        assertEquals(6, current.at("/result/revision").asLong());
        assertEquals(M.readTree("{\"n\":1}"), seenParams.get(0), "if_revision is taken out of the params");

        JsonNode alone = set("", "{\"if_revision\":6}");
        assertEquals("ok", alone.at("/result/type").asText(), alone.toString());
        assertEquals(M.readTree("{}"), seenParams.get(1));
    }

    @Test
    void anObservationAfterTheRevisionLeavesItCurrentAStateChangeOrAFutureRevisionDoesNot() throws Exception {
        revisionFamily();
        bus.publishObservation("terminal.output", null);
        bus.publishObservation("terminal.title", null);
        // The spec: a conflict is "another successful mutation already changed state".
        JsonNode afterOutput = set(",\"if_revision\":5", "{\"n\":1}");
        assertEquals("ok", afterOutput.at("/result/type").asText(), "a pane printing is no state change: " + afterOutput);
        assertEquals(8, afterOutput.at("/result/revision").asLong());

        JsonNode stale = set(",\"if_revision\":7", "{\"n\":2}");
        assertEquals("revision_conflict", code(stale), "the mutation at 8 changed state after 7: " + stale);
        assertEquals(8, stale.at("/error/details/revision").asLong());

        JsonNode future = set(",\"if_revision\":9", "{\"n\":3}");
        assertEquals("revision_conflict", code(future), "a revision this server never gave out: " + future);
        assertEquals(1, seenParams.size(), "only the current request ran");
    }

    @Test
    void ifRevisionAtTheTopAndInParamsMustBeEqual() throws Exception {
        revisionFamily();
        JsonNode both = set(",\"if_revision\":5", "{\"n\":1,\"if_revision\":5}");
        assertEquals("ok", both.at("/result/type").asText(), both.toString());
        assertEquals(M.readTree("{\"n\":1}"), seenParams.get(0));

        JsonNode bothStale = set(",\"if_revision\":5", "{\"if_revision\":5}");
        assertEquals("revision_conflict", code(bothStale), "equal but stale is a plain conflict");

        JsonNode differ = set(",\"if_revision\":6", "{\"n\":1,\"if_revision\":7}");
        assertEquals("invalid_request", code(differ), differ.toString());
        assertEquals("if_revision", differ.at("/error/details/field").asText());
        assertEquals("mismatch", differ.at("/error/details/reason").asText());
        // Differing values are refused even when one of them is current: nothing runs.
        JsonNode oneCurrent = set(",\"if_revision\":6", "{\"if_revision\":1}");
        assertEquals("invalid_request", code(oneCurrent));
        assertEquals(1, seenParams.size(), "a refused request never reaches its handler");
        assertEquals(6, bus.sequence(), "state is unchanged");
    }

    @Test
    void ifRevisionInParamsMustBeANonNegativeInteger() throws Exception {
        revisionFamily();
        for (String bad : new String[] {"\"5\"", "-1", "1.5", "null", "true", "{}", "99999999999999999999999"}) {
            JsonNode r = set("", "{\"if_revision\":" + bad + "}");
            assertEquals("invalid_request", code(r), bad + " -> " + r);
            assertEquals("if_revision", r.at("/error/details/field").asText(), bad);
            assertTrue(r.at("/error/message").asText().contains("params.if_revision"), r.toString());
        }
        assertTrue(seenParams.isEmpty());
        assertEquals(5, bus.sequence());
    }

    @Test
    void ifRevisionInParamsOfAReadMethodIsInvalidLikeTheTopLevelOne() throws Exception {
        revisionFamily();
        JsonNode inParams = call("{\"id\":\"r\",\"method\":\"t.get\",\"params\":{\"if_revision\":5}}");
        JsonNode atTop = call("{\"id\":\"r\",\"method\":\"t.get\",\"if_revision\":5}");
        assertEquals("invalid_request", code(inParams), inParams.toString());
        assertEquals(atTop.get("error"), inParams.get("error"), "the same refusal in both places");
        assertEquals("if_revision", inParams.at("/error/details/field").asText());
        // Another unknown field is still refused by the method's own schema.
        assertEquals("zz", call("{\"id\":\"r\",\"method\":\"t.set\",\"params\":{\"zz\":1,\"if_revision\":5}}")
                .at("/error/details/field").asText());
        assertTrue(seenParams.isEmpty());
    }

    // ---- numbers ----

    /**
     * {@code t.num}: a string {@code pane}, an integer {@code n}, a number {@code x} and a
     * free-form object {@code o}; records the params it saw.
     */
    private void numberFamily() throws Exception {
        String params = "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{"
                + "\"pane\":{\"type\":\"string\"},\"n\":{\"type\":\"integer\"},\"x\":{\"type\":\"number\"},"
                + "\"o\":{\"type\":\"object\"}}}";
        UhpMethod num = UhpMethod.of("t.num", Scope.WORKSPACE, M.readTree(params), M.readTree("{\"type\":\"object\"}"),
                c -> {
                    seenParams.add(c.params().deepCopy());
                    return c.newObject().put("type", "ok");
                }).mutating();
        d.addFamily(family("t", num), "b1", 0, 1);
    }

    private static final String[] BEYOND_RANGE = {"1e309", "-1e309", "1e400", "1E+400", "123456789012345678901234567890",
        "9223372036854775808", "-9223372036854775809", "9.3e18", "9223372036854775807.5", "1.5e300", "1e999999999", "1e9999999999", "-1e9999999999",
        "1e-400", "-2.5e-400", "1e-9999999999", "1" + "0".repeat(400), "0." + "0".repeat(400) + "1"};

    @Test
    void aNumberBeyondRangeIsAnInvalidRequestNamingItsFieldAndRunsNothing() throws Exception {
        numberFamily();
        String[][] places = {
            {"{\"pane\":%s}", "pane", "params.pane"},
            {"{\"n\":%s}", "n", "params.n"},
            {"{\"x\":%s}", "x", "params.x"},
            {"{\"o\":{\"a\":{\"b\":%s}}}", "b", "params.o.a.b"},
            {"{\"o\":{\"list\":[0,%s]}}", "list[1]", "params.o.list[1]"},
        };
        for (String number : BEYOND_RANGE) {
            for (String[] p : places) {
                String line = "{\"id\":\"q\",\"method\":\"t.num\",\"params\":" + String.format(p[0], number) + "}";
                JsonNode r = call(line);
                assertEquals("invalid_request", code(r), line + " -> " + r);
                assertEquals("q", r.get("id").asText(), line);
                assertEquals(p[1], r.at("/error/details/field").asText(), line + " -> " + r);
                assertEquals(p[2], r.at("/error/details/path").asText(), line + " -> " + r);
                assertEquals("out_of_range", r.at("/error/details/reason").asText(), line + " -> " + r);
            }
            JsonNode top = call("{\"id\":\"q\",\"method\":\"t.num\",\"if_revision\":" + number + "}");
            assertEquals("invalid_request", code(top), number + " -> " + top);
            assertEquals("if_revision", top.at("/error/details/field").asText(), number + " -> " + top);
        }
        String longest = "1" + "0".repeat(999);
        JsonNode thousand = call("{\"id\":\"q\",\"method\":\"t.num\",\"params\":{\"n\":" + longest + "}}");
        assertEquals("out_of_range", thousand.at("/error/details/reason").asText(), thousand.toString());
        JsonNode tooLong = call("{\"id\":\"q\",\"method\":\"t.num\",\"params\":{\"n\":" + longest + "0}}");
        assertEquals("invalid_request", code(tooLong), tooLong.toString());
        assertTrue(tooLong.at("/error/message").asText().contains("not valid JSON"), "past 1,000 characters: " + tooLong);
        assertTrue(seenParams.isEmpty(), "a refused request never reaches its handler");
    }

    @Test
    void anIntegerMayCarryAFractionOfZerosOrAnExponentAndMinusZeroIsZero() throws Exception {
        numberFamily();
        String[][] integers = {{"1.0", "1"}, {"1e2", "100"}, {"1E+2", "100"}, {"100e-2", "1"}, {"-0", "0"}, {"-0.0", "0"},
            {"0e99999999999", "0"}, {"-5.000", "-5"}, {"9.223372036854775807e18", "9223372036854775807"},
            {"-9223372036854775808.0", "-9223372036854775808"}};
        for (String[] i : integers) {
            seenParams.clear();
            JsonNode r = call("{\"id\":\"q\",\"method\":\"t.num\",\"params\":{\"n\":" + i[0] + ",\"x\":" + i[0] + "}}");
            assertEquals("ok", r.at("/result/type").asText(), i[0] + " -> " + r);
            for (String f : new String[] {"n", "x"}) {
                JsonNode seen = seenParams.get(0).get(f);
                assertTrue(seen.isIntegralNumber() && seen.canConvertToLong(), i[0] + " reaches the handler as " + seen);
                assertEquals(i[1], seen.asText(), i[0]);
            }
        }
        String[] fractions = {"0.5", "1e-300", "-123.25", "4.9e-324", "12345678901234567.5", "0.99999999999999999999"};
        for (String x : fractions) {
            seenParams.clear();
            JsonNode r = call("{\"id\":\"q\",\"method\":\"t.num\",\"params\":{\"x\":" + x + "}}");
            assertEquals("ok", r.at("/result/type").asText(), x + " -> " + r);
            JsonNode seen = seenParams.get(0).get("x");
            assertTrue(seen.isNumber() && !seen.isIntegralNumber(), x + " reaches the handler as " + seen);
            assertEquals(0, new java.math.BigDecimal(x).compareTo(seen.decimalValue()), x + " is kept exact: " + seen);
            assertEquals(Double.parseDouble(x), seen.doubleValue(), x);
            JsonNode asInteger = call("{\"id\":\"q\",\"method\":\"t.num\",\"params\":{\"n\":" + x + "}}");
            assertEquals("n", asInteger.at("/error/details/field").asText(), x + " is no integer: " + asInteger);
        }
        JsonNode fraction = call("{\"id\":\"q\",\"method\":\"t.num\",\"params\":{\"n\":1.5}}");
        assertEquals("n", fraction.at("/error/details/field").asText(), fraction.toString());
        d.bus = bus;
        bus.sequence.set(5);
        bus.state.set(5);
        assertEquals("ok", call("{\"id\":\"q\",\"method\":\"t.num\",\"if_revision\":5.0}").at("/result/type").asText());
        assertEquals("ok", call("{\"id\":\"q\",\"method\":\"t.num\",\"params\":{\"if_revision\":5e0}}")
                .at("/result/type").asText());
        JsonNode minusZero = call("{\"id\":\"q\",\"method\":\"t.num\",\"if_revision\":-0}");
        assertEquals("revision_conflict", code(minusZero), "-0 is the revision 0, stale here: " + minusZero);
    }

    // ---- encodings ----

    @Test
    void aLineInAnyEncodingButUtf8IsRefusedAsNotUtf8Json() throws Exception {
        d.addFamily(family("t", answering("t.a", "one")), "b1", 0, 1);
        String line = "{\"id\":\"1\",\"method\":\"t.a\",\"params\":{}}";
        assertEquals("one", call(line).at("/result/from").asText());
        List<byte[]> foreign = new java.util.ArrayList<>();
        for (String cs : new String[] {"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"}) {
            java.nio.charset.Charset c = java.nio.charset.Charset.forName(cs);
            foreign.add(line.getBytes(c));
            foreign.add(("\uFEFF" + line).getBytes(c));
            foreign.add((" " + line).getBytes(c));
        }
        foreign.add(("\uFEFF" + line).getBytes(StandardCharsets.UTF_8));
        for (byte[] b : foreign) {
            JsonNode r = call(b);
            String what = java.util.HexFormat.of().formatHex(b, 0, 8) + "… -> " + r;
            assertEquals("invalid_request", code(r), what);
            assertTrue(r.get("id").isNull(), what);
            assertTrue(r.at("/error/message").asText().contains("not UTF-8 JSON"), what);
            assertEquals("not_utf8", r.at("/error/details/reason").asText(), what);
        }
    }
}

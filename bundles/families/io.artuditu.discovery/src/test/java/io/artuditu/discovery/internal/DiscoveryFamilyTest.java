package io.artuditu.discovery.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.uhp.platform.BasicCall;
import io.artuditu.uhp.platform.ClaimConflict;
import io.artuditu.uhp.platform.FamilyFailure;
import io.artuditu.uhp.platform.MethodInfo;
import io.artuditu.uhp.platform.Reply;
import io.artuditu.uhp.platform.ServerControl;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DiscoveryFamilyTest {
    private static final ObjectMapper M = new ObjectMapper();
    private final AtomicReference<String> stopped = new AtomicReference<>();

    private final ServerControl server = new ServerControl() {
        @Override
        public String version() {
            return "0.1.0";
        }

        @Override
        public String session() {
            return "default";
        }

        @Override
        public Path socketPath() {
            return Path.of("/h/artuditu.sock");
        }

        @Override
        public Instant startedAt() {
            return Instant.now();
        }

        @Override
        public void stop(String reason) {
            stopped.set(reason);
        }
    };

    private final UhpDispatcher dispatcher = new UhpDispatcher() {
        @Override
        public Reply dispatch(byte[] buf, int off, int len, Caller caller) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Reply error(String id, ErrorCode code, String message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<MethodInfo> methods() {
            return List.of(new MethodInfo("ping", "discovery", Scope.READ, "io.artuditu.discovery"));
        }

        @Override
        public List<ClaimConflict> conflicts() {
            return List.of(new ClaimConflict("ping", "a", "b"));
        }

        @Override
        public List<FamilyFailure> failures() {
            return List.of(new FamilyFailure("broken", "broken.m", null, "io.example.broken", "unknown scope \"x\""));
        }

        @Override
        public UhpContract contract() {
            return UhpContract.assemble(UhpContract.envelope(), List.of(family.contract()));
        }
    };

    private final DiscoveryFamily family = new DiscoveryFamily(server, dispatcher);

    private ObjectNode run(String method, BasicCall call) {
        UhpMethod m = family.methods().stream().filter(x -> x.name().equals(method)).findFirst().orElseThrow();
        ObjectNode result = m.handler().handle(call);
        assertEquals("", m.resultSchema().validate(result, "result").map(Object::toString).orElse(""),
                method + " result matches its contract");
        return result;
    }

    @Test
    void everyRowOfTheContractIsRoutedAndNothingElse() {
        assertEquals(List.of(), family.problems(), "discovery.json and the route table agree");
        assertEquals(List.of("ping", "uhp.capabilities", "uhp.stats", "server.stop"),
                family.methods().stream().map(UhpMethod::name).toList());
        assertEquals(Scope.ADMIN, family.contract().method("server.stop").orElseThrow().scope());
    }

    @Test
    void pingNamesVersionAndSession() {
        ObjectNode r = run("ping", BasicCall.of("m", M.createObjectNode()));
        assertEquals("pong", r.path("type").asText());
        assertEquals("0.1.0", r.path("version").asText());
        assertEquals("default", r.path("session").asText());
    }

    @Test
    void capabilitiesListTheLiveRegistryConflictsAndLimits() {
        ObjectNode r = run("uhp.capabilities", BasicCall.of("m", M.createObjectNode()));
        assertEquals("ping", r.at("/methods/0/name").asText());
        assertEquals("read", r.at("/methods/0/scope").asText());
        assertEquals("b", r.at("/conflicts/0/loser").asText());
        assertEquals("{\"family\":\"broken\",\"method\":\"broken.m\",\"bundle\":\"io.example.broken\","
                + "\"reason\":\"unknown scope \\\"x\\\"\"}", r.at("/failures/0").toString());
        assertEquals(1, r.get("failures").size());
        assertEquals(80, r.at("/limits/max_connections").asInt());
        assertEquals(1 << 20, r.at("/limits/max_request_bytes").asInt());
    }

    @Test
    void statsMergeEveryContributor() {
        family.addContributor(s -> s.putObject("connections").put("active", 1).put("capacity", 80).put("accepted", 1)
                .put("rejected", 0).put("initial_frame_timeouts", 0).put("peer_rejected", 0).put("client_disconnects", 0));
        family.addContributor(s -> {
            s.putObject("requests").put("completed", 3).put("mean_latency_us", 5).putObject("errors");
            s.putObject("bytes").put("in", 1).put("out", 2);
            s.put("uptime_ms", 7);
        });
        ObjectNode r = run("uhp.stats", BasicCall.of("m", M.createObjectNode()));
        assertEquals(3, r.at("/requests/completed").asInt());
        assertEquals(256, r.at("/replay/max_frames").asInt());
        assertEquals(8, r.at("/terminal_streams/capacity").asInt());
    }

    @Test
    void stopAnswersFirstAndStopsAfterTheReply() {
        BasicCall call = BasicCall.of("m", M.createObjectNode());
        ObjectNode r = run("server.stop", call);
        assertTrue(r.path("stopping").asBoolean());
        assertEquals(null, stopped.get(), "nothing stops before the reply is written");
        call.afterReplyActions().forEach(Runnable::run);
        assertTrue(stopped.get().startsWith("server.stop"));
    }
}

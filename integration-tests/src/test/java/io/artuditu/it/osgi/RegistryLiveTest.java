package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.platform.MethodInfo;
import java.util.Set;
import java.util.TreeSet;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;

/** The method registry follows the bundles: a family's methods leave and return with it. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class RegistryLiveTest extends RuntimeTest {
    static final Set<String> DISCOVERY = Set.of("ping", "uhp.capabilities", "uhp.stats", "server.stop");

    private Bundle bundle(String symbolicName) {
        for (Bundle b : context.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                return b;
            }
        }
        throw new AssertionError("no bundle " + symbolicName);
    }

    @Test
    public void theRuntimeIsEmbeddedNotStandalone() {
        // Standalone, server.stop or a bind conflict would end this JVM, and the test run with it.
        assertEquals(null, context.getProperty("artuditu.standalone"));
        assertEquals(Boolean.TRUE.toString(), System.getProperty("artuditu.uhp.strict-results"));
    }

    @Test
    public void capabilitiesListExactlyTheRunningFamiliesMethods() throws Exception {
        Set<String> overSocket = uhp.capabilityNames();
        assertEquals("the runtime's only family is discovery", DISCOVERY, overSocket);
        assertEquals("the socket and the dispatcher agree", Uhp.names(dispatcher), overSocket);
        for (MethodInfo m : dispatcher.methods()) {
            assertEquals(m.toString(), "io.artuditu.discovery", m.bundle());
            assertEquals(m.toString(), "discovery", m.family());
        }
        JsonNode caps = uhp.call("uhp.capabilities", "{}").get("result");
        assertEquals(0, caps.get("conflicts").size());
    }

    @Test
    public void stoppingDiscoveryTakesItsMethodsAwayAndStartingBringsThemBack() throws Exception {
        Bundle discovery = bundle("io.artuditu.discovery");
        assertEquals(Bundle.ACTIVE, discovery.getState());
        discovery.stop();
        try {
            Uhp.await("the discovery methods leave the registry", () -> Uhp.names(dispatcher).isEmpty());
            // Without discovery nothing can list capabilities; the raw socket still answers.
            for (String method : new TreeSet<>(DISCOVERY)) {
                if (method.equals("server.stop")) {
                    continue; // never call it: if it were routed it would stop this framework
                }
                JsonNode r = uhp.call(method, "{}");
                assertEquals(method + " -> " + r, "method_unavailable", Uhp.code(r));
                assertEquals("t", r.get("id").asText());
            }
            JsonNode unknown = uhp.call("never.registered", "{}");
            assertEquals("a name no family ever had stays unknown", "unknown_method", Uhp.code(unknown));
        } finally {
            discovery.start();
        }
        Uhp.await("the discovery methods return", () -> Uhp.names(dispatcher).equals(DISCOVERY));
        JsonNode pong = uhp.call("ping", "{}");
        assertNotNull(pong.toString(), pong.get("result"));
        assertEquals("pong", pong.at("/result/type").asText());
        assertEquals(DISCOVERY, uhp.capabilityNames());
        JsonNode stats = uhp.call("uhp.stats", "{}");
        assertTrue(stats.toString(), stats.at("/result/requests/errors/method_unavailable").asLong() >= 3);
        assertFalse(stats.toString(), stats.has("error"));
    }
}

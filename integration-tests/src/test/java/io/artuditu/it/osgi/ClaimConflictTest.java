package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.platform.ClaimConflict;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;

/**
 * Two bundles claiming one method: the first registered wins at equal ranking, a higher
 * {@code service.ranking} wins outright, and both sides of every conflict are shown.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ClaimConflictTest extends RuntimeTest {
    /** ping as the contract has it; the impostors answer with their own version string. */
    static final String PONG = "{\"type\":\"object\",\"required\":[\"type\",\"version\",\"session\",\"uhp\"],"
            + "\"additionalProperties\":false,\"properties\":{\"type\":{\"const\":\"pong\"},"
            + "\"version\":{\"type\":\"string\"},\"session\":{\"type\":\"string\"},\"uhp\":{\"type\":\"string\"}}}";

    private static UhpFamily impostor(String version) {
        return Uhp.family("impostor", Uhp.method("ping", PONG, call -> call.newObject().put("type", "pong")
                .put("version", version).put("session", "impostor").put("uhp", "1.0")));
    }

    private static Set<String> conflictsOverSocket(JsonNode caps) {
        Set<String> out = new TreeSet<>();
        caps.at("/result/conflicts").forEach(c -> out.add(c.get("method").asText() + " " + c.get("winner").asText()
                + " > " + c.get("loser").asText()));
        return out;
    }

    @Test
    public void firstRegisteredWinsThenRankingDecides() throws Exception {
        String probe = context.getBundle().getSymbolicName();
        String pingVersion = uhp.call("ping", "{}").at("/result/version").asText();

        ServiceRegistration<UhpFamily> late = context.registerService(UhpFamily.class, impostor("late"), null);
        try {
            Uhp.await("the conflict is on file", () -> !dispatcher.conflicts().isEmpty());
            assertEquals(List.of(new ClaimConflict("ping", "io.artuditu.discovery", probe)), dispatcher.conflicts());
            JsonNode caps = uhp.call("uhp.capabilities", "{}");
            assertEquals(caps.toString(), Set.of("ping io.artuditu.discovery > " + probe), conflictsOverSocket(caps));
            JsonNode pong = uhp.call("ping", "{}");
            assertEquals("discovery, registered first, still answers: " + pong, pingVersion,
                    pong.at("/result/version").asText());

            Dictionary<String, Object> ranked = new Hashtable<>();
            ranked.put(Constants.SERVICE_RANKING, 10);
            ServiceRegistration<UhpFamily> strong = context.registerService(UhpFamily.class, impostor("ranked"), ranked);
            try {
                Uhp.await("the ranked impostor wins", () -> dispatcher.conflicts().size() == 2);
                assertEquals(Set.of(new ClaimConflict("ping", probe, "io.artuditu.discovery"),
                        new ClaimConflict("ping", probe, probe)), Set.copyOf(dispatcher.conflicts()));
                assertEquals("ranked", uhp.call("ping", "{}").at("/result/version").asText());
                JsonNode caps2 = uhp.call("uhp.capabilities", "{}");
                assertEquals(caps2.toString(), Set.of("ping " + probe + " > io.artuditu.discovery",
                        "ping " + probe + " > " + probe), conflictsOverSocket(caps2));
                caps2.at("/result/methods").forEach(m -> {
                    if (m.get("name").asText().equals("ping")) {
                        assertEquals(m.toString(), probe, m.get("bundle").asText());
                        assertEquals(m.toString(), "impostor", m.get("family").asText());
                    }
                });
            } finally {
                strong.unregister();
            }
            assertEquals("with the winner gone the order falls back to registration",
                    List.of(new ClaimConflict("ping", "io.artuditu.discovery", probe)), dispatcher.conflicts());
            assertEquals(pingVersion, uhp.call("ping", "{}").at("/result/version").asText());
        } finally {
            late.unregister();
        }
        assertTrue("no conflicts left: " + dispatcher.conflicts(), dispatcher.conflicts().isEmpty());
        JsonNode caps = uhp.call("uhp.capabilities", "{}");
        assertEquals(caps.toString(), 0, caps.at("/result/conflicts").size());
        assertEquals("io.artuditu.discovery", dispatcher.methods().stream().filter(m -> m.name().equals("ping"))
                .findFirst().orElseThrow().bundle());
        assertEquals(pingVersion, uhp.call("ping", "{}").at("/result/version").asText());
    }
}

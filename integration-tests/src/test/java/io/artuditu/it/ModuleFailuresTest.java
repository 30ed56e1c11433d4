package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.it.module.TestModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A module whose contract has a broken method still serves its good one, and
 * {@code uhp.capabilities} says what was left out and why, as it does for a family that
 * could not be built at all; over the real socket, the module installed at run time.
 */
class ModuleFailuresTest {
    @TempDir
    Path home;

    @TempDir
    Path work;

    private static List<JsonNode> failures(ForegroundServer s) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        Wire.call(s.socket, "uhp.capabilities", "{}").at("/result/failures").forEach(out::add);
        return out;
    }

    private static void await(String what, Callable<Boolean> cond) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!cond.call()) {
            assertTrue(System.nanoTime() < deadline, what + " within 20 s");
            Thread.sleep(50);
        }
    }

    @Test
    void theGoodMethodAnswersAndCapabilitiesListTheBrokenOneAndTheFamilyThatFailed() throws Exception {
        Path jar = TestModule.jar(work);
        try (ForegroundServer s = new ForegroundServer(home)) {
            assertEquals(List.of(), failures(s), "the built-ins offer everything");
            JsonNode installed = Wire.call(s.socket, "server.bundle.install",
                    "{\"path\":" + Wire.M.writeValueAsString(jar.toString()) + "}");
            assertEquals("bundle_installed", installed.at("/result/type").asText(), installed.toString());
            long id = installed.at("/result/bundle/id").asLong();
            await("the module's good method answers",
                    () -> Wire.call(s.socket, "it.half.good", "{\"text\":\"hi\"}").has("result"));
            JsonNode good = Wire.call(s.socket, "it.half.good", "{\"text\":\"hi\"}");
            assertEquals("hi", good.at("/result/text").asText(), good.toString());
            assertEquals("unknown_method", Wire.code(Wire.call(s.socket, "it.half.broken", "{}")),
                    "the broken row is not offered");

            await("both failures are listed", () -> failures(s).size() == 2);
            List<JsonNode> f = failures(s);
            JsonNode broken = f.stream().filter(x -> x.has("method")).findFirst().orElseThrow();
            assertEquals("it.half", broken.get("family").asText(), broken.toString());
            assertEquals("it.half.broken", broken.get("method").asText());
            assertEquals(TestModule.BSN, broken.get("bundle").asText());
            assertTrue(broken.get("reason").asText().contains("params schema does not compile")
                    && broken.get("reason").asText().contains("patternProperties"), broken.toString());
            JsonNode failed = f.stream().filter(x -> !x.has("method")).findFirst().orElseThrow();
            assertEquals("io.artuditu.it.module.FailingFamily", failed.get("family").asText(), failed.toString());
            assertEquals(TestModule.BSN, failed.get("bundle").asText());
            assertTrue(failed.get("reason").asText().contains("deliberately broken: no backend"), failed.toString());

            Cli.Result caps = Cli.run(s.env, "uhp", "capabilities");
            assertEquals(0, caps.status(), caps.err());
            assertTrue(caps.out().contains("it.half.broken"), "the CLI shows them too");

            JsonNode gone = Wire.call(s.socket, "server.bundle.uninstall", "{\"bundle\":" + id + "}");
            assertEquals("bundle_uninstalled", gone.at("/result/type").asText(), gone.toString());
            await("the failures leave with the bundle", () -> failures(s).isEmpty());
        }
    }
}

package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 while config.patch runs back to back: after every kill the file parses and is
 * exactly the last acknowledged config or the one in flight, never a mix or a fragment.
 */
class ConfigCrashTest {
    static final int ROUNDS = 8;

    @TempDir
    Path home;

    /** Each patch sets the same keys in three tables, so a torn write cannot look whole. */
    static String patch(int i) {
        return "{\"layout\":{\"gap\":" + (i % 9) + "},\"pane\":{\"history_budget_bytes\":" + (65536 + i)
                + "},\"keymap\":{\"bindings\":{\"mark\":\"t" + i + "\"}}}";
    }

    @Test
    void theFileIsAlwaysTheOldOrTheNewConfig() throws Exception {
        Path file = home.resolve("config.toml");
        long seed = System.nanoTime();
        Random random = new Random(seed);
        TomlMapper toml = new TomlMapper();
        int acked = 0;
        int counter = 0;
        int killedMidStream = 0;
        for (int round = 0; round < ROUNDS; round++) {
            ForegroundServer s = new ForegroundServer(home);
            try {
                if (acked > 0) {
                    JsonNode live = Wire.call(s.socket, "config.get", "{}").get("result");
                    assertEquals(Wire.M.readTree(patch(acked)).at("/keymap/bindings"), live.at("/config/keymap/bindings"),
                            "the restarted server runs on what the file holds");
                }
                // One acknowledged patch before the kill is armed, so every round crashes a server
                // that is writing, however slow the machine is today.
                int inFlight = ++counter;
                JsonNode first = Wire.call(s.socket, "config.patch", "{\"patch\":" + patch(inFlight) + "}");
                assertTrue(first.has("result"), first.toString());
                acked = inFlight;
                long delayMs = random.nextInt(400);
                Process killer = new ProcessBuilder("sh", "-c",
                        "sleep " + (delayMs / 1000.0) + "; kill -9 " + s.process.pid()).start();
                while (s.process.isAlive()) {
                    inFlight = ++counter;
                    try {
                        JsonNode r = Wire.call(s.socket, "config.patch", "{\"patch\":" + patch(inFlight) + "}");
                        assertTrue(r.has("result"), r.toString());
                        acked = inFlight;
                    } catch (IOException | AssertionError cut) {
                        // Only the kill may cut a call short.
                        if (!s.process.waitFor(5, TimeUnit.SECONDS)) {
                            throw cut;
                        }
                    }
                }
                assertTrue(killer.waitFor(10, TimeUnit.SECONDS));
                assertEquals(137, s.process.waitFor(), "killed by SIGKILL");
                if (inFlight != acked) {
                    killedMidStream++;
                }
                if (!Files.exists(file)) {
                    // killed before the first patch was written: no file is the old state
                    assertEquals(0, acked, "round " + round + ": acknowledged patches but no file (seed " + seed + ")");
                    continue;
                }
                JsonNode onDisk;
                try {
                    onDisk = toml.readTree(file.toFile());
                } catch (IOException e) {
                    throw new AssertionError("round " + round + ": the file does not parse (seed " + seed + "): "
                            + Files.readString(file), e);
                }
                JsonNode old = Wire.M.readTree(patch(acked));
                JsonNode next = Wire.M.readTree(patch(inFlight));
                assertTrue(onDisk.equals(old) || onDisk.equals(next), "round " + round + " (seed " + seed
                        + "): the file is neither the acknowledged " + old + " nor the in-flight " + next + ": " + onDisk);
                if (onDisk.equals(next)) {
                    acked = inFlight; // written but not acknowledged: the new config is what the server will read
                }
            } finally {
                s.close();
            }
        }
        assertTrue(acked > ROUNDS, "enough patches ran: " + acked);
        assertFalse(killedMidStream == 0 && counter < ROUNDS, "the kills landed while patching");
    }
}

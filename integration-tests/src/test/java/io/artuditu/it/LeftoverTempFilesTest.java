package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a write cut short leaves (a kill -9 between AtomicFiles' temporary file and its
 * rename: {@code .NAME.DIGITS.tmp} beside the target) is removed at the next start by the part
 * that owns the target, and nothing else in the home is: not another program's temporary
 * file, not a name that only looks alike, not a folder.
 */
class LeftoverTempFilesTest {
    @TempDir
    Path home;

    static Path plant(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, "half a write");
    }

    @Test
    void leftoversOfInterruptedWritesAreRemovedAtStartAndNothingElseIs() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            assertTrue(Wire.call(s.socket, "config.patch", "{\"patch\":{\"layout\":{\"gap\":2}}}").has("result"));
        }
        Path lib;
        try (Stream<Path> files = Files.walk(home.resolve("native/pty4j"))) {
            lib = files.filter(f -> f.getFileName().toString().equals("libpty.so")).findFirst().orElseThrow();
        }
        List<Path> leftovers = List.of(
                plant(home.resolve(".config.toml.8043229921.tmp")),
                plant(home.resolve(".config.toml.18446744073709551615.tmp")),
                plant(home.resolve(".session.json.17.tmp")),
                plant(home.resolve("modules/.state.json.3.tmp")),
                plant(home.resolve("modules/.settings.json.4.tmp")),
                plant(home.resolve("modules/.ui.json.5.tmp")),
                plant(home.resolve("agents/.sessions.json.6.tmp")),
                plant(home.resolve("themes/.mine.toml.7.tmp")),
                plant(lib.resolveSibling(".libpty.so.8.tmp")),
                plant(home.resolve("shell/bash/.artuditu.bash.9.tmp")),
                plant(home.resolve("shell/zsh/..zshrc.10.tmp")),
                plant(home.resolve("scratch/ws-1/.000001-clip.png.11.tmp")));
        List<Path> kept = new ArrayList<>(List.of(
                plant(home.resolve("notes.txt")),
                plant(home.resolve(".config.toml.abc.tmp")),
                plant(home.resolve("config.toml.12.tmp")),
                plant(home.resolve(".config.toml.12.tmp.bak")),
                plant(home.resolve(".unknown.json.13.tmp")),
                plant(home.resolve("modules/.notes.json.14.tmp")),
                plant(home.resolve("themes/.mine.toml.part")),
                plant(home.resolve("themes/.readme.txt.15.tmp")),
                plant(home.resolve("scratch/ws-1/.clip.png.16.tmp"))));
        kept.add(Files.createDirectories(home.resolve(".session.json.19.tmp")));

        try (ForegroundServer s = new ForegroundServer(home)) {
            for (Path f : leftovers) {
                Terms.await(home.relativize(f) + " is removed at start", () -> !Files.exists(f, LinkOption.NOFOLLOW_LINKS));
            }
            for (Path f : kept) {
                assertTrue(Files.exists(f, LinkOption.NOFOLLOW_LINKS), home.relativize(f) + " is left alone");
                if (Files.isRegularFile(f)) {
                    assertEquals("half a write", Files.readString(f), home.relativize(f) + " is untouched");
                }
            }
            assertEquals(2, Wire.call(s.socket, "config.get", "{}").at("/result/config/layout/gap").asInt(),
                    "the targets themselves are read as ever");
        }
    }
}

package io.artuditu.terminal.internal.attach;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scratch folder at start: what a put_file cut short left goes, the files and anything else stay. */
class ScratchTest {
    @TempDir
    Path root;

    @Test
    void leftoversOfInterruptedPutsAreRemovedAtStartAndNothingElse() throws Exception {
        Path ws = Files.createDirectories(root.resolve("workspace_00000000000000a1"));
        Path none = Files.createDirectories(root.resolve("none"));
        List<Path> gone = List.of(Files.writeString(ws.resolve(".000007-clip.png.123.tmp"), "half"),
                Files.writeString(none.resolve(".000001-file.77.tmp"), "half"));
        List<Path> kept = List.of(Files.writeString(ws.resolve("000006-clip.png"), "a put file"),
                Files.writeString(ws.resolve(".clip.png.123.tmp"), "not a counted file's"),
                Files.writeString(root.resolve(".000001-file.5.tmp"), "not in a workspace folder"),
                Files.writeString(Files.createDirectories(root.resolve("not a workspace")).resolve(".000001-x.5.tmp"), "x"));
        new Scratch(root);
        for (Path g : gone) {
            assertFalse(Files.exists(g), g.toString());
        }
        for (Path k : kept) {
            assertTrue(Files.exists(k), k.toString());
        }
        new Scratch(root.resolve("missing")); // no folder yet: nothing to do
    }
}

package io.artuditu.pty.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The native library under the home: written whole, and what an interrupted write left is gone at start. */
class NativeLibsTest {
    @TempDir
    Path root;

    @Test
    void theLibraryIsWrittenAtomicallyAndLeftoversOfAnInterruptedWriteGo() throws Exception {
        String before = System.getProperty(NativeLibs.PTY4J_FOLDER_KEY);
        String jnaBefore = System.getProperty(NativeLibs.JNA_TMPDIR_KEY);
        try {
            Path dir = Files.createDirectories(root.resolve("pty4j").resolve(NativeLibs.osArchSubPath()));
            Path leftover = Files.writeString(dir.resolve(".libpty.so.5551212.tmp"), "half a library");
            Path other = Files.writeString(dir.resolve("README"), "not ours");
            Files.writeString(dir.resolve("libpty.so"), "an older library");
            NativeLibs.install(root);
            Path lib = dir.resolve("libpty.so");
            assertTrue(Files.size(lib) > 1000, "the real library replaced the old one");
            assertFalse(Files.exists(leftover));
            assertTrue(Files.exists(other));
            try (Stream<Path> s = Files.list(dir)) {
                assertEquals(List.of("README", "libpty.so"), s.map(p -> p.getFileName().toString()).sorted().toList(),
                        "nothing else is left beside it");
            }
        } finally {
            restore(NativeLibs.PTY4J_FOLDER_KEY, before);
            restore(NativeLibs.JNA_TMPDIR_KEY, jnaBefore);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}

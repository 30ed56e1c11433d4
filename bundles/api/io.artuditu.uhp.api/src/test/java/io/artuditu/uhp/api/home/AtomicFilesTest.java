package io.artuditu.uhp.api.home;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void replacesTheFileOwnerOnlyAndLeavesNoTemporaryFile() throws IOException {
        Path f = dir.resolve("session.json");
        Files.writeString(f, "old");
        assertTrue(AtomicFiles.write(f, "new".getBytes(StandardCharsets.UTF_8)));
        assertEquals("new", Files.readString(f));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        try (var s = Files.list(dir)) {
            assertEquals(List.of(f), s.toList());
        }
    }

    @Test
    void aFailedRenameKeepsWhatWasThereAndRemovesTheTemporaryFile() throws IOException {
        // a non-empty directory in the target's place: the rename fails, for root too
        Path f = dir.resolve("config.toml");
        Files.createDirectories(f.resolve("inside"));
        assertThrows(IOException.class, () -> AtomicFiles.write(f, new byte[] {1, 2, 3}));
        assertTrue(Files.isDirectory(f.resolve("inside")));
        try (var s = Files.list(dir)) {
            assertEquals(List.of(f), s.toList(), "no temporary file left");
        }
        Path g = dir.resolve("big");
        byte[] many = new byte[3 << 20];
        many[many.length - 1] = 7;
        AtomicFiles.write(g, many);
        assertArrayEquals(many, Files.readAllBytes(g));
    }
}

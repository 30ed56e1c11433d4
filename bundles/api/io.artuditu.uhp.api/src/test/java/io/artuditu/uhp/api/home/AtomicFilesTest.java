package io.artuditu.uhp.api.home;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    @Test
    void aGivenModeIsWhatTheNewFileHas() throws IOException {
        Path f = dir.resolve("settings.json");
        AtomicFiles.write(f, "{}".getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals("{}", Files.readString(f));
    }

    @Test
    void theTemporaryNameIsTheLeftoverPatternOfItsTargetOnly() {
        for (long n : new long[] {0, 1, 42, Long.MAX_VALUE, -1}) {
            String tmp = AtomicFiles.temporaryName("config.toml", n);
            assertEquals("config.toml", AtomicFiles.targetOf(tmp), tmp);
        }
        assertEquals(".config.toml.18446744073709551615.tmp", AtomicFiles.temporaryName("config.toml", -1));
        assertEquals("a.b", AtomicFiles.targetOf(".a.b.7.tmp"));
        for (String other : new String[] {"config.toml", "config.toml.1.tmp", ".config.toml.tmp", ".config.toml..tmp",
            ".config.toml.x1.tmp", ".config.toml.1.tmp.bak", ".config.toml.1.TMP", "..1.tmp",
            ".config.toml.18446744073709551616.tmp", ".config.toml.123456789012345678901.tmp"}) {
            assertNull(AtomicFiles.targetOf(other), other);
        }
    }

    @Test
    void leftoversOfATargetAreRemovedAndNothingElseIs() throws IOException {
        Path target = dir.resolve("config.toml");
        Files.writeString(target, "[layout]\ngap = 2\n");
        Path a = Files.writeString(dir.resolve(".config.toml.8043229921.tmp"), "half");
        Path b = Files.writeString(dir.resolve(".config.toml.18446744073709551615.tmp"), "");
        List<Path> kept = List.of(target,
                Files.writeString(dir.resolve("notes.txt"), "mine"),
                Files.writeString(dir.resolve(".config.toml.abc.tmp"), "not ours"),
                Files.writeString(dir.resolve("config.toml.1.tmp"), "not ours"),
                Files.writeString(dir.resolve(".config.toml.1.tmp.bak"), "not ours"),
                Files.writeString(dir.resolve(".session.json.77.tmp"), "another target's"),
                Files.createDirectory(dir.resolve(".config.toml.5.tmp")),
                Files.createSymbolicLink(dir.resolve(".config.toml.6.tmp"), dir.resolve("notes.txt")));
        assertEquals(2, AtomicFiles.removeLeftovers(target));
        assertFalse(Files.exists(a));
        assertFalse(Files.exists(b));
        for (Path k : kept) {
            assertTrue(Files.exists(k, java.nio.file.LinkOption.NOFOLLOW_LINKS), k + " is left alone");
        }
        assertEquals("mine", Files.readString(dir.resolve("notes.txt")), "a link's target is never touched");
        assertEquals(0, AtomicFiles.removeLeftovers(dir.resolve("gone/config.toml")), "no folder, nothing to do");
    }

    @Test
    void leftoversOfAFolderOfTargetsAreRemovedByTheirTargetsNames() throws IOException {
        Path x = Files.writeString(dir.resolve(".nord.toml.12.tmp"), "half");
        Path kept = Files.writeString(dir.resolve(".notes.txt.12.tmp"), "not a theme's");
        assertEquals(1, AtomicFiles.removeLeftovers(dir, n -> n.endsWith(".toml")));
        assertFalse(Files.exists(x));
        assertTrue(Files.exists(kept));
    }
}

package io.artuditu.themes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThemeFolderTest {
    @TempDir
    Path dir;

    static List<String> ids(ThemeFolder.Scan s) {
        return s.themes().stream().map(l -> l.theme().id()).toList();
    }

    static String problem(ThemeFolder.Scan s, String file) {
        return s.problems().stream().filter(p -> p.file().getFileName().toString().equals(file))
                .map(ThemeFolder.Problem::message).findFirst().orElse(null);
    }

    @Test
    void aMissingFolderIsEmptyAndThemesComeSortedById() throws Exception {
        assertEquals(List.of(), ThemeFolder.scan(dir.resolve("none"), Map.of()).themes());
        Files.writeString(dir.resolve("a.toml"), Palettes.plain("zeta", "#000000"));
        Files.writeString(dir.resolve("b.toml"), Palettes.plain("alpha", "#000000"));
        Files.writeString(dir.resolve(".hidden.toml"), "broken");
        Files.writeString(dir.resolve("notes.txt"), "not a theme");
        ThemeFolder.Scan s = ThemeFolder.scan(dir, Map.of());
        assertEquals(List.of("alpha", "zeta"), ids(s));
        assertEquals(List.of(), s.problems(), "hidden and non-.toml files are not read");
    }

    @Test
    void brokenFilesAreProblemsAndTheRestLoad() throws Exception {
        Files.writeString(dir.resolve("good.toml"), Palettes.plain("good", "#000000"));
        Files.writeString(dir.resolve("bad.toml"), "id = [");
        Files.write(dir.resolve("big.toml"), new byte[ThemeFormat.MAX_BYTES + 1]);
        Files.writeString(dir.resolve("twin.toml"), Palettes.plain("good", "#111111"));
        Files.writeString(dir.resolve("builtin.toml"), Palettes.plain("nord", "#111111"));
        Files.createDirectory(dir.resolve("folder.toml"));
        Files.createSymbolicLink(dir.resolve("out.toml"), Files.writeString(
                Files.createTempFile("outside", ".toml"), Palettes.plain("outside", "#000000")));
        Files.createSymbolicLink(dir.resolve("in.toml"), dir.resolve("good.toml"));
        new ProcessBuilder("mkfifo", dir.resolve("pipe.toml").toString()).start().waitFor();
        ThemeFolder.Scan s = ThemeFolder.scan(dir, Map.of("nord", "the built-in theme nord"));
        assertEquals(List.of("good"), ids(s));
        assertTrue(problem(s, "bad.toml").startsWith("not valid TOML"), problem(s, "bad.toml"));
        assertTrue(problem(s, "big.toml").startsWith("larger than 65536 bytes"));
        assertEquals("id 'good' is already used by good.toml", problem(s, "twin.toml"));
        assertEquals("id 'good' is already used by good.toml", problem(s, "in.toml"),
                "a link inside the folder is read, and its id is taken");
        assertEquals("id 'nord' is already used by the built-in theme nord", problem(s, "builtin.toml"));
        assertEquals("not a regular file", problem(s, "folder.toml"));
        assertEquals("not a regular file", problem(s, "pipe.toml"), "a FIFO is never opened");
        assertTrue(problem(s, "out.toml").startsWith("a symbolic link out of the themes folder"));
    }

    @Test
    void atMost256FilesAreRead() throws Exception {
        for (int i = 0; i < ThemeFolder.MAX_FILES + 3; i++) {
            Files.writeString(dir.resolve(String.format("t%03d.toml", i)), Palettes.plain("t" + i, "#000000"));
        }
        ThemeFolder.Scan s = ThemeFolder.scan(dir, Map.of());
        assertEquals(ThemeFolder.MAX_FILES, s.themes().size());
        assertEquals(1, s.problems().size());
        assertTrue(s.problems().get(0).message().startsWith("more than 256 theme files; 3 after t255.toml"));
    }

    /** One version of a large theme: its background at the top, its border at the bottom, 48 KiB between. */
    static String version(String background, String variant, String border) {
        return Palettes.plain("busy", background).replace("variant = \"dark\"", "variant = \"" + variant + "\"")
                + ("# " + "padding ".repeat(100) + "\n").repeat(60) + "\n[workbench]\nborder = \"" + border + "\"\n";
    }

    /**
     * A file rewritten over and over while it is read, each version the same length and larger
     * than one read: a read that spans two versions (the head of one, the tail of the other)
     * would parse as a theme neither version is. Each read must be (a state of) one version or
     * a problem.
     */
    @Test
    void aFileRewrittenWhileItIsReadIsNeverParsedFromTwoVersions() throws Exception {
        Path f = dir.resolve("busy.toml");
        String a = version("#000000", "dark", "#111111");
        String b = version("#ffffff", "dark", "#222222");
        assertEquals(a.length(), b.length());
        Files.writeString(f, a);
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; !stop.get(); i++) {
                    // truncate, then write, as an editor without atomic saves does (a rewrite in
                    // place holds two versions at once in the file itself: no reader can help that)
                    Files.writeString(f, i % 2 == 0 ? b : a);
                    // a short rest so a loaded machine's reader also lands between writes
                    if (i % 8 == 7) Thread.sleep(1);
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        int whole = 0;
        try {
            // at least 500 reads, and on until one saw a whole version (a busy CI machine may tear
            // every read of the first 500); 20 s bounds it
            long deadline = System.nanoTime() + 20_000_000_000L;
            for (int i = 0; i < 500 || whole == 0 && System.nanoTime() < deadline; i++) {
                ThemeFolder.Scan s = ThemeFolder.scan(dir, Map.of());
                if (!s.themes().isEmpty()) {
                    Theme t = s.themes().get(0).theme();
                    int bg = t.colors().get("background");
                    int border = t.workbench().get("border");
                    // a version still being written may show without its tail (the border derived,
                    // #555555); the head of one version with the tail of the other must never show
                    assertTrue(bg == 0x000000 && border != 0x222222 || bg == 0xffffff && border != 0x111111,
                            "one version's bytes, not two: background " + Rgb.hex(bg) + ", border " + Rgb.hex(border));
                    whole++;
                } else {
                    assertEquals(1, s.problems().size(), "a torn read is a problem, never a mixed theme");
                }
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertTrue(whole > 0, "some reads saw a whole version");
    }
}

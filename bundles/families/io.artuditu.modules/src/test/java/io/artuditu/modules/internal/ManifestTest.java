package io.artuditu.modules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.uhp.api.Scope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one module.toml reader, on real folders: what it accepts and the first problem it names. */
class ManifestTest {
    static final String HEAD = "id = \"m\"\nname = \"M\"\nversion = \"1.2.3\"\napi = \"[1.0,2.0)\"\n";

    @TempDir
    Path dir;

    Manifest folder(String toml) throws Exception {
        Files.writeString(dir.resolve("module.toml"), toml);
        return Manifest.ofFolder(dir);
    }

    String refused(String toml) {
        return assertThrows(Manifest.Invalid.class, () -> folder(toml)).getMessage();
    }

    static Manifest bundle(String toml) throws Manifest.Invalid {
        return Manifest.parse(toml.getBytes(StandardCharsets.UTF_8), null);
    }

    @Test
    void aFullScriptManifest() throws Exception {
        Path run = Files.createDirectories(dir.resolve("bin")).resolve("go.sh");
        Files.writeString(run, "#!/bin/sh\n");
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
        Manifest m = folder(HEAD + "description = \"" + "d".repeat(1024) + "\"\nscopes = [\"read\", \"extensions\"]\n"
                + "on_enable = \"go\"\n[[actions]]\nid = \"go\"\ntitle = \"Go\"\nrun = \"bin/go.sh\"\nargs = [\"-v\"]\n"
                + "timeout_ms = 500\nevery_ms = 1000\n[[docks]]\nid = \"d\"\nplacement = \"right\"\n"
                + "[[bars]]\nid = \"b\"\nregion = \"bottom-right\"\npriority = -3\n"
                + "[[settings]]\nkey = \"k\"\ntype = \"choice\"\nchoices = [\"a\", \"b\"]\ndefault = \"b\"\n");
        assertEquals("m", m.id());
        assertEquals(Set.of(Scope.READ, Scope.EXTENSIONS), m.scopes());
        Manifest.Action a = m.actions().get("go");
        assertEquals(run.toRealPath(), a.run());
        assertEquals(500, a.timeoutMs());
        assertEquals(1000, a.everyMs());
        assertEquals("right", m.docks().get("d").placement());
        assertEquals("d", m.docks().get("d").title(), "a dock's title defaults to its id");
        assertEquals(-3, m.bars().get("b").priority());
        assertEquals("b", m.settings().get("k").defaultValue().asText());
    }

    @Test
    void defaults() throws Exception {
        Manifest m = folder(HEAD + "[[bars]]\nid = \"b\"\n");
        assertEquals(Set.of(Scope.READ), m.scopes());
        assertEquals("top-right", m.bars().get("b").region());
        assertEquals(0, m.bars().get("b").priority());
        assertEquals("", m.description());
    }

    @Test
    void eachProblemIsNamed() throws Exception {
        assertEquals("colour: is not a known field", refused(HEAD + "colour = 1\n"));
        assertEquals("docks[0].width: is not a known field", refused(HEAD + "[[docks]]\nid = \"d\"\nwidth = 3\n"));
        assertTrue(refused(HEAD.replace("1.2.3", "one")).startsWith("version: must be an OSGi version"));
        assertTrue(refused(HEAD.replace("[1.0,2.0)", "[1.1,2.0)")).startsWith("api: module needs Artuditu API [1.1,2.0)"));
        assertTrue(refused(HEAD.replace("[1.0,2.0)", "nonsense")).startsWith("api: must be a version range"));
        assertTrue(refused(HEAD.replace("id = \"m\"", "id = \"Bad Id\"")).startsWith("id: must match ^[a-z0-9]"));
        assertEquals("scopes: must have at least 1 items", refused(HEAD + "scopes = []\n"));
        assertTrue(refused(HEAD + "scopes = [\"root\"]\n").startsWith("scopes[0]: must be one of [\"read\""));
        assertEquals("description: must be at most 1024 bytes",
                refused(HEAD + "description = \"" + "d".repeat(1025) + "\"\n"));
        assertTrue(refused(HEAD + "name = \"x\"\n").contains("not valid TOML"), "a key given twice");
        assertTrue(refused(HEAD + "[[settings]]\nkey = \"n\"\ntype = \"integer\"\ndefault = 0\nmin = 1\n")
                .startsWith("settings[0].default: must be from 1"));
        assertEquals("settings[0].min: needs type = \"integer\"",
                refused(HEAD + "[[settings]]\nkey = \"n\"\ntype = \"string\"\ndefault = \"x\"\nmin = 1\n"));
        assertEquals("actions[0].every_ms: must be at least 1000",
                refused(HEAD + "[[actions]]\nid = \"a\"\nrun = \"a.sh\"\nevery_ms = 999\n"),
                "the schema is checked whole before the action file is looked at");
        assertEquals("id: is required", refused(""), "an empty file");
        assertTrue(refused(HEAD + "description = \"" + "x".repeat(Manifest.MAX_BYTES) + "\"\n").contains("larger than"));
    }

    @Test
    void actionFilesStayInsideTheFolder() throws Exception {
        Path outside = Files.createTempFile("outside", ".sh");
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rwx------"));
        Files.createSymbolicLink(dir.resolve("link.sh"), outside);
        Files.writeString(dir.resolve("plain.sh"), "#!/bin/sh\n");
        Files.createDirectories(dir.resolve("sub"));
        String a = HEAD + "[[actions]]\nid = \"a\"\nrun = ";
        assertTrue(refused(a + "\"link.sh\"\n").contains("link to a file outside"));
        assertTrue(refused(a + "\"../x.sh\"\n").contains("outside the module folder"));
        assertTrue(refused(a + "\"" + outside + "\"\n").contains("inside the module folder"));
        assertTrue(refused(a + "\"plain.sh\"\n").contains("not executable"));
        assertTrue(refused(a + "\"sub\"\n").contains("not a regular file"));
        Files.delete(outside);
    }

    @Test
    void aBundleModulesActionsAreJava() throws Exception {
        Manifest m = bundle(HEAD + "[[actions]]\nid = \"a\"\n");
        assertEquals(null, m.actions().get("a").run());
        assertTrue(assertThrows(Manifest.Invalid.class, () -> bundle(HEAD + "[[actions]]\nid = \"a\"\nrun = \"x\"\n"))
                .getMessage().contains("Java handlers"));
        assertTrue(assertThrows(Manifest.Invalid.class, () -> bundle(HEAD + "[[actions]]\nid = \"a\"\nevery_ms = 1000\n"))
                .getMessage().contains("schedules its own work"));
        assertTrue(assertThrows(Manifest.Invalid.class, () -> bundle(HEAD + "on_enable = \"a\"\n[[actions]]\nid = \"a\"\n"))
                .getMessage().startsWith("on_enable: is for script modules"));
    }
}

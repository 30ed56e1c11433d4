package io.artuditu.modules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Setting values: type checks, the file they persist in, and a broken file. */
class SettingsTest {
    @TempDir
    Path dir;

    @Test
    void valuesPersistAndABrokenFileMeansDefaults() throws Exception {
        Manifest m = Manifest.parse(("id = \"m\"\nname = \"m\"\nversion = \"1.0.0\"\napi = \"[1.0,2.0)\"\n"
                + "[[settings]]\nkey = \"n\"\ntype = \"integer\"\ndefault = 5\nmin = 1\nmax = 9\n").getBytes(StandardCharsets.UTF_8),
                null);
        Manifest.Setting n = m.settings().get("n");
        JsonNodeFactory f = JsonNodeFactory.instance;
        assertNull(Settings.check(n, f.numberNode(9)));
        assertEquals("must be from 1 to 9", Settings.check(n, f.numberNode(10)));
        assertEquals("must be an integer", Settings.check(n, f.textNode("3")));
        Path file = dir.resolve("modules/settings.json");
        Settings s = new Settings(file);
        assertEquals(5, s.get("m", n).asInt());
        s.set("m", "n", f.numberNode(7));
        assertEquals(7, new Settings(file).get("m", n).asInt(), "read back from the file");
        s.set("m", "n", f.nullNode());
        assertEquals(5, new Settings(file).get("m", n).asInt(), "null resets");
        Files.writeString(file, "{not json");
        assertEquals(5, new Settings(file).get("m", n).asInt(), "a broken file: defaults, no failure");
        Files.writeString(file, "{\"m\":{\"n\":\"seven\"}}");
        assertEquals(5, new Settings(file).get("m", n).asInt(), "a stored value of the wrong type is not used");
    }
}

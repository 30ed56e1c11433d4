package io.artuditu.files.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathRuleTest {
    @TempDir
    Path tmp;

    @Test
    void percentDecodingIsOnePassOfUtf8() {
        assertEquals("é/x", PathRule.percentDecode("path", "%C3%A9/x"));
        assertEquals("%2e%2e", PathRule.percentDecode("path", "%252e%252e"), "once: a literal %2e%2e stays a name");
        assertEquals("100%", PathRule.percentDecode("path", "100%25"));
        UhpException e = org.junit.jupiter.api.Assertions.assertThrows(UhpException.class,
                () -> PathRule.percentDecode("path", "100%"));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals(Map.of("field", "path", "reason", "bad_percent_encoding", "path", "100%"), e.details());
    }

    @Test
    void insidePathsResolveRelativeToTheRealRootAndMissingOnesAreAllowed() throws Exception {
        Path real = Files.createDirectories(tmp.resolve("real"));
        Files.createDirectories(real.resolve("a"));
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), real);
        PathRule rule = new PathRule(alias);
        assertEquals(real.toRealPath(), rule.realRoot());
        PathRule.Resolved r = rule.resolve("path", "a/./b/../");
        assertEquals("a", r.rel());
        assertTrue(r.exists());
        PathRule.Resolved missing = rule.resolve("path", alias.resolve("a/new.txt").toString());
        assertEquals("a/new.txt", missing.rel());
        assertFalse(missing.exists());
        assertEquals("", rule.resolve("path", ".").rel());
    }

    @Test
    void theConfigTableDefaultsSatisfyItsSchema() {
        FilesFamily f = new FilesFamily(null, Map.of(), () -> null);
        try {
            ObjectNode d = f.defaults();
            assertEquals(Map.of("show_hidden", false, "show_ignored", false),
                    Map.of("show_hidden", d.get("show_hidden").asBoolean(), "show_ignored", d.get("show_ignored").asBoolean()));
            assertTrue(JsonSchema.compile(f.schema()).validate(d, "files").isEmpty());
            assertFalse(JsonSchema.compile(f.schema()).validate(Harness.params("{\"show_dotfiles\":true}"), "files").isEmpty());
        } finally {
            f.deactivate();
        }
    }
}

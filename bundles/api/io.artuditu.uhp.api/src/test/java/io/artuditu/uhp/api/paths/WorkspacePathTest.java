package io.artuditu.uhp.api.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspacePathTest {
    @TempDir
    Path tmp;

    @Test
    void percentDecodingIsOnePassOfUtf8() {
        assertEquals("é/x", WorkspacePath.percentDecode("path", "%C3%A9/x"));
        assertEquals("%2e%2e", WorkspacePath.percentDecode("path", "%252e%252e"), "once: a literal %2e%2e stays a name");
        assertEquals("100%", WorkspacePath.percentDecode("path", "100%25"));
        UhpException e = org.junit.jupiter.api.Assertions.assertThrows(UhpException.class,
                () -> WorkspacePath.percentDecode("path", "100%"));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals(Map.of("field", "path", "reason", "bad_percent_encoding", "path", "100%"), e.details());
    }

    @Test
    void insidePathsResolveRelativeToTheRealRootAndMissingOnesAreAllowed() throws Exception {
        Path real = Files.createDirectories(tmp.resolve("real"));
        Files.createDirectories(real.resolve("a"));
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), real);
        WorkspacePath rule = new WorkspacePath(alias);
        assertEquals(real.toRealPath(), rule.realRoot());
        WorkspacePath.Resolved r = rule.resolve("path", "a/./b/../");
        assertEquals("a", r.rel());
        assertTrue(r.exists());
        WorkspacePath.Resolved missing = rule.resolve("path", alias.resolve("a/new.txt").toString());
        assertEquals("a/new.txt", missing.rel());
        assertFalse(missing.exists());
        assertEquals("", rule.resolve("path", ".").rel());
    }
}

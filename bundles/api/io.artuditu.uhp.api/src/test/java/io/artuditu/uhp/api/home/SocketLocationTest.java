package io.artuditu.uhp.api.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SocketLocationTest {
    private final long uid = SocketLocation.currentUid();

    @Test
    void homeComesFromTheEnvironmentOrTheUsersHome() {
        assertEquals(Path.of("/x/y"), SocketLocation.home(Map.of("ARTUDITU_HOME", "/x/y")));
        assertEquals(Path.of(System.getProperty("user.home"), ".artuditu"), SocketLocation.home(Map.of()));
        assertEquals(Path.of(System.getProperty("user.home"), ".artuditu"), SocketLocation.home(Map.of("ARTUDITU_HOME", "")));
    }

    @Test
    void aServerPropertyOverridesTheEnvironment() {
        assertEquals(Path.of("/p"), SocketLocation.home("/p", Map.of("ARTUDITU_HOME", "/x")));
        assertEquals(Path.of("/x"), SocketLocation.home(" ", Map.of("ARTUDITU_HOME", "/x")));
        assertEquals(Path.of("/x"), SocketLocation.home(null, Map.of("ARTUDITU_HOME", "/x")));
    }

    @Test
    void defaultAndNamedSessions() {
        Path home = Path.of("/h");
        assertEquals(Path.of("/h/artuditu.sock"), SocketLocation.resolve(home, null, uid).logical());
        assertEquals(Path.of("/h/artuditu.sock"), SocketLocation.resolve(home, "default", uid).bind());
        SocketLocation named = SocketLocation.resolve(home, "work", uid);
        assertEquals(Path.of("/h/sessions/work/artuditu.sock"), named.logical());
        assertEquals("work", named.session());
        assertFalse(named.aliased());
    }

    @Test
    void refusesSessionNamesThatEscapeTheHome() {
        for (String bad : new String[] {"../x", "a/b", "", ".hidden", "a..b", "x".repeat(65)}) {
            assertThrows(IllegalArgumentException.class, () -> SocketLocation.resolve(Path.of("/h"), bad, uid), bad);
        }
    }

    @Test
    void longPathsGetADeterministicShortAlias() {
        Path home = Path.of("/tmp/" + "deep/".repeat(30));
        SocketLocation a = SocketLocation.resolve(home, "s1", uid);
        SocketLocation b = SocketLocation.resolve(home, "s1", uid);
        SocketLocation c = SocketLocation.resolve(home, "s2", uid);
        assertTrue(a.aliased());
        assertEquals(a.bind(), b.bind());
        assertFalse(a.bind().equals(c.bind()));
        assertEquals(SocketLocation.aliasDirectory(uid), a.bind().getParent());
        assertTrue(a.bind().toString().length() <= SocketLocation.MAX_SOCKET_PATH_BYTES);
    }

    @Test
    void aliasesLiveInTheNativeStickyTemporaryRoot() {
        assertEquals("/private/tmp", SocketLocation.temporaryRoot("Mac OS X"));
        assertEquals("/tmp", SocketLocation.temporaryRoot("Linux"));
        assertEquals("/tmp", SocketLocation.temporaryRoot("FreeBSD"));
    }

    @Test
    void ownerOnlyDirectoryIsCreatedWith0700(@TempDir Path tmp) throws IOException {
        Path d = tmp.resolve("a/b");
        SocketLocation.ensureOwnerOnlyDirectory(d, uid);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)));
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
        SocketLocation.ensureOwnerOnlyDirectory(d, uid);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)));
        assertThrows(IOException.class, () -> SocketLocation.ensureOwnerOnlyDirectory(d, uid + 1));
    }
}

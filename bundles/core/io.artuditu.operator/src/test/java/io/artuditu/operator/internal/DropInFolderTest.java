package io.artuditu.operator.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DropInFolderTest {
    @Test
    void onlyFinishedVisibleJarNamesAreConsidered() {
        assertTrue(DropInFolder.considered("a.jar"));
        assertTrue(DropInFolder.considered("io.example-1.2.jar"));
        for (String name : new String[] {".a.jar", "a.jar.part", "a.jar.tmp", "a.jar.crdownload", "a.zip", ".jar",
                "a.JAR.part", "README"}) {
            assertFalse(DropInFolder.considered(name), name);
        }
    }

    @Test
    void locationsRoundTripAndOthersAreNotDropIns() {
        assertEquals("dropin:a.jar", DropInFolder.location("a.jar"));
        assertEquals(Optional.of("a.jar"), DropInFolder.fileName("dropin:a.jar"));
        assertEquals(Optional.empty(), DropInFolder.fileName("file:///x/a.jar"));
        assertEquals(Optional.empty(), DropInFolder.fileName("dropin:"));
        assertEquals(Optional.empty(), DropInFolder.fileName("dropin:../a.jar/"));
    }
}

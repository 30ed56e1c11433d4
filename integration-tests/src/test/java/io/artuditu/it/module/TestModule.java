package io.artuditu.it.module;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Packs a small module bundle from this package's compiled classes and
 * {@code src/test/resources/module}: {@link HalfFamily} (one good method, one broken
 * contract row) and {@link FailingFamily} (its component fails to activate), both
 * Declarative Services components, the contract named by {@code Artuditu-Contract}. Built
 * at test time, so the reactor needs no module of its own for it.
 */
public final class TestModule {
    public static final String BSN = "io.artuditu.it.half";

    private static final String[] ENTRIES = {
        "io/artuditu/it/module/HalfFamily.class",
        "io/artuditu/it/module/FailingFamily.class",
        "protocol/it.half.json",
        "OSGI-INF/HalfFamily.xml",
        "OSGI-INF/FailingFamily.xml",
    };

    private TestModule() {
    }

    /** Writes the bundle to {@code dir/it-half.jar} and returns its path. */
    public static Path jar(Path dir) {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", BSN);
        a.putValue("Bundle-Version", "1.0.0");
        a.putValue("Import-Package", "io.artuditu.uhp.api;version=\"[2.0,3)\",io.artuditu.uhp.api.schema;version=\"[2.0,3)\","
                + "com.fasterxml.jackson.databind,com.fasterxml.jackson.databind.node");
        a.putValue("Service-Component", "OSGI-INF/HalfFamily.xml,OSGI-INF/FailingFamily.xml");
        a.putValue("Artuditu-Contract", "protocol/it.half.json");
        Path jar = dir.resolve("it-half.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            for (String e : ENTRIES) {
                String from = e.endsWith(".class") ? "/" + e : "/module/" + e;
                try (InputStream in = TestModule.class.getResourceAsStream(from)) {
                    if (in == null) {
                        throw new IllegalStateException("missing from the test class path: " + from);
                    }
                    out.putNextEntry(new JarEntry(e));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }
}

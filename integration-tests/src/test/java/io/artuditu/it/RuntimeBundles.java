package io.artuditu.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * The project's own bundles in the exported server runtime ({@code distribution/target/artuditu.jar},
 * which embeds every bundle it runs under {@code jar/}), copied out once per test JVM: what the
 * server runs, readable without starting it.
 */
final class RuntimeBundles {
    static final Path SERVER_JAR = Reactor.ROOT.resolve("distribution/target/artuditu.jar");
    private static final List<Path> BUNDLES = extract();

    private RuntimeBundles() {
    }

    /** Every {@code io.artuditu.*} bundle the runtime embeds, in the order it lists them. */
    static List<Path> all() {
        return BUNDLES;
    }

    /** Those whose manifest names contract files ({@code Artuditu-Contract}). */
    static List<Path> withContract() {
        List<Path> out = new ArrayList<>();
        for (Path b : BUNDLES) {
            if (attributes(b).getValue("Artuditu-Contract") != null) {
                out.add(b);
            }
        }
        return out;
    }

    /** A bundle's symbolic name, without directives. */
    static String bsn(Path bundle) {
        return attributes(bundle).getValue("Bundle-SymbolicName").split(";", 2)[0].trim();
    }

    static Attributes attributes(Path bundle) {
        try (JarFile jar = new JarFile(bundle.toFile())) {
            return jar.getManifest().getMainAttributes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> extract() {
        if (!Files.isRegularFile(SERVER_JAR)) {
            throw new IllegalStateException(SERVER_JAR + " does not exist: build the distribution first (mvn verify)");
        }
        try {
            Path dir = Files.createTempDirectory("artuditu-runtime-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "artuditu-runtime-cleanup"));
            List<Path> out = new ArrayList<>();
            try (JarFile jar = new JarFile(SERVER_JAR.toFile())) {
                for (Enumeration<? extends ZipEntry> e = jar.entries(); e.hasMoreElements();) {
                    ZipEntry entry = e.nextElement();
                    String name = entry.getName();
                    if (name.startsWith("jar/io.artuditu.") && name.endsWith(".jar")) {
                        Path to = dir.resolve(name.substring("jar/".length()));
                        try (InputStream in = jar.getInputStream(entry)) {
                            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                        }
                        out.add(to);
                    }
                }
            }
            if (out.isEmpty()) {
                throw new IllegalStateException(SERVER_JAR + " embeds no io.artuditu bundle");
            }
            return Collections.unmodifiableList(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a leftover temp folder harms nothing
        }
    }
}

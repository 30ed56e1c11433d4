package io.artuditu.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Jars this reactor built, found by bundle symbolic name: a bundle's folder is named after it,
 * under one of {@code bundles/}'s role folders or under {@code modules-sdk/}, and its jar is
 * the one in the folder's {@code target/}. No test names a jar's path, and no pom passes one.
 */
public final class Reactor {
    /** The checkout (the pom sets {@code artuditu.root}; the module folder's parent otherwise). */
    public static final Path ROOT = Path.of(System.getProperty("artuditu.root", "..")).toAbsolutePath().normalize();

    private Reactor() {
    }

    /** The jar the reactor built for bundle {@code bsn}; it must exist. */
    public static Path jar(String bsn) {
        Path folder = folder(bsn);
        List<Path> jars;
        try (Stream<Path> files = Files.list(folder.resolve("target"))) {
            jars = files.filter(f -> {
                String n = f.getFileName().toString();
                return n.startsWith(bsn + "-") && n.endsWith(".jar") && !n.endsWith("-sources.jar") && !n.endsWith("-tests.jar")
                        && !n.endsWith("-javadoc.jar");
            }).collect(Collectors.toList());
        } catch (IOException e) {
            throw new IllegalStateException(folder + "/target has no jar: build the reactor first (mvn verify)", e);
        }
        if (jars.size() != 1) {
            throw new IllegalStateException(folder + "/target should hold one " + bsn + " jar, holds " + jars);
        }
        return jars.get(0);
    }

    /** The folder that builds bundle {@code bsn}: {@code bundles/<role>/<bsn>} or {@code modules-sdk/<bsn>}. */
    public static Path folder(String bsn) {
        try (Stream<Path> roles = Files.list(ROOT.resolve("bundles"))) {
            return Stream.concat(roles.map(r -> r.resolve(bsn)), Stream.of(ROOT.resolve("modules-sdk").resolve(bsn)))
                    .filter(Files::isDirectory).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no folder " + bsn + " under bundles/ or modules-sdk/"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.artuditu.it.osgi;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.cleanCaches;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.options;
import static org.ops4j.pax.exam.CoreOptions.systemPackage;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.ops4j.pax.exam.Option;

/**
 * The runtime every Pax Exam test boots: Felix (from the test class path) with SCR, the DS
 * and promise APIs, Jackson and the project's four runtime bundles, as the
 * distribution's {@code artuditu.bndrun} lists them. Third-party bundles come by {@code mvn:}
 * URL from the local repository (the pom pre-fetches them; nothing is downloaded at test
 * time); the reactor's own bundles by {@code file:} URL from their {@code target/} folders.
 *
 * <p>Runs on the driver side, once per test class: each class gets a fresh Artuditu home,
 * and so its own socket. {@code artuditu.standalone} stays unset, so nothing in the
 * runtime may end this JVM.
 */
final class PaxRuntime {
    private PaxRuntime() {
    }

    static Option[] runtime() {
        Path home = freshHome();
        return options(
                // The API bundle reads the process uid through the JDK's UnixSystem.
                systemPackage("com.sun.security.auth.module"),
                frameworkProperty("artuditu.home").value(home.toString()),
                // A result that breaks its method's schema answers internal_error.
                systemProperty("artuditu.uhp.strict-results").value("true"),
                cleanCaches(),
                mavenBundle("org.osgi", "org.osgi.util.function").versionAsInProject(),
                mavenBundle("org.osgi", "org.osgi.util.promise").versionAsInProject(),
                mavenBundle("org.osgi", "org.osgi.service.component").versionAsInProject(),
                mavenBundle("org.apache.felix", "org.apache.felix.scr").versionAsInProject(),
                mavenBundle("com.fasterxml.jackson.core", "jackson-annotations").versionAsInProject(),
                mavenBundle("com.fasterxml.jackson.core", "jackson-core").versionAsInProject(),
                mavenBundle("com.fasterxml.jackson.core", "jackson-databind").versionAsInProject(),
                reactorBundle("artuditu.bundle.uhp.api"),
                reactorBundle("artuditu.bundle.dispatcher"),
                reactorBundle("artuditu.bundle.server"),
                reactorBundle("artuditu.bundle.discovery"),
                junitBundles());
    }

    /** A bundle this reactor built, by the path the pom passes in a system property. */
    static Option reactorBundle(String property) {
        return bundle(jar(property).toUri().toString());
    }

    /** A jar the pom names in a system property; it must exist (the reactor built it). */
    static Path jar(String property) {
        String path = System.getProperty(property);
        if (path == null) {
            throw new IllegalStateException("system property " + property + " is not set: run through Maven");
        }
        Path jar = Path.of(path).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: build the reactor first (mvn verify)");
        }
        return jar;
    }

    private static Path freshHome() {
        try {
            // Under the system temp folder: short enough for a Unix socket path, no alias.
            Path home = Files.createTempDirectory("artuditu-pax-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(home), "artuditu-pax-cleanup"));
            return home;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a leftover temp folder harms nothing
        }
    }
}

package io.artuditu.it.osgi;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.cleanCaches;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.options;
import static org.ops4j.pax.exam.CoreOptions.systemPackage;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import io.artuditu.it.Reactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.ops4j.pax.exam.Option;

/**
 * The runtime every Pax Exam test boots: Felix (from the test class path) with SCR, the DS
 * and promise APIs, Jackson and four of the project's bundles (the API, the
 * dispatcher, the socket server, discovery): a part of the distribution's runtime.
 * Third-party bundles come by {@code mvn:} URL from the local repository (the pom pre-fetches
 * them; nothing is downloaded at test time); the reactor's own bundles by {@code file:} URL
 * from their {@code target/} folders, found by symbolic name ({@link Reactor#jar}).
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
                reactorBundle("io.artuditu.uhp.api"),
                reactorBundle("io.artuditu.dispatcher"),
                reactorBundle("io.artuditu.server"),
                reactorBundle("io.artuditu.discovery"),
                junitBundles());
    }

    /** A bundle this reactor built, by its symbolic name, from its folder's {@code target/}. */
    static Option reactorBundle(String bsn) {
        return bundle(Reactor.jar(bsn).toUri().toString());
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

package io.artuditu.operator.internal;

import io.artuditu.uhp.api.home.SocketLocation;
import java.nio.file.Path;
import java.util.Optional;
import org.osgi.framework.BundleContext;

/**
 * The drop-in folder's naming rules, shared by the watcher and the family.
 *
 * <p>A bundle installed from the folder has the location {@code dropin:<file name>}: it
 * names the file relative to the folder, so it survives a moved home, and it can never
 * be confused with a bundle an operator installed by path ({@code file:} URI).
 */
final class DropInFolder {
    static final String SCHEME = "dropin:";
    static final String FOLDER = "bundles";

    private DropInFolder() {
    }

    /**
     * {@code <home>/bundles}, where home is the framework property {@code artuditu.home}
     * when set, else the rule every client uses ({@link SocketLocation#home}).
     */
    static Path of(BundleContext context) {
        return SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv())
                .toAbsolutePath().normalize().resolve(FOLDER);
    }

    /**
     * Whether a file in the folder is a candidate at all: a {@code .jar} name that is not
     * hidden. The names tools give files they are still writing ({@code x.jar.part},
     * {@code x.jar.tmp}, {@code x.jar.crdownload}, rsync's {@code .x.jar.AbCdEf}) never
     * pass, so a copy becomes visible only when it is renamed to its final name.
     */
    static boolean considered(String name) {
        return !name.startsWith(".") && name.endsWith(".jar") && name.length() > ".jar".length();
    }

    static String location(String fileName) {
        return SCHEME + fileName;
    }

    /** The file name a drop-in location stands for; empty for any other location. */
    static Optional<String> fileName(String location) {
        if (location == null || !location.startsWith(SCHEME)) {
            return Optional.empty();
        }
        String name = location.substring(SCHEME.length());
        return name.isEmpty() || name.contains("/") ? Optional.empty() : Optional.of(name);
    }
}

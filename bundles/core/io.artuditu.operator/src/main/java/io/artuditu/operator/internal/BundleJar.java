package io.artuditu.operator.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.osgi.framework.Constants;
import org.osgi.framework.Version;

/**
 * What a jar file says about itself before the framework sees it.
 *
 * @param symbolicName the Bundle-SymbolicName without directives
 * @param version      the Bundle-Version, {@link Version#emptyVersion} when absent
 * @param core         whether the manifest claims {@code Artuditu-Core: true}
 */
record BundleJar(String symbolicName, Version version, boolean core) {
    /** The manifest header that marks a bundle the running server depends on. */
    static final String CORE_HEADER = "Artuditu-Core";

    /** The jar opened but is not a bundle: waiting will not change that. */
    static final class NotABundle extends Exception {
        private static final long serialVersionUID = 1L;

        NotABundle(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Reads the manifest of {@code file}.
     *
     * @throws IOException when the file is not (yet) a readable zip: a zip's directory is
     *                     at its end, so a file still being written fails here
     * @throws NotABundle  when the jar is complete but has no usable bundle manifest
     */
    static BundleJar read(Path file) throws IOException, NotABundle {
        Manifest mf;
        try (JarFile jar = new JarFile(file.toFile(), false)) {
            mf = jar.getManifest();
        }
        if (mf == null) {
            throw new NotABundle("the jar has no META-INF/MANIFEST.MF");
        }
        Attributes main = mf.getMainAttributes();
        String bsn = main.getValue(Constants.BUNDLE_SYMBOLICNAME);
        if (bsn == null || bsn.isBlank()) {
            throw new NotABundle("the manifest has no Bundle-SymbolicName");
        }
        int semi = bsn.indexOf(';');
        String name = (semi < 0 ? bsn : bsn.substring(0, semi)).trim();
        Version version;
        try {
            version = Version.parseVersion(main.getValue(Constants.BUNDLE_VERSION));
        } catch (IllegalArgumentException e) {
            throw new NotABundle("the manifest's Bundle-Version is invalid: " + e.getMessage());
        }
        return new BundleJar(name, version, "true".equalsIgnoreCase(trim(main.getValue(CORE_HEADER))));
    }

    private static String trim(String s) {
        return s == null ? null : s.trim();
    }
}

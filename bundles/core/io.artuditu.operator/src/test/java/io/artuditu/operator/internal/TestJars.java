package io.artuditu.operator.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Random;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Bundles made on the fly: a manifest and a block of incompressible padding. */
final class TestJars {
    private TestJars() {
    }

    /** A bundle; {@code headers} are extra "Name: value" manifest lines. */
    static byte[] bundle(String symbolicName, String version, String... headers) {
        Manifest mf = new Manifest();
        Attributes a = mf.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", symbolicName);
        a.putValue("Bundle-Version", version);
        for (String h : headers) {
            int colon = h.indexOf(':');
            a.putValue(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
        }
        return jar(mf);
    }

    /** A well-formed jar whose manifest is not a bundle's. */
    static byte[] plainJar() {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        return jar(mf);
    }

    private static byte[] jar(Manifest mf) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(buf, mf)) {
            out.putNextEntry(new JarEntry("padding.bin"));
            byte[] noise = new byte[32 * 1024];
            new Random(42).nextBytes(noise);
            out.write(noise);
            out.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buf.toByteArray();
    }

    static Path write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, bytes);
    }

    /** Writes next to {@code file} under a {@code .part} name, then renames it into place. */
    static Path publish(Path file, byte[] bytes) throws IOException {
        Path part = file.resolveSibling(file.getFileName() + ".part");
        write(part, bytes);
        return Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}

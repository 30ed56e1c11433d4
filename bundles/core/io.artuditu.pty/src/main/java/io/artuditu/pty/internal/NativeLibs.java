package io.artuditu.pty.internal;

import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Puts pty4j's native library in a fixed folder and points pty4j and JNA there, so no
 * run leaves a {@code /tmp/pty4j-*} or {@code /tmp/jna-*} folder behind (build notes, item 7).
 *
 * <p>Layout under {@code root} (normally {@code <home>/native}): {@code pty4j/<os>/<arch>/libpty.so}
 * (the path pty4j itself resolves under {@code pty4j.preferred.native.folder}) and
 * {@code jna/} ({@code jna.tmpdir}; JNA unpacks its dispatch library there and deletes it
 * after loading). The system properties are JVM-wide; they must be set before pty4j or
 * JNA load a library, which is why the host calls this first. The library is written with
 * {@link AtomicFiles}; what an interrupted write left beside it is removed first.
 */
final class NativeLibs {
    static final String PTY4J_FOLDER_KEY = "pty4j.preferred.native.folder";
    static final String JNA_TMPDIR_KEY = "jna.tmpdir";

    private NativeLibs() {
    }

    /** Installs the library when missing or different and sets the properties; returns the pty4j folder. */
    static synchronized Path install(Path root) throws IOException {
        Path pty4j = root.resolve("pty4j");
        Path jna = root.resolve("jna");
        String sub = osArchSubPath();
        String name = sub.startsWith("darwin") ? "libpty.dylib" : "libpty.so";
        String resource = "resources/com/pty4j/native/" + sub + "/" + name;
        byte[] lib;
        try (InputStream in = com.pty4j.PtyProcess.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("pty4j has no native library for " + sub + " (" + resource + ")");
            }
            lib = in.readAllBytes();
        }
        Path dir = pty4j.resolve(sub);
        Files.createDirectories(dir);
        Files.createDirectories(jna);
        Path target = dir.resolve(name);
        AtomicFiles.removeLeftovers(target);
        // Replaced whole: a concurrent server never loads half a file. A server starting at the
        // same moment may take this write's temporary file for a leftover and remove it; it
        // writes the same library, so its copy is as good, else this one tries again.
        for (int attempt = 1; !holds(target, lib); attempt++) {
            try {
                AtomicFiles.write(target, lib);
            } catch (IOException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
        System.setProperty(PTY4J_FOLDER_KEY, pty4j.toString());
        System.setProperty(JNA_TMPDIR_KEY, jna.toString());
        return pty4j;
    }

    private static boolean holds(Path file, byte[] bytes) throws IOException {
        return Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes);
    }

    /** pty4j's own naming ({@code PtyUtil.getNativeLibraryOsArchSubPath} is not public). */
    static String osArchSubPath() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (os.startsWith("mac")) {
            return "darwin";
        }
        String osDir = os.startsWith("linux") ? "linux" : os.startsWith("freebsd") ? "freebsd" : null;
        if (osDir == null) {
            throw new IllegalStateException("no PTY support on " + os);
        }
        String archDir = switch (arch) {
            case "amd64", "x86_64" -> "x86-64";
            case "x86", "i386", "i486", "i586", "i686" -> "x86";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return osDir + "/" + archDir;
    }
}

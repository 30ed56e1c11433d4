package io.artuditu.pty.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * JNA load a library, which is why the host calls this first.
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
        if (!Files.isRegularFile(target) || !Arrays.equals(Files.readAllBytes(target), lib)) {
            // Write beside the target and rename: a concurrent server never loads half a file.
            Path tmp = Files.createTempFile(dir, name, ".part");
            try {
                Files.write(tmp, lib);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        System.setProperty(PTY4J_FOLDER_KEY, pty4j.toString());
        System.setProperty(JNA_TMPDIR_KEY, jna.toString());
        return pty4j;
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

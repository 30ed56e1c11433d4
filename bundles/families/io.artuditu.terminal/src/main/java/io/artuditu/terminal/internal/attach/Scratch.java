package io.artuditu.terminal.internal.attach;

import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files clients paste into panes with {@code put_file}: {@code <home>/scratch/<workspace_id>/},
 * each file named by a counter and the client's advisory name, the newest {@value #KEEP} kept per
 * workspace. The client chooses neither the folder nor the final name, so a name cannot reach
 * outside the folder or replace an earlier file. Folders are 0700, files 0600 (written whole,
 * atomically). Any thread; one put at a time.
 */
final class Scratch {
    /** Largest file, decoded (client protocol: "Files are capped at 8 MiB decoded"). */
    static final int MAX_BYTES = 8 << 20;
    /** Files kept per workspace (client protocol: "Each workspace keeps its most recent 32"). */
    static final int KEEP = 32;
    /** Longest name part kept after the counter. */
    static final int MAX_NAME = 64;

    private static final Pattern COUNTED = Pattern.compile("^([0-9]{6,})-.*");
    private static final Pattern WORKSPACE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final Path root;

    /** Over {@code root}, after removing what puts cut short left there ({@link #removeLeftovers}). */
    Scratch(Path root) {
        this.root = root;
        removeLeftovers(root);
    }

    /**
     * Removes the temporary files of {@link AtomicFiles} that interrupted puts left in the
     * workspace folders (those of counted files only), and nothing else.
     */
    static void removeLeftovers(Path root) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
            for (Path d : dirs) {
                if (WORKSPACE.matcher(d.getFileName().toString()).matches() && Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                    AtomicFiles.removeLeftovers(d, name -> COUNTED.matcher(name).matches());
                }
            }
        } catch (NoSuchFileException none) {
            // no put yet
        } catch (IOException e) {
            System.getLogger(Scratch.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot look for temporary files under " + root + ": " + e.getMessage());
        }
    }

    /** Writes {@code data} into the workspace's folder; returns the file's absolute path. */
    synchronized Path put(String workspaceId, String name, byte[] data) throws IOException {
        if (data.length > MAX_BYTES) {
            throw new IllegalArgumentException("at most " + MAX_BYTES + " bytes");
        }
        Path dir = root.resolve(workspaceId != null && WORKSPACE.matcher(workspaceId).matches() ? workspaceId : "none");
        ownerOnly(root);
        ownerOnly(dir);
        List<Path> files = counted(dir);
        long next = files.isEmpty() ? 1 : counter(files.get(files.size() - 1)) + 1;
        Path file = dir.resolve(String.format("%06d-%s", next, clean(name)));
        AtomicFiles.write(file, data);
        files.add(file);
        for (int i = 0; i < files.size() - KEEP; i++) {
            Files.deleteIfExists(files.get(i));
        }
        return file.toAbsolutePath();
    }

    /** The basename, every character but letters, digits, '.', '_' and '-' as '-', no leading dot. */
    static String clean(String name) {
        String s = name == null ? "" : name;
        s = s.substring(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')) + 1);
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(c -> b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')
                ? (char) c : '-'));
        String out = b.toString().replaceFirst("^\\.+", "");
        if (out.length() > MAX_NAME) {
            out = out.substring(out.length() - MAX_NAME); // keep the end: the extension says what it is
        }
        return out.isEmpty() ? "file" : out;
    }

    private static void ownerOnly(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
        }
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException notPosix) {
            // a file system without POSIX modes: the home's own protection applies
        }
    }

    /** The counted files of {@code dir}, oldest first. */
    private static List<Path> counted(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> COUNTED.matcher(p.getFileName().toString()).matches()).forEach(out::add);
        }
        out.sort(Comparator.comparingLong(Scratch::counter));
        return out;
    }

    private static long counter(Path p) {
        Matcher m = COUNTED.matcher(p.getFileName().toString());
        if (!m.matches()) {
            return 0;
        }
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException huge) {
            return Long.MAX_VALUE - 1;
        }
    }
}

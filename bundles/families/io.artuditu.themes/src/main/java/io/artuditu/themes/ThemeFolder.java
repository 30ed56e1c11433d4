package io.artuditu.themes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a folder of theme files ({@code *.toml}, hidden files skipped) with its bounds: at
 * most {@link #MAX_FILES} files, each a regular file of at most {@link ThemeFormat#MAX_BYTES}
 * (checked before it is opened, and again while reading), a symbolic link only to a file
 * inside the folder. Files are read in name order; a file whose id an earlier file (or a
 * reserved id) already has is a problem, and the earlier one stays. A file that changes while
 * it is read is read again (at most {@link #READ_ATTEMPTS} times, see {@link #read}), so a
 * theme is never parsed from two versions of its bytes. Nothing here throws for a bad file: it becomes a
 * {@link Problem}.
 */
public final class ThemeFolder {
    public static final int MAX_FILES = 256;
    static final int READ_ATTEMPTS = 3;

    /** A theme and the file it came from. */
    public record Loaded(Path file, Theme theme) {
    }

    /** A file left out, and why. */
    public record Problem(Path file, String message) {
    }

    /** What a scan found: themes sorted by id, problems in file order. */
    public record Scan(List<Loaded> themes, List<Problem> problems) {
        public Scan {
            themes = List.copyOf(themes);
            problems = List.copyOf(problems);
        }
    }

    private ThemeFolder() {
    }

    /**
     * Reads {@code dir}; a missing folder is an empty scan. {@code reserved} maps ids no file
     * may take (the built-ins) to who holds them, for the message.
     */
    public static Scan scan(Path dir, Map<String, String> reserved) {
        List<Loaded> themes = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return new Scan(themes, problems);
        }
        List<Path> files = new ArrayList<>();
        Path real;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.toml")) {
            real = dir.toRealPath();
            for (Path p : ds) {
                if (!p.getFileName().toString().startsWith(".")) {
                    files.add(p);
                }
            }
        } catch (IOException e) {
            problems.add(new Problem(dir, "cannot list the folder: " + e.getMessage()));
            return new Scan(themes, problems);
        }
        files.sort(null);
        if (files.size() > MAX_FILES) {
            problems.add(new Problem(dir, "more than " + MAX_FILES + " theme files; "
                    + (files.size() - MAX_FILES) + " after " + files.get(MAX_FILES - 1).getFileName() + " are skipped"));
            files = files.subList(0, MAX_FILES);
        }
        Map<String, String> taken = new HashMap<>(reserved);
        for (Path f : files) {
            try {
                Theme t = ThemeFormat.parse(read(f, real));
                String holder = taken.putIfAbsent(t.id(), f.getFileName().toString());
                if (holder != null) {
                    problems.add(new Problem(f, "id '" + t.id() + "' is already used by " + holder));
                    continue;
                }
                themes.add(new Loaded(f, t));
            } catch (ThemeFormat.Invalid e) {
                problems.add(new Problem(f, e.getMessage()));
            } catch (NoSuchFileException e) {
                // deleted since the listing: nothing to report
            } catch (IOException e) {
                problems.add(new Problem(f, "cannot read: " + e.getMessage()));
            }
        }
        themes.sort((a, b) -> a.theme().id().compareTo(b.theme().id()));
        return new Scan(themes, problems);
    }

    /**
     * Reads one theme file under the folder's rules; {@code folder} is the folder's real path.
     * The file is read twice and taken only when both reads agree, so a read that spans a
     * rewrite (the head of one version, the tail of the next) is never parsed. A file still
     * being written may give an earlier state; the folder's watcher reads it again once the
     * writes stop.
     */
    public static byte[] read(Path file, Path folder) throws IOException, ThemeFormat.Invalid {
        for (int attempt = 1;; attempt++) {
            byte[] first = readOnce(file, folder);
            byte[] second = readOnce(file, folder);
            if (Arrays.equals(first, second)) {
                return first;
            }
            if (attempt == READ_ATTEMPTS) {
                throw new ThemeFormat.Invalid("kept changing while it was read; it is read again when it settles");
            }
        }
    }

    private static byte[] readOnce(Path file, Path folder) throws IOException, ThemeFormat.Invalid {
        check(file, folder);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(ThemeFormat.MAX_BYTES + 1);
        }
        if (bytes.length > ThemeFormat.MAX_BYTES) {
            throw new ThemeFormat.Invalid("larger than " + ThemeFormat.MAX_BYTES + " bytes");
        }
        return bytes;
    }

    /** Refuses what must not be opened: links out of the folder, FIFOs and devices, oversized files. */
    private static void check(Path file, Path folder) throws IOException, ThemeFormat.Invalid {
        if (Files.isSymbolicLink(file)) {
            Path target = file.toRealPath();
            if (!target.startsWith(folder)) {
                throw new ThemeFormat.Invalid("a symbolic link out of the themes folder (to " + target + ")");
            }
        }
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        if (!a.isRegularFile()) {
            throw new ThemeFormat.Invalid("not a regular file");
        }
        if (a.size() > ThemeFormat.MAX_BYTES) {
            throw new ThemeFormat.Invalid("larger than " + ThemeFormat.MAX_BYTES + " bytes (" + a.size() + ")");
        }
    }

    /** Whether {@code name} is a file name this folder reads. */
    public static boolean isThemeFile(String name) {
        return name.endsWith(".toml") && !name.startsWith(".");
    }
}

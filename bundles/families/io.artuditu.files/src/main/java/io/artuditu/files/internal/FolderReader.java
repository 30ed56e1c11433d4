package io.artuditu.files.internal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Reads one folder into a {@link Listing}: at most {@link #MAX_ENTRIES} entries (the rest
 * counted as {@code truncated}), never following a symbolic link, {@code .git} left out,
 * each entry marked as git ignores it or not. Files worker only.
 */
final class FolderReader {
    /** Most entries one folder lists. */
    static final int MAX_ENTRIES = 2_000;

    private static final Comparator<Listing.Entry> ORDER = Comparator
            .comparing((Listing.Entry e) -> e.kind() == Listing.Kind.DIR ? 0 : 1)
            .thenComparing(e -> e.name(), String.CASE_INSENSITIVE_ORDER)
            .thenComparing(Listing.Entry::name);

    private FolderReader() {
    }

    /** @throws IOException the folder cannot be listed (gone, not a folder, no permission) */
    static Listing read(Path folder, boolean checkIgnored) throws IOException {
        List<String> names = new ArrayList<>();
        List<BasicFileAttributes> attrs = new ArrayList<>();
        boolean truncated = false;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.equals(".git")) {
                    continue;
                }
                if (names.size() >= MAX_ENTRIES) {
                    truncated = true;
                    break;
                }
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException goneMeanwhile) {
                    continue;
                }
                names.add(name);
                attrs.add(a);
            }
        }
        Set<String> ignored = checkIgnored && !names.isEmpty() ? GitIgnored.of(folder, names) : Set.of();
        List<Listing.Entry> entries = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            BasicFileAttributes a = attrs.get(i);
            Listing.Kind kind = a.isSymbolicLink() ? Listing.Kind.SYMLINK : a.isDirectory() ? Listing.Kind.DIR
                    : a.isRegularFile() ? Listing.Kind.FILE : Listing.Kind.OTHER;
            entries.add(new Listing.Entry(names.get(i), kind, kind == Listing.Kind.FILE ? a.size() : 0,
                    a.lastModifiedTime().toMillis(), ignored.contains(names.get(i))));
        }
        entries.sort(ORDER);
        return new Listing(entries, truncated);
    }
}

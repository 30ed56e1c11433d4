package io.artuditu.uhp.api.home;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way Artuditu replaces a file: a temporary file beside the target (created
 * owner-only, {@code 0600}, never over an existing name), written and synced, given its
 * final mode, renamed over the target atomically, then the folder synced. A reader sees the
 * old file or the new one, never a mix.
 *
 * <p>A crash between creating the temporary file and the rename leaves it behind, named
 * {@code .NAME.DIGITS.tmp} for the target {@code NAME} ({@code DIGITS} an unsigned decimal
 * {@code long}). Whoever owns a target removes those at start with
 * {@link #removeLeftovers(Path)}; nothing else in the folder matches that pattern for it.
 *
 * <p>Plain static methods, safe from any thread; two writers of one target must agree among
 * themselves (the last rename wins).
 */
public final class AtomicFiles {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    /** {@code .NAME.DIGITS.tmp}: group 1 is the target's name. */
    private static final Pattern TEMPORARY = Pattern.compile("\\.(.+)\\.([0-9]{1,20})\\.tmp");
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {
    }

    /**
     * Replaces {@code target} with {@code bytes}, owner-only ({@code 0600}). On failure the old
     * file is intact and the temporary file is gone; the exception says why.
     *
     * @return false when everything succeeded but the folder could not be synced (the rename
     *     is done; the folder's sync only makes it durable sooner), true otherwise
     */
    public static boolean write(Path target, byte[] bytes) throws IOException {
        return write(target, bytes, OWNER_ONLY);
    }

    /**
     * Replaces {@code target} with {@code bytes}, leaving it with {@code mode} (for a file the
     * user owns whose mode must survive the rewrite). {@code target} itself is replaced: a
     * caller that means the file a symbolic link points to resolves the link first.
     *
     * @return as {@link #write(Path, byte[])}
     */
    public static boolean write(Path target, byte[] bytes, Set<PosixFilePermission> mode) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = create(dir, target.getFileName().toString());
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            if (!mode.equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(tmp, mode);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A new, empty, owner-only temporary file for {@code name} in {@code dir}, under a name no file had. */
    private static Path create(Path dir, String name) throws IOException {
        while (true) {
            Path tmp = dir.resolve(temporaryName(name, RANDOM.nextLong()));
            try {
                return Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (FileAlreadyExistsException taken) {
                // another writer's, or a leftover: draw again
            }
        }
    }

    /** The temporary file's name for the target {@code name}: {@code .NAME.DIGITS.tmp}. */
    static String temporaryName(String name, long n) {
        return "." + name + "." + Long.toUnsignedString(n) + ".tmp";
    }

    /**
     * The target a file named {@code fileName} would be the temporary file of, or null when
     * the name is not one {@link #write} makes.
     */
    static String targetOf(String fileName) {
        Matcher m = TEMPORARY.matcher(fileName);
        if (!m.matches()) {
            return null;
        }
        try {
            Long.parseUnsignedLong(m.group(2));
        } catch (NumberFormatException tooLarge) {
            return null;
        }
        return m.group(1);
    }

    /**
     * Removes what interrupted writes of {@code target} left in its folder: the regular files
     * (not links, not folders) named as {@link #write} names its temporary files for that
     * target, and nothing else. For the owner of the target to call at start, before it
     * writes; a writer running at the same time in another process may lose its temporary
     * file and fail that one write. A missing folder has nothing to remove.
     *
     * @return how many files were removed
     */
    public static int removeLeftovers(Path target) throws IOException {
        String name = target.getFileName().toString();
        return removeLeftovers(target.toAbsolutePath().getParent(), name::equals);
    }

    /**
     * {@link #removeLeftovers(Path)} for a folder of many targets: removes the temporary files
     * {@link #write} leaves in {@code dir} for every target whose name {@code targets}
     * accepts (for example every {@code *.toml}), and nothing else.
     *
     * @return how many files were removed
     */
    public static int removeLeftovers(Path dir, Predicate<String> targets) throws IOException {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String target = targetOf(f.getFileName().toString());
                if (target != null && targets.test(target) && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)
                        && Files.deleteIfExists(f)) {
                    removed++;
                }
            }
        } catch (NoSuchFileException noFolder) {
            return 0;
        }
        return removed;
    }
}

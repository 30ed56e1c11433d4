package io.artuditu.uhp.api.home;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The one way files in the Artuditu home are replaced: a temporary file beside the target
 * (created owner-only, {@code 0600}, as {@link Files#createTempFile} does on POSIX),
 * written and synced, renamed over the target atomically, then the folder synced. A reader
 * sees the old file or the new one, never a mix; a crash leaves at most a stray
 * {@code .NAME.*.tmp} file.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /**
     * Replaces {@code target} with {@code bytes}. On failure the old file is intact and the
     * temporary file is gone; the exception says why.
     *
     * @return false when everything succeeded but the folder could not be synced (the rename
     *     is done; the folder's sync only makes it durable sooner), true otherwise
     */
    public static boolean write(Path target, byte[] bytes) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
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
}

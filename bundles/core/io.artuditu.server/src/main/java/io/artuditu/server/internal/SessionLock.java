package io.artuditu.server.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One server per socket path: an exclusive lock on {@code <socket>.lock}, held for the
 * server's lifetime; it holds the server's pid. Holding it is what makes deleting a stale socket file safe; failing
 * to get it means a live server owns the path and must not be disturbed. The kernel
 * drops the lock when the process dies, so a crash never leaves the path locked.
 */
final class SessionLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private SessionLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Returns the lock, or null when another live process holds it. */
    static SessionLock tryAcquire(Path lockFile) throws IOException {
        FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock l = ch.tryLock();
            if (l == null) {
                ch.close();
                return null;
            }
            // The holder's pid, so `artu server stop` can wait for the process to end.
            ch.truncate(0);
            ch.write(java.nio.ByteBuffer.wrap((ProcessHandle.current().pid() + "\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII)), 0);
            ch.force(false);
            return new SessionLock(ch, l);
        } catch (java.nio.channels.OverlappingFileLockException e) {
            // Held by this very JVM (a second server instance in one process, as in tests).
            ch.close();
            return null;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}

package io.artuditu.pty.internal.proc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One full pass over a proc file system. Per process it reads {@code <pid>/stat}; only when
 * {@code comm} is exactly 15 bytes, the target of the {@code <pid>/exe} link; and only for an
 * interpreter ({@link Scripts#interpreter}), the first {@value Scripts#CMDLINE_BYTES} bytes of
 * {@code <pid>/cmdline}, of which it keeps nothing but the script's base name. It never opens
 * {@code environ} or anything else. Not thread-safe (it reuses its read buffers): one
 * instance per scanning thread.
 */
final class ProcFs {
    /** Most processes one scan records; further directory entries are not looked at. */
    static final int MAX_PROCESSES = 65_536;
    /** A stat line is well under this (52 numeric fields and a 15-byte comm). */
    private static final int STAT_BUFFER = 4096;
    private static final String DELETED = " (deleted)";

    private final Path root;
    private final int maxProcesses;
    private final byte[] buffer = new byte[STAT_BUFFER];
    private final byte[] cmdline = new byte[Scripts.CMDLINE_BYTES];

    ProcFs(Path root, int maxProcesses) {
        this.root = root;
        this.maxProcesses = maxProcesses;
    }

    /**
     * Reads every {@code <root>/<digits>} entry, at most {@code maxProcesses} of them.
     * Processes that vanish or cannot be read during the pass are skipped.
     *
     * @throws IOException when the root cannot be listed or not a single process was readable
     */
    Snapshot scan(long sampledAtMillis) throws IOException {
        List<Snapshot.Proc> found = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(root)) {
            for (Path entry : dir) {
                if (found.size() >= maxProcesses) {
                    break;
                }
                long pid = pid(entry.getFileName().toString());
                if (pid > 0) {
                    Snapshot.Proc proc = read(entry, pid);
                    if (proc != null) {
                        found.add(proc);
                    }
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        if (found.isEmpty()) {
            throw new IOException("no readable process under " + root);
        }
        return Snapshot.of(sampledAtMillis, found);
    }

    /** The pid a directory name stands for, or -1 when it is not all digits. */
    static long pid(String name) {
        if (name.isEmpty() || name.length() > 18) {
            return -1;
        }
        long pid = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            pid = pid * 10 + (c - '0');
        }
        return pid;
    }

    private Snapshot.Proc read(Path dir, long pid) {
        Stat stat;
        try (InputStream in = Files.newInputStream(dir.resolve("stat"))) {
            int n = in.readNBytes(buffer, 0, buffer.length);
            stat = Stat.parse(buffer, n);
        } catch (IOException | SecurityException e) {
            return null; // exited during the pass, or hidden from us
        }
        if (stat == null) {
            return null;
        }
        String name = name(dir, stat);
        return new Snapshot.Proc(pid, stat.ppid(), name, Scripts.interpreter(name) ? script(dir, name) : null);
    }

    /**
     * The script an interpreter runs, or null. The argument bytes are zeroed once the name is
     * taken, so no argument outlives the call; a {@code cmdline} that is not a regular file is
     * never opened (a crafted tree could make it a FIFO, which would block the scan).
     */
    private String script(Path dir, String interpreter) {
        Path file = dir.resolve("cmdline");
        if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        int n = 0;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(cmdline, 0, cmdline.length);
            return Scripts.fromCmdline(interpreter, cmdline, n, n == cmdline.length);
        } catch (IOException | SecurityException e) {
            return null; // exited during the pass, or hidden from us
        } finally {
            java.util.Arrays.fill(cmdline, 0, n, (byte) 0);
        }
    }

    /**
     * {@code comm}, or the base name of the {@code exe} link when {@code comm} may have been cut
     * and that name starts with it (kernel threads and other users' processes have no
     * readable link; they keep {@code comm}).
     */
    static String name(Path dir, Stat stat) {
        String comm = stat.commText();
        if (!stat.commMayBeTruncated()) {
            return comm;
        }
        try {
            Path target = Files.readSymbolicLink(dir.resolve("exe")).getFileName();
            if (target == null) {
                return comm;
            }
            String exe = target.toString();
            if (exe.endsWith(DELETED)) {
                exe = exe.substring(0, exe.length() - DELETED.length());
            }
            exe = Stat.printable(exe);
            return exe.length() > comm.length() && exe.startsWith(comm) ? exe : comm;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return comm;
        }
    }
}

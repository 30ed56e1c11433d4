package io.artuditu.pty.internal;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/**
 * The few libc calls the host makes on a PTY master, direct-mapped through JNA (no
 * reflection per call). The master is switched to non-blocking mode, so {@link #read} and
 * {@link #write} never park a thread; {@link #poll} waits for readiness with a timeout.
 * Errors come back as {@code -errno}.
 */
final class Posix {
    static final int EINTR = 4;
    static final int ECHILD = 10;
    static final int EIO = 5;
    static final int EAGAIN = 11;
    static final short POLLIN = 0x1;
    static final short POLLOUT = 0x4;
    static final short POLLERR = 0x8;
    static final short POLLHUP = 0x10;
    static final short POLLNVAL = 0x20;
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_NONBLOCK = 0x800; // Linux (all architectures pty4j ships for)
    private static final int O_CLOEXEC = 0x80000; // Linux, as O_NONBLOCK
    private static final int WNOHANG = 1;
    /** {@link #waitpid} with {@code block == false}: the child has not exited yet. */
    static final int RUNNING = Integer.MIN_VALUE;

    static {
        Native.register(Posix.class, "c");
    }

    private Posix() {
    }

    private static native NativeLong read(int fd, byte[] buf, NativeLong count);

    private static native NativeLong write(int fd, byte[] buf, NativeLong count);

    private static native int poll(Pointer fds, NativeLong nfds, int timeout);

    private static native int fcntl(int fd, int cmd, int arg);

    private static native int pipe2(int[] fds, int flags);

    private static native int close(int fd);

    static native int kill(int pid, int signal);

    private static native int ioctl(int fd, NativeLong request, short[] winsize);

    private static native int waitpid(int pid, int[] status, int options);

    private static native int posix_openpt(int flags);

    private static native int grantpt(int fd);

    private static native int unlockpt(int fd);

    private static native int ptsname_r(int fd, byte[] buf, NativeLong len);

    private static final int O_RDWR = 2;
    private static final int O_NOCTTY = 0x100; // Linux

    /** A PTY master this host owns ({@link #closeFd} closes it) and the path of its slave. */
    record Master(int fd, String slave) {
    }

    /**
     * Opens a new PTY: the master read-write, never our controlling terminal, close-on-exec
     * (a child gets only its slave), granted and unlocked; what pty4j's {@code Pty} did
     * (getpt, grantpt, unlockpt, ptsname) without its reflective calls and its spare pipe.
     */
    static Master openMaster() throws java.io.IOException {
        int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            throw new java.io.IOException("cannot open a PTY: errno " + Native.getLastError());
        }
        byte[] name = new byte[128];
        int err = grantpt(fd) != 0 ? Native.getLastError()
                : unlockpt(fd) != 0 ? Native.getLastError()
                : ptsname_r(fd, name, new NativeLong(name.length));
        if (err != 0) {
            close(fd);
            throw new java.io.IOException("cannot set up the PTY: errno " + err);
        }
        return new Master(fd, Native.toString(name));
    }

    /**
     * Reaps a child: its status as a shell reports it (the exit code, or 128 + the signal that
     * killed it), {@link #RUNNING} when {@code block} is false and it has not exited, or
     * {@code -errno} (ECHILD: not our child, or already reaped). Retries on EINTR.
     */
    static int waitpid(int pid, boolean block) {
        int[] status = new int[1];
        while (true) {
            int r = waitpid(pid, status, block ? 0 : WNOHANG);
            if (r == pid) {
                return decode(status[0]);
            }
            if (r == 0) {
                return RUNNING;
            }
            int errno = Native.getLastError();
            if (errno != EINTR) {
                return -errno;
            }
        }
    }

    /** A wait status as shells report it; stopped or continued (never asked for) pass through. */
    static int decode(int status) {
        int low = status & 0x7f;
        if (low == 0) {
            return (status >> 8) & 0xff; // WIFEXITED: WEXITSTATUS
        }
        if (low != 0x7f) {
            return 128 + low; // WIFSIGNALED: 128 + WTERMSIG
        }
        return status;
    }

    /** TIOCSWINSZ on Linux x86, x86-64, ARM, AArch64 and RISC-V. */
    private static final long TIOCSWINSZ = 0x5414;

    /** Sets a PTY's window size ({@code struct winsize}); 0 or {@code -errno}. */
    static int windowSize(int fd, int cols, int rows) {
        short[] ws = {(short) rows, (short) cols, 0, 0};
        int r = ioctl(fd, new NativeLong(TIOCSWINSZ), ws);
        return r == 0 ? 0 : -Native.getLastError();
    }

    /** Bytes read (0 at end of file), or {@code -errno}. Reads into the start of {@code buf}. */
    static int read(int fd, byte[] buf, int len) {
        long n = read(fd, buf, new NativeLong(len)).longValue();
        return n >= 0 ? (int) n : -Native.getLastError();
    }

    /**
     * Writes {@code buf[off, off+len)}; bytes written or {@code -errno}. JNA passes arrays
     * from their start, so a non-zero offset copies first.
     */
    static int write(int fd, byte[] buf, int off, int len) {
        byte[] b = off == 0 ? buf : java.util.Arrays.copyOfRange(buf, off, off + len);
        long n = write(fd, b, new NativeLong(len)).longValue();
        return n >= 0 ? (int) n : -Native.getLastError();
    }

    /** A one-entry {@code struct pollfd} for one thread's use. */
    static Memory pollFd(int fd) {
        Memory m = new Memory(8);
        m.setInt(0, fd);
        return m;
    }

    /** Polls one fd; the revents bits, 0 on timeout, or {@code -errno}. */
    static int poll(Memory pollFd, short events, int timeoutMillis) {
        pollFd.setShort(4, events);
        pollFd.setShort(6, (short) 0);
        int r = poll(pollFd, new NativeLong(1), timeoutMillis);
        if (r < 0) {
            return -Native.getLastError();
        }
        return r == 0 ? 0 : pollFd.getShort(6) & 0xFFFF;
    }

    /** Polls {@code n} entries of an array of {@code struct pollfd}; how many are ready, or {@code -errno}. */
    static int poll(Memory pollFds, int n, int timeoutMillis) {
        int r = poll(pollFds, new NativeLong(n), timeoutMillis);
        return r < 0 ? -Native.getLastError() : r;
    }

    /** A pipe, both ends non-blocking and close-on-exec: {read end, write end}. */
    static int[] pipe() {
        int[] fds = new int[2];
        if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) {
            throw new IllegalStateException("pipe2 failed, errno " + Native.getLastError());
        }
        return fds;
    }

    /** Closes an fd this host opened itself (a PTY master, the reader's pipe); 0 or {@code -errno}. */
    static int closeFd(int fd) {
        return close(fd) == 0 ? 0 : -Native.getLastError();
    }

    /** Sets O_NONBLOCK; false when the flags cannot be read or written. */
    static boolean nonBlocking(int fd) {
        int flags = fcntl(fd, F_GETFL, 0);
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) >= 0;
    }
}

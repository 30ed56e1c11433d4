package io.artuditu.pty.internal;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * Starts a child on a PTY slave with glibc's {@code posix_spawn}, which runs the child with
 * {@code clone(CLONE_VM|CLONE_VFORK)}: the JVM's page tables are not copied, so the cost
 * does not grow with the server's resident memory as {@code fork} does (3.5 ms per 100 MB
 * measured, see docs/pty.md).
 *
 * <p>What the child gets, in the order glibc applies it: every signal at its default
 * disposition ({@code POSIX_SPAWN_SETSIGDEF} with a full set), a new session
 * ({@code POSIX_SPAWN_SETSID}, glibc 2.26), the working directory
 * ({@code addchdir_np}, glibc 2.29), the slave opened on fd 0 read-write and without
 * {@code O_NOCTTY} (opened by a session leader without a terminal, it becomes the
 * controlling terminal on Linux), fds 1 and 2 duplicated from 0, every fd from 3 up closed
 * ({@code addclosefrom_np}, glibc 2.34), an empty signal mask
 * ({@code POSIX_SPAWN_SETSIGMASK}), then {@code execve}. A failure of any of these in the
 * child, the exec included, comes back as posix_spawn's return value and glibc reaps
 * that child itself.
 *
 * <p>Loading this class registers every symbol; on a libc without one of them it fails
 * and {@link Host} falls back to pty4j's fork.
 */
final class Spawn {
    private static final short POSIX_SPAWN_SETSIGDEF = 0x04;
    private static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    private static final short POSIX_SPAWN_SETSID = 0x80; // glibc's value (spawn.h)
    private static final int O_RDWR = 2;
    /** glibc x86-64 has 336 (attr), 80 (file actions), 128 (sigset_t); room for other ABIs. */
    private static final int ATTR_BYTES = 1024;
    private static final int ACTIONS_BYTES = 512;
    private static final int SIGSET_BYTES = 256;
    private static final int FIXED_BYTES = ATTR_BYTES + ACTIONS_BYTES + 2 * SIGSET_BYTES;

    static {
        Native.register(Spawn.class, "c");
    }

    private Spawn() {
    }

    private static native int posix_spawn(int[] pid, String path, Pointer fileActions, Pointer attr, Pointer argv, Pointer envp);

    private static native int posix_spawnattr_init(Pointer attr);

    private static native int posix_spawnattr_destroy(Pointer attr);

    private static native int posix_spawnattr_setflags(Pointer attr, short flags);

    private static native int posix_spawnattr_setsigdefault(Pointer attr, Pointer sigset);

    private static native int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset);

    private static native int posix_spawn_file_actions_init(Pointer actions);

    private static native int posix_spawn_file_actions_destroy(Pointer actions);

    private static native int posix_spawn_file_actions_addopen(Pointer actions, int fd, String path, int oflag, int mode);

    private static native int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newfd);

    private static native int posix_spawn_file_actions_addchdir_np(Pointer actions, String path);

    private static native int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from);

    private static native int sigemptyset(Pointer set);

    private static native int sigfillset(Pointer set);

    /** The setup (not the child) failed: attributes or file actions could not be built. */
    static final class SetupException extends Exception {
        SetupException(String what, int err) {
            super(what + " failed: errno " + err);
        }
    }

    /**
     * Starts {@code path} (already looked up; posix_spawn does not search) on the slave.
     *
     * @param cwd the working directory, or null to keep the server's
     * @return the child's pid, or {@code -errno} when the child could not be started (exec
     *     or a file action failed in it, or the clone itself)
     * @throws SetupException when building the attributes or file actions failed
     */
    static int spawn(String path, String[] argv, String[] envp, String cwd, String slave) throws SetupException {
        // One native block per spawn, freed before returning (not left to JNA's cleaner):
        // attr | actions | full sigset | empty sigset | argv[] NULL | envp[] NULL | the strings.
        byte[][] args = bytes(argv);
        byte[][] envs = bytes(envp);
        long strings = 0;
        for (byte[] b : args) {
            strings += b.length;
        }
        for (byte[] b : envs) {
            strings += b.length;
        }
        long vectors = FIXED_BYTES + (long) (args.length + 1 + envs.length + 1) * Native.POINTER_SIZE;
        try (Memory block = new Memory(vectors + strings)) {
            Pointer attr = block.share(0, ATTR_BYTES);
            Pointer actions = block.share(ATTR_BYTES, ACTIONS_BYTES);
            Pointer all = block.share(ATTR_BYTES + ACTIONS_BYTES, SIGSET_BYTES);
            Pointer none = block.share(ATTR_BYTES + ACTIONS_BYTES + SIGSET_BYTES, SIGSET_BYTES);
            long at = vectors;
            long slot = FIXED_BYTES;
            for (byte[][] list : new byte[][][] {args, envs}) {
                for (byte[] b : list) {
                    block.write(at, b, 0, b.length); // NUL-terminated already
                    block.setPointer(slot, block.share(at));
                    at += b.length;
                    slot += Native.POINTER_SIZE;
                }
                block.setPointer(slot, null); // argv and envp end with a NULL pointer
                slot += Native.POINTER_SIZE;
            }
            Pointer argvp = block.share(FIXED_BYTES);
            Pointer envpp = block.share(FIXED_BYTES + (long) (args.length + 1) * Native.POINTER_SIZE);
            check("posix_spawnattr_init", posix_spawnattr_init(attr));
            try {
                check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(actions));
                try {
                    check("sigfillset", sigfillset(all) == 0 ? 0 : Native.getLastError());
                    check("sigemptyset", sigemptyset(none) == 0 ? 0 : Native.getLastError());
                    check("setsigdefault", posix_spawnattr_setsigdefault(attr, all));
                    check("setsigmask", posix_spawnattr_setsigmask(attr, none));
                    check("setflags", posix_spawnattr_setflags(attr,
                            (short) (POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)));
                    if (cwd != null) {
                        check("addchdir_np", posix_spawn_file_actions_addchdir_np(actions, cwd));
                    }
                    check("addopen", posix_spawn_file_actions_addopen(actions, 0, slave, O_RDWR, 0));
                    check("adddup2", posix_spawn_file_actions_adddup2(actions, 0, 1));
                    check("adddup2", posix_spawn_file_actions_adddup2(actions, 0, 2));
                    check("addclosefrom_np", posix_spawn_file_actions_addclosefrom_np(actions, 3));
                    int[] pid = new int[1];
                    int r = posix_spawn(pid, path, actions, attr, argvp, envpp);
                    return r == 0 ? pid[0] : -r;
                } finally {
                    posix_spawn_file_actions_destroy(actions);
                }
            } finally {
                posix_spawnattr_destroy(attr);
            }
        }
    }

    /** The strings as the C side gets them: JNA's default encoding (as StringArray had it), NUL-terminated. */
    private static byte[][] bytes(String[] strings) {
        byte[][] out = new byte[strings.length][];
        for (int i = 0; i < strings.length; i++) {
            out[i] = Native.toByteArray(strings[i]);
        }
        return out;
    }

    private static void check(String what, int r) throws SetupException {
        if (r != 0) {
            throw new SetupException(what, r);
        }
    }
}

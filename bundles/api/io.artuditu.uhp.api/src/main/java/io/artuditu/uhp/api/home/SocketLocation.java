package io.artuditu.uhp.api.home;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where one server's socket is.
 *
 * <ul>
 * <li>home: {@code $ARTUDITU_HOME} when set and non-empty, else {@code ~/.artuditu};</li>
 * <li>logical path: {@code <home>/artuditu.sock}, or
 * {@code <home>/sessions/<name>/artuditu.sock} for a named session;</li>
 * <li>bind path: the logical path, unless it is longer than the OS allows for a Unix
 * socket address ({@link #MAX_SOCKET_PATH_BYTES}); then a deterministic alias
 * {@code /tmp/artuditu-<uid>/<hash>.sock} where hash is the first 16 hex digits of the
 * SHA-256 of the logical path. Client and server compute the same alias.</li>
 * </ul>
 *
 * @param home    the Artuditu home
 * @param session the session name; {@link #DEFAULT_SESSION} for the unnamed server
 * @param logical the path clients are told ({@code $ARTUDITU_SOCKET_PATH})
 * @param bind    the path the socket is actually bound at
 */
public record SocketLocation(Path home, String session, Path logical, Path bind) {
    public static final String DEFAULT_SESSION = "default";
    public static final String SOCKET_NAME = "artuditu.sock";
    /**
     * Longest socket path in bytes: {@code sun_path} holds 108 bytes on Linux and 104 on
     * macOS, including the terminating NUL; we keep to the smaller.
     */
    public static final int MAX_SOCKET_PATH_BYTES = 103;
    /** Longest session name. */
    public static final int MAX_SESSION_NAME = 64;

    public SocketLocation {
        Objects.requireNonNull(home);
        Objects.requireNonNull(session);
        Objects.requireNonNull(logical);
        Objects.requireNonNull(bind);
    }

    /** The home from the environment and the user's home directory. */
    public static Path home(Map<String, String> env) {
        String h = env.get("ARTUDITU_HOME");
        if (h != null && !h.isBlank()) {
            return Path.of(h).toAbsolutePath().normalize();
        }
        return Path.of(System.getProperty("user.home"), ".artuditu");
    }

    /** The server-side property that overrides the environment (tests, embedded frameworks). */
    public static final String HOME_PROPERTY = "artuditu.home";

    /**
     * The home a server bundle uses: {@code override} (the framework property
     * {@value #HOME_PROPERTY}) when set and non-blank, else {@link #home(Map)}.
     */
    public static Path home(String override, Map<String, String> env) {
        if (override != null && !override.isBlank()) {
            return Path.of(override).toAbsolutePath().normalize();
        }
        return home(env);
    }

    /**
     * Where a client started with {@code env} connects: a named {@code session} wins; inside
     * a pane ({@code ARTUDITU_SOCKET_PATH} set) the server that pane belongs to; else the
     * home's default session. The one rule the CLI and the TUI share.
     */
    public static SocketLocation forClient(Map<String, String> env, String session) {
        java.util.function.LongSupplier uid = new java.util.function.LongSupplier() {
            @Override
            public long getAsLong() {
                return currentUid(); // only when the alias needs it: no native call on the fast path
            }
        };
        String inherited = env.get("ARTUDITU_SOCKET_PATH");
        if (session == null && inherited != null && !inherited.isBlank()) {
            return ofLogical(Path.of(inherited), uid);
        }
        return resolve(home(env), session, uid);
    }

    /**
     * Resolves the location for {@code session} (null or {@value #DEFAULT_SESSION} for
     * the unnamed server) under {@code home}, for the user {@code uid}.
     *
     * @throws IllegalArgumentException for a session name outside {@link #validSessionName}
     */
    public static SocketLocation resolve(Path home, String session, long uid) {
        return resolve(home, session, constant(uid));
    }

    /** As {@link #resolve(Path, String, long)}, asking for the uid only when an alias is needed. */
    public static SocketLocation resolve(Path home, String session, java.util.function.LongSupplier uid) {
        String name = session == null ? DEFAULT_SESSION : session;
        if (!validSessionName(name)) {
            throw new IllegalArgumentException("invalid session name '" + name
                    + "': use letters, digits, '_', '.', '-' (at most 64, starting with a letter or digit)");
        }
        Path logical = DEFAULT_SESSION.equals(name) ? home.resolve(SOCKET_NAME)
                : home.resolve("sessions").resolve(name).resolve(SOCKET_NAME);
        return new SocketLocation(home, name, logical, bindPath(logical, uid));
    }

    /**
     * Session names: 1 to {@link #MAX_SESSION_NAME} characters, a letter or digit first,
     * then letters, digits, {@code _ . -}, never {@code ..}. Checked by hand: this runs in
     * every CLI call, where compiling a regex costs more than the rest of the lookup.
     */
    public static boolean validSessionName(String name) {
        if (name.isEmpty() || name.length() > MAX_SESSION_NAME || name.contains("..")) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && (i == 0 || (c != '_' && c != '.' && c != '-'))) {
                return false;
            }
        }
        return true;
    }

    /** A location from a socket path a client was handed ({@code $ARTUDITU_SOCKET_PATH}). */
    public static SocketLocation ofLogical(Path logical, long uid) {
        return ofLogical(logical, constant(uid));
    }

    /** As {@link #ofLogical(Path, long)}, asking for the uid only when an alias is needed. */
    public static SocketLocation ofLogical(Path logical, java.util.function.LongSupplier uid) {
        Path abs = logical.toAbsolutePath().normalize();
        return new SocketLocation(abs.getParent(), "", abs, bindPath(abs, uid));
    }

    /** A supplier without a lambda: lambdas cost method-handle spinning at CLI start-up. */
    private static java.util.function.LongSupplier constant(long uid) {
        return new java.util.function.LongSupplier() {
            @Override
            public long getAsLong() {
                return uid;
            }
        };
    }

    static Path bindPath(Path logical, java.util.function.LongSupplier uid) {
        if (logical.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH_BYTES) {
            return logical;
        }
        return aliasDirectory(uid.getAsLong()).resolve(sha256Prefix(logical.toString()) + ".sock");
    }

    /** The owner-only folder in the sticky temporary root that holds short socket aliases. */
    public static Path aliasDirectory(long uid) {
        return Path.of(System.getProperty("artuditu.alias.root", temporaryRoot(System.getProperty("os.name", ""))),
                "artuditu-" + uid);
    }

    /** {@code /private/tmp} on macOS, where {@code /tmp} only links to it; {@code /tmp} elsewhere. */
    static String temporaryRoot(String osName) {
        return osName.toLowerCase(java.util.Locale.ROOT).startsWith("mac") ? "/private/tmp" : "/tmp";
    }

    private static String sha256Prefix(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the socket is bound somewhere other than its logical path. */
    public boolean aliased() {
        return !bind.equals(logical);
    }

    /**
     * Creates {@code dir} (and parents) if needed and makes sure it is a real folder
     * owned by {@code uid} with mode 0700; a folder owned by someone else is refused,
     * never chmod-ed.
     */
    public static void ensureOwnerOnlyDirectory(Path dir, long uid) throws IOException {
        Files.createDirectories(dir);
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a plain directory");
        }
        Object owner = Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (((Number) owner).longValue() != uid) {
            throw new IOException(dir + " is owned by uid " + owner + ", not by uid " + uid);
        }
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rwx------");
        if (!Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(ownerOnly)) {
            Files.setPosixFilePermissions(dir, ownerOnly);
        }
    }

    /** The current process's user id. */
    public static long currentUid() {
        return new com.sun.security.auth.module.UnixSystem().getUid();
    }
}

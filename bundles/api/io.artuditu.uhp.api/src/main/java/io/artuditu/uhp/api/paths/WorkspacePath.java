package io.artuditu.uhp.api.paths;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one rule for a path a request names inside a workspace (client protocol: "Every
 * workspace-scoped path is joined against the workspace root"; docs/protocol/files.md): it is
 * percent-decoded once, then joined against the workspace folder, and refused with
 * {@code invalid_request} when it holds a control character, is badly percent-encoded, or
 * would leave the folder — lexically ({@code ..}, an absolute path elsewhere) or through a
 * symbolic link whose target is outside. Every family that takes such a path (files, git)
 * uses this one class. Reads the file system (real paths) but changes nothing; safe on any
 * thread but the app loop.
 */
public final class WorkspacePath {
    /** Longest path a request may name, in UTF-8 bytes (the contract says the same). */
    public static final int MAX_PATH_BYTES = 4096;

    private final Path root;
    private final Path realRoot;

    /**
     * @param root the workspace's folder as the model holds it (absolute)
     * @throws UhpException {@code not_found} when the folder is gone
     */
    public WorkspacePath(Path root) {
        this.root = root.toAbsolutePath().normalize();
        try {
            this.realRoot = this.root.toRealPath();
        } catch (IOException e) {
            throw UhpException.notFound("directory", this.root.toString(), null,
                    "the workspace folder " + this.root + " cannot be read: " + e.getMessage());
        }
        if (!Files.isDirectory(realRoot)) {
            throw UhpException.notFound("directory", this.root.toString(), null,
                    "the workspace folder " + this.root + " is not a directory");
        }
    }

    /** The root with every symbolic link resolved: what listings read and paths are relative to. */
    public Path realRoot() {
        return realRoot;
    }

    /**
     * A path inside the root.
     *
     * @param rel  relative to the real root, {@code /}-separated; empty for the root itself
     * @param abs  the real root joined with {@code rel} (its last part not followed)
     * @param real what {@code abs} resolves to, or null when nothing is there
     */
    public record Resolved(String rel, Path abs, Path real) {
        public boolean exists() {
            return real != null;
        }
    }

    /**
     * Checks {@code raw} (the request's text for {@code field}) and resolves it.
     *
     * @throws UhpException {@code invalid_request} with {@code details.field}, {@code reason}
     *     ({@code control_character}, {@code bad_percent_encoding}, {@code escapes_workspace},
     *     {@code symlink_escapes_workspace}) and {@code path} (the text as given)
     */
    public Resolved resolve(String field, String raw) {
        checkControls(field, raw, raw);
        String decoded = percentDecode(field, raw);
        checkControls(field, raw, decoded);
        Path p;
        try {
            p = Path.of(decoded);
        } catch (InvalidPathException e) {
            throw refuse(field, "invalid_path", raw, field + " is not a path: " + e.getReason());
        }
        Path abs;
        if (p.isAbsolute()) {
            Path n = p.normalize();
            // the model's spelling of the folder and its real path both name the root
            if (n.startsWith(realRoot)) {
                abs = n;
            } else if (n.startsWith(root)) {
                abs = realRoot.resolve(root.relativize(n));
            } else {
                throw escapes(field, raw);
            }
        } else {
            abs = realRoot.resolve(p).normalize();
            if (!abs.startsWith(realRoot)) {
                throw escapes(field, raw);
            }
        }
        // Every existing part is followed: the nearest one that exists must really be inside.
        Path probe = abs;
        Path real = null;
        while (probe != null && probe.startsWith(realRoot)) {
            if (Files.exists(probe, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Path r = probe.toRealPath();
                    if (!r.startsWith(realRoot)) {
                        throw refuse(field, "symlink_escapes_workspace", raw, field + " " + quoted(raw)
                                + " escapes workspace through a symbolic link to " + r);
                    }
                    if (probe.equals(abs)) {
                        real = r;
                    }
                } catch (IOException dangling) {
                    // a link to nothing: refused if it points out, else nothing is there yet
                    if (pointsOutside(probe)) {
                        throw refuse(field, "symlink_escapes_workspace", raw, field + " " + quoted(raw)
                                + " escapes workspace through a symbolic link");
                    }
                }
                break;
            }
            probe = probe.getParent();
        }
        String rel = realRoot.relativize(abs).toString();
        return new Resolved(rel, abs, real);
    }

    private boolean pointsOutside(Path link) {
        try {
            if (!Files.isSymbolicLink(link)) {
                return false;
            }
            Path target = link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
            return !target.startsWith(realRoot);
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Refuses {@code s} (the request's text {@code raw}, or what it decoded to) when it holds a
     * C0 or C1 control character or DEL: {@code invalid_request}, reason {@code control_character}.
     */
    public static void checkControls(String field, String raw, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
                throw refuse(field, "control_character", raw, field + " holds a control character (U+"
                        + String.format("%04X", (int) c) + ") at " + i);
            }
        }
    }

    /** One pass of percent-decoding, as UTF-8; a {@code %} not followed by two hex digits is refused. */
    public static String percentDecode(String field, String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            byte b = bytes[i];
            if (b != '%') {
                out.write(b);
                continue;
            }
            int hi = i + 2 < bytes.length ? Character.digit(bytes[i + 1], 16) : -1;
            int lo = i + 2 < bytes.length ? Character.digit(bytes[i + 2], 16) : -1;
            if (hi < 0 || lo < 0) {
                throw refuse(field, "bad_percent_encoding", raw, field + " " + quoted(raw)
                        + ": % must be followed by two hex digits (write %25 for a literal %)");
            }
            out.write(hi * 16 + lo);
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw refuse(field, "bad_percent_encoding", raw, field + " " + quoted(raw) + " decodes to bytes that are not UTF-8");
        }
    }

    private static UhpException escapes(String field, String raw) {
        return refuse(field, "escapes_workspace", raw, field + " " + quoted(raw) + " escapes workspace");
    }

    /** {@code invalid_request} with {@code details} field, reason and path (the text as given). */
    public static UhpException refuse(String field, String reason, String raw, String message) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", field);
        d.put("reason", reason);
        d.put("path", raw);
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }

    /** The text for a message: quoted, control characters as escapes, at most 200 characters. */
    public static String quoted(String s) {
        StringBuilder b = new StringBuilder("'");
        for (int i = 0; i < s.length() && i < 200; i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        return b.append(s.length() > 200 ? "…'" : "'").toString();
    }
}

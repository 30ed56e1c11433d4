package io.artuditu.git.internal;

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
 * The workspace path rule for the paths a git write names (the same rule as the files family's
 * {@code PathRule}, docs/protocol/files.md): percent-decoded once, joined against the workspace
 * folder, refused with {@code invalid_request} when it holds a control character, is badly
 * percent-encoded, or leaves the folder lexically ({@code ..}, an absolute path elsewhere) or
 * through a symbolic link. What passes is given to git relative to the worktree root.
 */
final class GitPaths {
    private final Path realFolder;
    private final Path folder;
    private final Path realRoot;

    /**
     * @param folder the workspace folder (absolute)
     * @param root   the worktree root containing it (real path)
     */
    GitPaths(Path folder, Path root) {
        this.folder = folder.toAbsolutePath().normalize();
        try {
            this.realFolder = this.folder.toRealPath();
        } catch (IOException e) {
            throw UhpException.notFound("directory", this.folder.toString(), null,
                    "the workspace folder " + this.folder + " cannot be read: " + e.getMessage());
        }
        this.realRoot = root;
    }

    /**
     * {@code raw} as a path relative to the worktree root ({@code .} for the root itself).
     *
     * @throws UhpException {@code invalid_request} with {@code field}, {@code reason}
     *     ({@code control_character}, {@code bad_percent_encoding}, {@code invalid_path},
     *     {@code escapes_workspace}, {@code symlink_escapes_workspace}) and {@code path}
     */
    String relative(String field, String raw) {
        checkControls(field, raw, raw);
        String decoded = percentDecode(field, raw);
        checkControls(field, raw, decoded);
        if (decoded.isEmpty()) {
            throw refuse(field, "invalid_path", raw, field + " is empty");
        }
        Path p;
        try {
            p = Path.of(decoded);
        } catch (InvalidPathException e) {
            throw refuse(field, "invalid_path", raw, field + " is not a path: " + e.getReason());
        }
        Path abs;
        if (p.isAbsolute()) {
            Path n = p.normalize();
            if (n.startsWith(realFolder)) {
                abs = n;
            } else if (n.startsWith(folder)) {
                abs = realFolder.resolve(folder.relativize(n));
            } else {
                throw escapes(field, raw);
            }
        } else {
            abs = realFolder.resolve(p).normalize();
            if (!abs.startsWith(realFolder)) {
                throw escapes(field, raw);
            }
        }
        // the nearest existing part, links followed, must still be inside
        Path probe = abs;
        while (probe != null && probe.startsWith(realFolder)) {
            if (Files.exists(probe, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    if (!probe.toRealPath().startsWith(realFolder)) {
                        throw refuse(field, "symlink_escapes_workspace", raw, field + " " + quoted(raw)
                                + " escapes workspace through a symbolic link");
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
        if (!abs.startsWith(realRoot)) {
            throw escapes(field, raw);
        }
        String rel = realRoot.relativize(abs).toString();
        return rel.isEmpty() ? "." : rel;
    }

    private boolean pointsOutside(Path link) {
        try {
            if (!Files.isSymbolicLink(link)) {
                return false;
            }
            Path target = link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
            return !target.startsWith(realFolder);
        } catch (IOException e) {
            return true;
        }
    }

    static void checkControls(String field, String raw, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
                throw refuse(field, "control_character", raw, field + " holds a control character (U+"
                        + String.format("%04X", (int) c) + ") at " + i);
            }
        }
    }

    /** One pass of percent-decoding, as UTF-8; a {@code %} not followed by two hex digits is refused. */
    static String percentDecode(String field, String raw) {
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

    static UhpException refuse(String field, String reason, String raw, String message) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", field);
        d.put("reason", reason);
        d.put("path", raw);
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }

    static String quoted(String s) {
        StringBuilder b = new StringBuilder("'");
        for (int i = 0; i < s.length() && i < 200; i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        return b.append(s.length() > 200 ? "…'" : "'").toString();
    }
}

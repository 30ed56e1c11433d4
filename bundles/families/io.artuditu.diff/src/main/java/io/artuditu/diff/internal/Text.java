package io.artuditu.diff.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Text rules of the diff family: source text made safe for a terminal (control sequences
 * stripped), file names from Git made printable (escaped), and the checks a request's path
 * and a note's body pass.
 */
final class Text {
    private Text() {
    }

    /**
     * Source text as the API and the renderer get it: ESC sequences (CSI {@code ESC [ … final},
     * OSC {@code ESC ] … BEL|ESC \}, and two-character escapes) and the C1 CSI/OSC forms are
     * removed whole; every other C0 control but TAB, DEL and the C1 controls are removed.
     * Invalid UTF-8 was already replaced (U+FFFD) when the bytes were decoded.
     */
    static String sanitize(String s) {
        int n = s.length();
        int i = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (control(c) && c != '\t') {
                break;
            }
        }
        if (i == n) {
            return s;
        }
        StringBuilder b = new StringBuilder(n).append(s, 0, i);
        while (i < n) {
            char c = s.charAt(i);
            if (c == 0x1b || c == 0x9b || c == 0x9d) {
                boolean csi = c == 0x9b;
                boolean osc = c == 0x9d;
                i++;
                if (c == 0x1b && i < n) {
                    char k = s.charAt(i);
                    csi = k == '[';
                    osc = k == ']' || k == 'P' || k == '_' || k == '^';
                    i++;
                }
                if (csi) {
                    while (i < n && !(s.charAt(i) >= 0x40 && s.charAt(i) <= 0x7e)) {
                        i++;
                    }
                    i++;
                } else if (osc) {
                    while (i < n) {
                        char k = s.charAt(i);
                        if (k == 0x07 || k == 0x9c) {
                            i++;
                            break;
                        }
                        if (k == 0x1b && i + 1 < n && s.charAt(i + 1) == '\\') {
                            i += 2;
                            break;
                        }
                        i++;
                    }
                }
                continue;
            }
            if (!control(c) || c == '\t') {
                b.append(c);
            }
            i++;
        }
        return b.toString();
    }

    /** C0, DEL and C1. */
    static boolean control(char c) {
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f);
    }

    /**
     * A file name from Git as results carry it: every C0/C1 control and DEL becomes
     * {@code \xNN}, a backslash {@code \\}; otherwise unchanged (spaces included). Requests name
     * a file by this form.
     */
    static String name(String raw) {
        if (raw == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (control(c) || c == '\\') {
                if (b == null) {
                    b = new StringBuilder(raw.length() + 8).append(raw, 0, i);
                }
                b.append(c == '\\' ? "\\\\" : String.format("\\x%02x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? raw : b.toString();
    }

    /**
     * Checks a path a request names: no control character, not absolute, no {@code ..} part,
     * also after one percent-decoding ({@code %2e%2e}). Paths are relative to the repository's
     * working tree and matched against the snapshot's (escaped) names; a symbolic link is a
     * file of its own to Git and is never followed.
     */
    static String requestPath(String field, String raw) {
        for (int i = 0; i < raw.length(); i++) {
            if (control(raw.charAt(i))) {
                throw refuse(field, "control_character", raw, field + " holds a control character; names from Git"
                        + " that hold one are written with \\xNN escapes");
            }
        }
        String decoded;
        try {
            decoded = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            decoded = raw;
        }
        for (String p : new String[] {raw, decoded}) {
            if (p.startsWith("/") || p.startsWith("\\") || p.matches("^[A-Za-z]:.*")) {
                throw refuse(field, "escapes_workspace", raw, field + " must be relative to the repository's working tree");
            }
            for (String part : p.split("[/\\\\]")) {
                if (part.equals("..")) {
                    throw refuse(field, "escapes_workspace", raw, field + " must not leave the working tree (..)");
                }
            }
        }
        return raw;
    }

    static UhpException refuse(String field, String reason, String path, String message) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", field);
        d.put("reason", reason);
        if (path != null) {
            d.put("path", path);
        }
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }

    /** Longest note body, in UTF-8 bytes. */
    static final int MAX_BODY_BYTES = 8 * 1024;

    /** A note body: non-empty (not only blanks), at most 8 KiB, no control character but newline and tab. */
    static String body(String field, String body) {
        if (body == null || body.isBlank()) {
            throw refuse(field, "empty_body", null, field + " must not be empty");
        }
        if (body.getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
            throw refuse(field, "body_too_long", null, field + " is longer than " + MAX_BODY_BYTES + " bytes");
        }
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (control(c) && c != '\n' && c != '\t') {
                throw refuse(field, "control_character", null, String.format(
                        "%s holds the control character U+%04X; plain text only (newline and tab allowed)", field, (int) c));
            }
        }
        return body;
    }
}

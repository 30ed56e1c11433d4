package io.artuditu.git.internal;

import static io.artuditu.uhp.api.UhpException.invalid;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Finds and opens the repository of a workspace folder, and the one refusal wording for a
 * folder that has none. Only the folder and its parents are looked at: never the server's own
 * {@code GIT_DIR} or {@code GIT_WORK_TREE}, which describe the server's environment, not the
 * workspace.
 */
final class Repos {
    /** Longest subject, name or e-mail sent, in UTF-16 units; longer ones end in an ellipsis. */
    static final int MAX_TEXT = 1000;

    private Repos() {
    }

    /**
     * The repository containing {@code folder} (the folder itself or the nearest parent with a
     * {@code .git}), which the caller closes.
     *
     * @throws UhpException {@code invalid_request} with {@code field: workspace} and reason
     *     {@code no_folder} (the folder is gone), {@code not_a_repository} or {@code bare_repository}
     */
    static Repository open(Path folder) {
        if (!Files.isDirectory(folder)) {
            throw refusal("no_folder", "the workspace folder " + folder + " does not exist", folder);
        }
        FileRepositoryBuilder b = new FileRepositoryBuilder().findGitDir(folder.toFile());
        if (b.getGitDir() == null) {
            throw refusal("not_a_repository", "the workspace folder " + folder + " is not in a git repository", folder);
        }
        Repository r;
        try {
            r = b.setMustExist(true).build();
        } catch (IOException | IllegalArgumentException e) {
            throw refusal("not_a_repository", "the repository at " + b.getGitDir() + " cannot be read: " + e.getMessage(),
                    folder);
        }
        if (r.isBare()) {
            r.close();
            throw refusal("bare_repository", "the workspace folder " + folder + " is a bare repository (no working tree)",
                    folder);
        }
        return r;
    }

    private static UhpException refusal(String reason, String message, Path folder) {
        Map<String, Object> d = new LinkedHashMap<>(invalid("workspace", reason, message).details());
        d.put("path", folder.toString());
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }

    /** A unique abbreviation of at least 7 hex digits. */
    static String shortId(ObjectReader reader, AnyObjectId id) throws IOException {
        return reader.abbreviate(id, 7).name();
    }

    /**
     * Text from the repository made safe for a terminal: every C0 and C1 control character
     * and DEL becomes {@code \xNN} (a backslash becomes {@code \\} so the escape is
     * unambiguous), and at most {@link #MAX_TEXT} units are kept.
     */
    static String text(String raw) {
        if (raw == null) {
            return "";
        }
        StringBuilder b = null;
        int n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f);
            if (control || c == '\\') {
                if (b == null) {
                    b = new StringBuilder(n + 8).append(raw, 0, i);
                }
                if (c == '\\') {
                    b.append("\\\\");
                } else {
                    b.append(String.format("\\x%02x", (int) c));
                }
            } else if (b != null) {
                b.append(c);
            }
        }
        String s = b == null ? raw : b.toString();
        if (s.length() > MAX_TEXT) {
            int end = MAX_TEXT - 1;
            if (Character.isHighSurrogate(s.charAt(end - 1))) {
                end--;
            }
            s = s.substring(0, end) + "…";
        }
        return s;
    }
}

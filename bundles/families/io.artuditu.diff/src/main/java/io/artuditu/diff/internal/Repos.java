package io.artuditu.diff.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Opens the repository of a workspace folder (the folder or its nearest parent with a
 * {@code .git}); never the server's own {@code GIT_DIR}. The refusals match the git family's.
 */
final class Repos {
    private Repos() {
    }

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

    /** The working tree's real path: the key of its snapshot and its notes. */
    static String root(Repository r) {
        try {
            return r.getWorkTree().toPath().toRealPath().toString();
        } catch (IOException e) {
            return r.getWorkTree().toPath().toAbsolutePath().normalize().toString();
        }
    }

    private static UhpException refusal(String reason, String message, Path folder) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", "workspace");
        d.put("reason", reason);
        d.put("path", folder.toString());
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }
}

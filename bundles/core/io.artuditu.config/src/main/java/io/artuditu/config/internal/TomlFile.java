package io.artuditu.config.internal;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import io.artuditu.uhp.api.home.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code config.toml}: bounded reading and atomic replacement. A reader never sees a
 * partial file: the new content goes to a temporary file in the same folder, is forced
 * to disk, renamed over the old name in one step, and the folder is forced too.
 */
final class TomlFile {
    static final String NAME = "config.toml";
    /** No config file is legitimately larger; a bigger one is refused, never read whole. */
    static final int MAX_BYTES = 1 << 20;
    static final String HEADER = "# Artuditu configuration; every key is described in docs/configuration.md.\n"
            + "# Rewritten by config.patch. After editing by hand run: artu config reload\n\n";
    private static final Logger LOG = System.getLogger(TomlFile.class.getName());

    /** The file cannot be read as TOML: unreadable, too large or not TOML (what it says is the schema's matter). */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    private final Path path;
    private final TomlMapper mapper = new TomlMapper();

    TomlFile(Path path) {
        this.path = path.toAbsolutePath().normalize();
    }

    static TomlFile in(Path home) {
        return new TomlFile(home.resolve(NAME));
    }

    Path path() {
        return path;
    }

    /** The document as parsed, not yet checked; a missing file is an empty document. */
    ObjectNode read() throws Malformed {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (NoSuchFileException missing) {
            return mapper.createObjectNode();
        } catch (IOException e) {
            throw new Malformed(path + " cannot be read: " + e);
        }
        if (bytes.length > MAX_BYTES) {
            throw new Malformed(path + " is larger than " + MAX_BYTES + " bytes");
        }
        JsonNode doc;
        try {
            doc = mapper.readTree(new String(bytes, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            throw new Malformed(path + " is not valid TOML: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        }
        if (doc == null || doc.isMissingNode()) {
            return mapper.createObjectNode();
        }
        if (!doc.isObject()) {
            throw new Malformed(path + " is not a TOML document");
        }
        return (ObjectNode) doc;
    }

    /** The document as this class writes it (header comment and TOML). */
    String render(ObjectNode doc) throws IOException {
        return HEADER + mapper.writeValueAsString(doc);
    }

    /**
     * Removes the temporary files writes of this file left when they were cut short (a crash
     * between writing and renaming); nothing else in the folder. A failure is logged: the file
     * itself is still usable.
     */
    void removeLeftovers() {
        try {
            int n = AtomicFiles.removeLeftovers(path);
            if (n > 0) {
                LOG.log(Level.INFO, "config: removed " + n + " temporary file(s) an interrupted write of " + NAME + " left");
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "config: cannot look for temporary files beside " + path + ": " + e.getMessage());
        }
    }

    /**
     * Replaces the file with {@code doc}, atomically. On failure the old file is intact and
     * the temporary file is gone; the exception says why.
     */
    void write(ObjectNode doc) throws IOException {
        byte[] bytes = render(doc).getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BYTES) {
            throw new IOException("the config would be larger than " + MAX_BYTES + " bytes");
        }
        // The rename is what counts; the folder's own sync only makes it durable sooner.
        if (!AtomicFiles.write(path, bytes)) {
            LOG.log(Level.WARNING, "could not sync " + path.getParent() + " after writing " + NAME);
        }
    }
}

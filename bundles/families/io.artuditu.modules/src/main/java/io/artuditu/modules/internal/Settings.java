package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Module settings values, {@code <home>/modules/settings.json} ({@code {module: {key: value}}}),
 * replaced atomically on every change. Only declared keys with values of their declared type
 * are ever stored. Thread safe.
 */
final class Settings {
    static final int MAX_FILE_BYTES = 1 << 20;
    private static final Logger LOG = System.getLogger(Settings.class.getName());

    private final Path file;
    private ObjectNode values;

    Settings(Path file) {
        this.file = file;
        this.values = load(file);
    }

    private static ObjectNode load(Path file) {
        try {
            if (Files.isRegularFile(file) && Files.size(file) <= MAX_FILE_BYTES) {
                JsonNode n = Local.JSON.readTree(file.toFile());
                if (n instanceof ObjectNode o) {
                    return o;
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, file + " is unreadable, module settings start from their defaults: " + e.getMessage());
        }
        return Local.JSON.createObjectNode();
    }

    /** Null when {@code value} fits {@code s}, else what is wrong with it. */
    static String check(Manifest.Setting s, JsonNode value) {
        switch (s.type()) {
            case "string":
                return value.isTextual() && Limits.bytes(value.textValue()) <= 4096 ? null
                        : "must be a string of at most 4096 bytes";
            case "boolean":
                return value.isBoolean() ? null : "must be true or false";
            case "integer":
                if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                    return "must be an integer";
                }
                if (s.min() != null && value.longValue() < s.min() || s.max() != null && value.longValue() > s.max()) {
                    return "must be from " + s.min() + " to " + s.max();
                }
                return null;
            default:
                return value.isTextual() && s.choices().contains(value.textValue()) ? null
                        : "must be one of " + s.choices();
        }
    }

    synchronized JsonNode get(String module, Manifest.Setting s) {
        JsonNode v = values.path(module).get(s.key());
        return v != null && check(s, v) == null ? v : s.defaultValue();
    }

    /** Stores (or, for null, resets) one value; the file is replaced before the value counts. */
    synchronized void set(String module, String key, JsonNode value) throws IOException {
        ObjectNode next = values.deepCopy();
        ObjectNode m = next.has(module) && next.get(module).isObject() ? (ObjectNode) next.get(module)
                : next.putObject(module);
        if (value == null || value.isNull()) {
            m.remove(key);
        } else {
            m.set(key, value);
        }
        Files.createDirectories(file.getParent());
        AtomicFiles.write(file, Local.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(next));
        values = next;
    }
}

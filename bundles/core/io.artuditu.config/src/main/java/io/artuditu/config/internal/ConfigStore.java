package io.artuditu.config.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.config.CheckedSection;
import io.artuditu.uhp.api.config.ConfigSection;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The live config: the registered sections and the document the file holds. One writer
 * at a time (this object's monitor); every change is validate, write, then apply, so the
 * live config never runs ahead of the file and a failed write changes nothing.
 *
 * <p>Validation is one schema for the whole document: the format's frame,
 * {@value #SCHEMA} in this bundle (every top-level key is a table), with each registered
 * section's schema under its name. A violation is worded as the validator words it
 * ({@code sidebars.left.width: must be at most 80}) and carries its field and path.
 *
 * <p>{@code stored} is sparse: only what the user set, for every table in the file,
 * including tables of sections that are not registered (inactive: kept, checked only to be
 * tables, written back untouched). The live values of a section are its defaults overlaid with
 * its stored table.
 */
final class ConfigStore {
    static final Pattern SECTION_NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    /** The document's frame, a resource of this bundle; docs/configuration.md points users to it. */
    static final String SCHEMA = "schema/config.schema.json";
    private static final ObjectNode FRAME = loadFrame();
    private static final JsonSchema FRAME_CHECK = JsonSchema.compile(FRAME);
    private static final Logger LOG = System.getLogger(ConfigStore.class.getName());

    /** {@code valueKey}: the section's one key whose value is the table on the wire, or null. */
    record Registered(ConfigSection section, JsonSchema schema, ObjectNode defaults, String valueKey) {
        /** The live table as the wire shows it: the table itself, or its one value. */
        JsonNode shown(ObjectNode live) {
            return valueKey == null ? live : live.get(valueKey);
        }
    }

    private final TomlFile file;
    private final Map<String, Registered> sections = new TreeMap<>();
    /** The frame with every registered section's schema under its name; rebuilt when one comes or goes. */
    private JsonSchema document = FRAME_CHECK;
    private ObjectNode stored = JsonNodeFactory.instance.objectNode();

    ConfigStore(TomlFile file) {
        this.file = file;
    }

    private static ObjectNode loadFrame() {
        try (InputStream in = ConfigStore.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException(SCHEMA + " is missing from the config bundle");
            }
            return (ObjectNode) new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema the whole document is checked against now: the frame and the registered sections. */
    synchronized JsonNode schema() {
        return document.source();
    }

    /**
     * Start-up read. A file that cannot be read or breaks the frame (a top-level key that is
     * not a table) is reported in the log and the server runs on defaults; the file is left
     * as it is (the first accepted {@code config.patch} replaces it). A table that breaks its
     * section's schema is the section's matter ({@link #add}). What an interrupted write left
     * beside the file goes first.
     */
    synchronized void load() {
        file.removeLeftovers();
        String why;
        try {
            ObjectNode doc = file.read();
            Optional<JsonSchema.Violation> v = FRAME_CHECK.validate(doc, "");
            if (v.isEmpty()) {
                stored = doc;
                return;
            }
            why = file.path() + ": " + v.get();
        } catch (TomlFile.Malformed e) {
            why = e.getMessage();
        }
        LOG.log(Level.ERROR, "config: " + why
                + "; running on defaults, the file is left untouched (fix it, then: artu config reload)");
        stored = JsonNodeFactory.instance.objectNode();
    }

    /** Registers a section and applies its live values; a broken section is logged and ignored. */
    synchronized boolean add(ConfigSection s) {
        String name = s.name();
        if (name == null || !SECTION_NAME.matcher(name).matches()) {
            LOG.log(Level.ERROR, "config: section name '" + name + "' is not lower snake_case; ignored");
            return false;
        }
        if (sections.containsKey(name)) {
            LOG.log(Level.ERROR, "config: a second section claims '" + name + "'; ignored");
            return false;
        }
        JsonSchema schema;
        ObjectNode defaults;
        String valueKey;
        try {
            schema = JsonSchema.compile(s.schema());
            defaults = s.defaults().deepCopy();
            valueKey = s.valueKey();
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "config: section '" + name + "' has an unusable schema: " + e.getMessage());
            return false;
        }
        if (valueKey != null) {
            JsonNode props = s.schema().path("properties");
            if (props.size() != 1 || !props.has(valueKey)) {
                LOG.log(Level.ERROR, "config: section '" + name + "' is shown as its key '" + valueKey
                        + "' alone, so that must be its schema's only property; ignored");
                return false;
            }
        }
        Optional<JsonSchema.Violation> bad = schema.validate(defaults, name);
        if (bad.isPresent()) {
            LOG.log(Level.ERROR, "config: section '" + name + "' has invalid defaults (" + bad.get() + "); ignored");
            return false;
        }
        Registered r = new Registered(s, schema, defaults, valueKey);
        sections.put(name, r);
        document = whole();
        ObjectNode live = live(r, stored);
        Optional<JsonSchema.Violation> v = schema.validate(live, name);
        if (v.isPresent()) {
            LOG.log(Level.ERROR, "config: " + file.path() + ": " + v.get() + "; section '" + name
                    + "' runs on its defaults until the file is fixed");
            live = defaults.deepCopy();
        }
        apply(r, live);
        return true;
    }

    synchronized void remove(ConfigSection s) {
        Registered r = sections.get(s.name());
        if (r != null && r.section() == s) {
            sections.remove(s.name());
            document = whole();
        }
    }

    /** The frame with each registered section's schema (as read when it came) as the property of its name. */
    private JsonSchema whole() {
        ObjectNode w = FRAME.deepCopy();
        ObjectNode props = w.putObject("properties");
        sections.forEach((name, r) -> props.set(name, r.schema().source().deepCopy()));
        return JsonSchema.compile(w);
    }

    /**
     * The {@code config.get} result. A section with a value key is shown as that key's value;
     * {@code inactive} shows the file's tables as they are (their sections are not here to say).
     */
    synchronized ObjectNode snapshot(ObjectNode result) {
        result.put("type", "config");
        ObjectNode config = result.putObject("config");
        sections.forEach((name, r) -> {
            ObjectNode live = live(r, stored);
            // A table the file got wrong at start-up runs on defaults: show what runs.
            config.set(name, r.shown(r.schema().validate(live, name).isPresent() ? r.defaults().deepCopy() : live));
        });
        ObjectNode inactive = result.putObject("inactive");
        stored.fields().forEachRemaining(e -> {
            if (!sections.containsKey(e.getKey())) {
                inactive.set(e.getKey(), e.getValue().deepCopy());
            }
        });
        result.put("file", file.path().toString());
        return result;
    }

    /** {@code config.patch}: merge known fields, validate everything, write, apply. */
    synchronized void patch(JsonNode patch) {
        ObjectNode next = stored.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (!sections.containsKey(name)) {
                String why = stored.has(name) ? "config section '" + name + "' is inactive (its bundle is not running)"
                        : "unknown config section '" + name + "'";
                throw invalid(why, name, "patch." + name);
            }
            JsonNode v = shorthand(sections.get(name), e.getValue());
            if (v.isNull()) {
                next.remove(name);
            } else if (!v.isObject()) {
                throw invalid("patch." + name + ": expected an object of keys", name, "patch." + name);
            } else {
                ObjectNode wrapper = JsonNodeFactory.instance.objectNode();
                wrapper.set(name, v);
                Tables.patch(next, wrapper);
            }
        }
        validate(next, "");
        check(next);
        commit(next, true);
    }

    /**
     * A table with a single key may be patched with its value alone: {@code "theme":"nord"}
     * is {@code "theme":{"id":"nord"}}. That is the form a section with a value key is shown
     * in, so what {@code config.get} answers can be sent back as it is.
     */
    private static JsonNode shorthand(Registered r, JsonNode v) {
        JsonNode props = r.schema().source().path("properties");
        if (!(v.isValueNode() && !v.isNull()) || props.size() != 1) {
            return v;
        }
        ObjectNode table = JsonNodeFactory.instance.objectNode();
        table.set(r.valueKey() != null ? r.valueKey() : props.fieldNames().next(), v);
        return table;
    }

    /** The sections' own checks, for every section the change touches (CheckedSection). */
    private void check(ObjectNode next) {
        for (Registered r : sections.values()) {
            if (r.section() instanceof CheckedSection c) {
                ObjectNode now = live(r, next);
                if (!now.equals(live(r, stored))) {
                    c.check(now);
                }
            }
        }
    }

    /** {@code server.reload_config}: the file through the same validate and apply path. */
    synchronized void reload() {
        ObjectNode next;
        try {
            next = file.read();
        } catch (TomlFile.Malformed e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, e.getMessage() + "; the live config is unchanged",
                    Map.of("file", file.path().toString()));
        }
        validate(next, file.path().getFileName() + ": ");
        commit(next, false);
    }

    /** The whole document {@code next} would make live, against the whole schema; the first violation refuses it. */
    private void validate(ObjectNode next, String prefix) {
        Optional<JsonSchema.Violation> v = document.validate(liveDocument(next), "");
        if (v.isPresent()) {
            throw invalid(prefix + v.get() + "; nothing changed", v.get().field(), v.get().path());
        }
    }

    /**
     * What {@code doc} makes live: each registered section's table over its defaults, every
     * other table as written. A value that is not a table stays as it is, so the schema names it.
     */
    private ObjectNode liveDocument(ObjectNode doc) {
        ObjectNode out = doc.deepCopy();
        for (Registered r : sections.values()) {
            JsonNode mine = doc.get(r.section().name());
            if (mine == null || mine.isObject()) {
                out.set(r.section().name(), live(r, doc));
            }
        }
        return out;
    }

    private void commit(ObjectNode next, boolean write) {
        if (write) {
            try {
                file.write(next);
            } catch (IOException e) {
                throw new UhpException(ErrorCode.INTERNAL_ERROR, "could not save " + file.path() + ": " + e
                        + "; the live config and the file are unchanged", Map.of("file", file.path().toString()));
            }
        }
        ObjectNode before = stored;
        stored = next;
        for (Registered r : sections.values()) {
            ObjectNode now = live(r, next);
            if (!now.equals(live(r, before))) {
                apply(r, now);
            }
        }
    }

    private static ObjectNode live(Registered r, ObjectNode doc) {
        ObjectNode live = r.defaults().deepCopy();
        JsonNode mine = doc.get(r.section().name());
        return mine == null ? live : Tables.overlay(live, mine);
    }

    private static void apply(Registered r, ObjectNode values) {
        try {
            r.section().apply(values);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "config: section '" + r.section().name() + "' failed to apply its values", e);
        }
    }

    private static UhpException invalid(String message, String field, String path) {
        return new UhpException(ErrorCode.INVALID_REQUEST, message, Map.of("field", field, "path", path));
    }
}

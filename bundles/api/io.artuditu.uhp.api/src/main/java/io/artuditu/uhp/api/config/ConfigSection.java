package io.artuditu.uhp.api.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One top-level table of {@code config.toml}, contributed by the bundle that owns its
 * keys (whiteboard service). The config bundle picks a section up the moment it is
 * registered and forgets it when it goes away; the values the file holds for a section
 * whose bundle is not running stay in the file untouched and are reported as inactive.
 *
 * <p>Contract:
 * <ul>
 * <li>{@link #name()}, {@link #schema()} and {@link #defaults()} are read once when the
 * service appears and must not change for the service's lifetime.</li>
 * <li>The schema is a JSON Schema in the subset {@code io.artuditu.uhp.api.schema.JsonSchema}
 * enforces. It must describe an object with {@code "additionalProperties": false} at
 * every level that has fixed keys, so an unknown key is rejected rather than stored.</li>
 * <li>The defaults must satisfy the schema and name every fixed key (they are what
 * {@code config.get} shows for a key the user never set).</li>
 * </ul>
 *
 * <p>Threading: {@link #apply} is called by the config bundle with its single writer lock
 * held, so calls for all sections are serialized and never concurrent with one another.
 * It is called once when the section appears, and again after every accepted
 * {@code config.patch} or {@code server.reload_config} that changes this section, always
 * with a complete, already validated, private copy (defaults filled in). It must return
 * quickly, must not block on other services and must not call back into the config
 * bundle. It must not reject a value the schema accepts: the file is already written
 * when it runs. An exception it throws is logged and does not undo the change.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface ConfigSection {
    /** The table's name: lower snake_case, unique in the server, for example {@code sidebars}. */
    String name();

    /** The schema of the table's values (an object schema). */
    JsonNode schema();

    /** The values of every fixed key when the user set nothing. */
    ObjectNode defaults();

    /** Takes the validated live values of this section; see the threading rules above. */
    void apply(ObjectNode values);

    /**
     * The one key whose value stands for the whole table on the wire, or null (the default)
     * for a table shown as an object. With {@code "id"}, the table {@code [theme] id = "nord"}
     * is {@code "theme":"nord"} in {@code config.get} and every config result, and
     * {@code config.patch} takes {@code "theme":"nord"} as well as {@code "theme":{"id":"nord"}}.
     * The file, {@link #defaults()}, {@link #apply} and {@link CheckedSection#check} keep the
     * table form, so a file stays readable by a server that shows the table. Such a section's
     * schema must have exactly that one property; one with others is refused. Read once, with
     * {@link #name()}.
     */
    default String valueKey() {
        return null;
    }
}

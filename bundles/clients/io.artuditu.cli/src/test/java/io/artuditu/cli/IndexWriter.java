package io.artuditu.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Renders the command index ({@link Commands#RESOURCE}, checked in under
 * {@code src/main/resources}) from the installed contract, so the one-shot path never parses
 * the contract; {@code GeneratedFilesTest} fails when the file differs and rewrites it when
 * run with {@code -Dartu.regenerate=true}. One line per method, {@code NAME<TAB>ENTRY}: the entry keeps
 * {@code stream}, {@code target}, {@code cli} and of {@code params} only what maps
 * arguments (types, enums, consts, items' types, required); then one line per alias,
 * {@code PATH<TAB>{"alias":METHOD,"fixed":{…}}} with PATH the alias's words joined by dots.
 */
final class IndexWriter {
    private IndexWriter() {
    }

    static String render() {
        return render(Contract.installed().document());
    }

    /** The index of a contract document (what {@code artu uhp schema} prints). */
    static String render(JsonNode contract) {
        ObjectMapper m = new ObjectMapper();
        StringBuilder methods = new StringBuilder();
        StringBuilder aliases = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = contract.path("methods").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode def = e.getValue();
            ObjectNode entry = m.createObjectNode();
            if (def.has("stream")) {
                entry.put("stream", true);
            }
            if (def.has("target")) {
                entry.set("target", def.get("target"));
            }
            JsonNode cli = def.path("cli");
            if (cli.isObject()) {
                ObjectNode c = ((ObjectNode) cli).deepCopy();
                c.remove("aliases");
                if (c.size() > 0) {
                    entry.set("cli", c);
                }
                for (Iterator<Map.Entry<String, JsonNode>> a = cli.path("aliases").fields(); a.hasNext();) {
                    Map.Entry<String, JsonNode> alias = a.next();
                    ObjectNode ae = m.createObjectNode().put("alias", e.getKey());
                    ae.set("fixed", alias.getValue());
                    aliases.append(alias.getKey().replace(' ', '.').replace('-', '_')).append('\t').append(ae).append('\n');
                }
            }
            ObjectNode params = entry.putObject("params");
            JsonNode schema = def.path("params");
            if (schema.has("required")) {
                params.set("required", schema.get("required"));
            }
            ObjectNode props = params.putObject("properties");
            for (Iterator<Map.Entry<String, JsonNode>> p = schema.path("properties").fields(); p.hasNext();) {
                Map.Entry<String, JsonNode> prop = p.next();
                ObjectNode kept = props.putObject(prop.getKey());
                for (String k : new String[] {"type", "enum", "const"}) {
                    if (prop.getValue().has(k)) {
                        kept.set(k, prop.getValue().get(k));
                    }
                }
                if (prop.getValue().path("items").has("type")) {
                    kept.putObject("items").set("type", prop.getValue().path("items").get("type"));
                }
            }
            methods.append(e.getKey()).append('\t').append(entry).append('\n');
        }
        return methods.append(aliases).toString();
    }
}

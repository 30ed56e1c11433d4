package io.artuditu.uhp.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The installed UHP 1.0 contract: {@code protocol/uhp/v1/index.json} in this bundle
 * names one file per family, each mapping method names to scope, params and result
 * schemas. Loaded once; immutable and thread safe.
 */
public final class UhpContract {
    /** Where the contract lives inside this bundle. */
    public static final String ROOT = "protocol/uhp/v1/";

    private static volatile UhpContract standard;

    private final ObjectNode document;
    private final Map<String, MethodContract> methods;

    private UhpContract(ObjectNode document, Map<String, MethodContract> methods) {
        this.document = document;
        this.methods = Collections.unmodifiableMap(methods);
    }

    /** The contract shipped in this bundle. */
    public static UhpContract standard() {
        UhpContract c = standard;
        if (c == null) {
            synchronized (UhpContract.class) {
                c = standard;
                if (c == null) {
                    standard = c = load(new ObjectMapper());
                }
            }
        }
        return c;
    }

    private static UhpContract load(ObjectMapper mapper) {
        JsonNode index = read(mapper, "index.json");
        ObjectNode doc = mapper.createObjectNode();
        doc.put("uhp", index.path("uhp").asText());
        doc.set("envelope", read(mapper, index.path("envelope").asText()));
        ObjectNode all = doc.putObject("methods");
        Map<String, MethodContract> methods = new LinkedHashMap<>();
        for (JsonNode file : index.path("families")) {
            JsonNode fam = read(mapper, file.asText());
            String family = fam.path("family").asText();
            for (Iterator<Map.Entry<String, JsonNode>> it = fam.path("methods").fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                String name = e.getKey();
                JsonNode m = e.getValue();
                Scope scope = Scope.fromWire(m.path("scope").asText())
                        .orElseThrow(() -> new IllegalStateException(name + ": unknown scope in contract"));
                if (methods.containsKey(name)) {
                    throw new IllegalStateException(name + " is described twice in the contract");
                }
                TargetSpec target = TargetSpec.parse(name, m.get("target"));
                if (target != null) {
                    JsonNode props = m.path("params").path("properties");
                    for (String f : new String[] {target.idField(), target.positionField()}) {
                        if (f != null && !props.has(f)) {
                            throw new IllegalStateException(name + ": target field " + f + " is not a param");
                        }
                    }
                }
                methods.put(name, new MethodContract(name, family, scope, JsonSchema.compile(m.path("params")),
                        JsonSchema.compile(m.path("result")), m.path("mutates").asBoolean(false),
                        m.path("mutates").asBoolean(false) || m.path("revision").asBoolean(false),
                        target, CliSpec.parse(name, m.get("cli"), m.path("params"))));
                ObjectNode entry = all.putObject(name);
                entry.put("family", family);
                entry.setAll((ObjectNode) m);
            }
        }
        return new UhpContract(doc, methods);
    }

    private static JsonNode read(ObjectMapper mapper, String name) {
        try (InputStream in = UhpContract.class.getClassLoader().getResourceAsStream(ROOT + name)) {
            if (in == null) {
                throw new IllegalStateException("contract file missing: " + ROOT + name);
            }
            return mapper.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("contract file unreadable: " + ROOT + name, e);
        }
    }

    /** The method's contract; throws when the contract does not describe it. */
    public MethodContract method(String name) {
        MethodContract m = methods.get(name);
        if (m == null) {
            throw new NoSuchElementException("the UHP contract has no method " + name);
        }
        return m;
    }

    public boolean describes(String name) {
        return methods.containsKey(name);
    }

    /** Every described method, in contract order. */
    public Map<String, MethodContract> methods() {
        return methods;
    }

    /** The whole contract as one document: what {@code artu uhp schema} prints. */
    public ObjectNode document() {
        return document.deepCopy();
    }
}

package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpMethod;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One family file of this bundle's contract, bound to its handlers. */
final class Contract {
    private final JsonNode methods;

    private Contract(JsonNode doc) {
        this.methods = doc.path("methods");
    }

    static Contract load(String resource) {
        try (InputStream in = Contract.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("contract file missing: " + resource);
            }
            return new Contract(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The route table: every handler must have a contract row and every row a handler. */
    List<UhpMethod> bind(Map<String, MethodHandler> handlers) {
        List<UhpMethod> out = new ArrayList<>();
        for (Map.Entry<String, MethodHandler> e : handlers.entrySet()) {
            JsonNode m = methods.get(e.getKey());
            if (m == null) {
                throw new IllegalStateException("no contract for " + e.getKey());
            }
            Scope scope = Scope.fromWire(m.path("scope").asText()).orElseThrow();
            out.add(UhpMethod.of(e.getKey(), scope, m.get("params"), m.get("result"), e.getValue()));
        }
        if (out.size() != methods.size()) {
            throw new IllegalStateException("contract rows without a handler");
        }
        return out;
    }
}

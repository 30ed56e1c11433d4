package io.artuditu.example.echo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import org.osgi.service.component.annotations.Component;

/**
 * A whole third-party method family in one class: the route table names the method, its
 * scope and its schemas (carried in this bundle), and the handler answers it. The
 * dispatcher validates params before {@link #echo} runs, so the handler reads them
 * without checking types.
 */
@Component(service = UhpFamily.class)
public final class EchoFamily implements UhpFamily {
    private final List<UhpMethod> methods;

    public EchoFamily() {
        JsonNode contract = read("protocol/example.echo.json");
        this.methods = List.of(
                UhpMethod.of("example.echo", Scope.READ, contract.get("params"), contract.get("result"), this::echo));
    }

    @Override
    public String family() {
        return "example";
    }

    @Override
    public List<UhpMethod> methods() {
        return methods;
    }

    ObjectNode echo(Call call) {
        String text = call.params().get("text").textValue();
        boolean upper = call.params().path("upper").asBoolean(false);
        return call.newObject().put("type", "echo").put("text", upper ? text.toUpperCase(Locale.ROOT) : text);
    }

    private static JsonNode read(String resource) {
        try (InputStream in = EchoFamily.class.getClassLoader().getResourceAsStream(resource)) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

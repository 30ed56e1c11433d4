package io.artuditu.example.echo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.events.EventBus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code example.publish}: publishes one event on the server's bus. A module showing how
 * a family emits events and declares a mutating method (run under the state lock,
 * honouring {@code if_revision}); the tests use it to drive the event stream. Active only
 * while an {@link EventBus} runs.
 */
@Component(service = UhpFamily.class)
public final class PublishFamily implements UhpFamily {
    private final EventBus bus;
    private final List<UhpMethod> methods;

    @Activate
    public PublishFamily(@Reference EventBus bus) {
        this.bus = bus;
        JsonNode contract = read("protocol/example.publish.json");
        this.methods = List.of(UhpMethod.of("example.publish", Scope.EXTENSIONS, contract.get("params"),
                contract.get("result"), this::publish).mutating());
    }

    @Override
    public String family() {
        return "example";
    }

    @Override
    public List<UhpMethod> methods() {
        return methods;
    }

    ObjectNode publish(Call call) {
        JsonNode data = call.params().get("data");
        long seq;
        try {
            seq = bus.publish(call.params().get("event").textValue(),
                    data == null ? call.newObject() : (ObjectNode) data);
        } catch (IllegalArgumentException e) {
            throw UhpException.invalid(e.getMessage());
        }
        return call.newObject().put("type", "published").put("sequence", seq);
    }

    private static JsonNode read(String resource) {
        try (InputStream in = PublishFamily.class.getClassLoader().getResourceAsStream(resource)) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

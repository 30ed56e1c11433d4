package io.artuditu.example.echo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.schema.FamilyContract;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code example.publish}: publishes one event on the server's bus. A module showing how
 * a family emits events and declares a mutating method (its contract row says
 * {@code "mutates": true}, so it runs under the state lock and honours {@code if_revision});
 * the tests use it to drive the event stream. Active only while an {@link EventBus} runs.
 */
@Component(service = UhpFamily.class)
public final class PublishFamily implements UhpFamily {
    private final EventBus bus;
    private final FamilyContract contract;

    @Activate
    public PublishFamily(@Reference EventBus bus) {
        this.bus = bus;
        this.contract = FamilyContract.load(PublishFamily.class, "protocol/example.publish.json")
                .route("example.publish", this::publish)
                .bind();
    }

    @Override
    public FamilyContract contract() {
        return contract;
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
}

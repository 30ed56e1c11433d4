package io.artuditu.model.internal;

import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import org.osgi.service.component.annotations.Component;

/**
 * The model's contract: no methods, only the lifecycle events it publishes
 * ({@code workspace.created}, {@code tab.created}, {@code tab.closed}, {@code pane.created},
 * {@code pane.closed}), so they are declared by the bundle that publishes them and listed by
 * {@code uhp.capabilities} and {@code artu uhp schema} like every family's.
 */
@Component(service = UhpFamily.class)
public final class ModelContract implements UhpFamily {
    private static final FamilyContract CONTRACT = FamilyContract.load(ModelContract.class, "protocol/uhp/v1/model.json")
            .binder().bind();

    @Override
    public FamilyContract contract() {
        return CONTRACT;
    }
}

package io.artuditu.it.module;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;

/**
 * A module family whose contract has one good method and one broken one (its params schema
 * uses a keyword the validator does not support). Not a test: {@code TestModule} packs it
 * into a bundle that {@code ModuleFailuresTest} installs into a running server.
 */
public final class HalfFamily implements UhpFamily {
    private final FamilyContract contract = FamilyContract.load(HalfFamily.class, "protocol/it.half.json")
            .route("it.half.good", this::good)
            .route("it.half.broken", this::good)
            .bind();

    @Override
    public FamilyContract contract() {
        return contract;
    }

    ObjectNode good(Call call) {
        return call.newObject().put("type", "half").put("text", call.params().path("text").asText(""));
    }
}

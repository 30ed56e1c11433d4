package io.artuditu.example.echo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.Locale;
import org.osgi.service.component.annotations.Component;

/**
 * A whole third-party method family in one class. Its contract (the method's scope and
 * schemas) is a file in this bundle, {@code protocol/example.echo.json}, named in the
 * manifest's {@code Artuditu-Contract} header; the constructor binds the handler to it in
 * one place, exactly as the built-in families do. The dispatcher validates params before
 * {@link #echo} runs, so the handler reads them without checking types.
 */
@Component(service = UhpFamily.class)
public final class EchoFamily implements UhpFamily {
    private final FamilyContract contract = FamilyContract.load(EchoFamily.class, "protocol/example.echo.json")
            .route("example.echo", this::echo)
            .bind();

    @Override
    public FamilyContract contract() {
        return contract;
    }

    ObjectNode echo(Call call) {
        String text = call.params().get("text").textValue();
        boolean upper = call.params().path("upper").asBoolean(false);
        return call.newObject().put("type", "echo").put("text", upper ? text.toUpperCase(Locale.ROOT) : text);
    }
}

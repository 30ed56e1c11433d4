package io.artuditu.config.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.config.ConfigEditor;
import io.artuditu.uhp.api.config.ConfigSection;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.nio.file.Path;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The config family over {@code <home>/config.toml}, and the whiteboard of
 * {@link ConfigSection} services that say which keys exist. A patch or reload that took
 * effect publishes {@code config.changed}, so it moves the revision like every other
 * state change (the contract marks both as mutating). Other bundles change the config through
 * the same path as the {@link ConfigEditor} service ({@code theme.use}).
 */
@Component(service = {UhpFamily.class, ConfigEditor.class})
public final class ConfigFamily implements UhpFamily, ConfigEditor {
    static final String CHANGED = "config.changed";

    private final ConfigStore store;
    private final FamilyContract contract;

    /** The event bus, when its bundle runs. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus bus;

    @Activate
    public ConfigFamily(BundleContext context) {
        this(TomlFile.in(home(context)));
    }

    ConfigFamily(TomlFile file) {
        this.store = new ConfigStore(file);
        store.load();
        this.contract = FamilyContract.load(ConfigFamily.class, "protocol/uhp/v1/config.json")
                .route("config.get", this::get)
                .route("config.patch", this::patch)
                .route("server.reload_config", this::reload)
                .bind();
    }

    /** The framework property {@code artuditu.home}, else the rule every client uses. */
    static Path home(BundleContext context) {
        return SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv())
                .toAbsolutePath().normalize();
    }

    @Reference(service = ConfigSection.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC)
    void addSection(ConfigSection s) {
        store.add(s);
    }

    void removeSection(ConfigSection s) {
        store.remove(s);
    }

    @Override
    public String family() {
        return "config";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    ObjectNode get(Call call) {
        return store.snapshot(call.newObject());
    }

    ObjectNode patch(Call call) {
        store.patch(call.params().get("patch"));
        changed("patch");
        return store.snapshot(call.newObject());
    }

    @Override
    public void patch(ObjectNode patch) {
        store.patch(patch);
        changed("patch");
    }

    ObjectNode reload(Call call) {
        store.reload();
        changed("reload");
        return store.snapshot(call.newObject());
    }

    private void changed(String source) {
        EventBus b = bus;
        if (b != null) {
            b.publish(CHANGED, JsonNodeFactory.instance.objectNode().put("source", source));
        }
    }
}

package io.artuditu.config.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.config.ConfigSection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * PLACEHOLDERS: the spec's live-applied settings whose families (ui, theme, layout,
 * files) are not written yet. Each table in {@code placeholder-sections.json} is
 * registered as an ordinary {@link ConfigSection} service, exactly as the owning family
 * will register it; when a family takes a table over, its entry is removed from the file.
 */
@Component(service = {})
public final class PlaceholderSections {
    static final String RESOURCE = "placeholder-sections.json";
    private final List<ServiceRegistration<ConfigSection>> registrations = new ArrayList<>();

    @Activate
    public PlaceholderSections(BundleContext context) {
        for (PlaceholderSection s : load()) {
            registrations.add(context.registerService(ConfigSection.class, s, null));
        }
    }

    /** The placeholder sections, in file order. */
    static List<PlaceholderSection> load() {
        try (InputStream in = PlaceholderSections.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the bundle");
            }
            JsonNode all = new ObjectMapper().readTree(in);
            List<PlaceholderSection> out = new ArrayList<>();
            all.fields().forEachRemaining(e -> out.add(new PlaceholderSection(e.getKey(),
                    e.getValue().get("schema"), (ObjectNode) e.getValue().get("defaults"))));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Deactivate
    void deactivate() {
        for (ServiceRegistration<ConfigSection> r : registrations) {
            try {
                r.unregister();
            } catch (IllegalStateException alreadyGone) {
                // the framework unregistered it with the bundle
            }
        }
        registrations.clear();
    }
}

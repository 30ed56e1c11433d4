package io.artuditu.terminal.internal.pane;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.terminal.internal.Screens;
import io.artuditu.uhp.api.config.ConfigSection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code pane} table of {@code config.toml}: scrollback budgets. {@code history_budget_bytes}
 * is what each new screen may keep, {@code total_history_budget_bytes} what all live screens
 * may keep together; both apply to screens made after the change (a screen's budget is fixed
 * when it is made). Schema and defaults are {@code pane-config.json} beside this class.
 */
@Component(service = ConfigSection.class)
public final class PaneConfig implements ConfigSection {
    static final String NAME = "pane";
    private static final JsonNode DOC = load();

    private final Screens screens;

    @Activate
    public PaneConfig(@Reference Screens screens) {
        this.screens = screens;
    }

    private static JsonNode load() {
        try (InputStream in = PaneConfig.class.getResourceAsStream("pane-config.json")) {
            if (in == null) {
                throw new IllegalStateException("pane-config.json is missing from the terminal bundle");
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public JsonNode schema() {
        return DOC.get("schema").deepCopy();
    }

    @Override
    public ObjectNode defaults() {
        return (ObjectNode) DOC.get("defaults").deepCopy();
    }

    @Override
    public void apply(ObjectNode values) {
        screens.historyBudget(values.path("history_budget_bytes").asLong(Screens.DEFAULT_HISTORY_BUDGET));
        screens.totalHistoryBudget(values.path("total_history_budget_bytes").asLong(Screens.DEFAULT_TOTAL_HISTORY_BUDGET));
    }
}

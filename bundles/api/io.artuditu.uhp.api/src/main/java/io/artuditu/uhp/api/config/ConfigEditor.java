package io.artuditu.uhp.api.config;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The config bundle's own path for a change made on a user's behalf by another bundle
 * ({@code theme.use} sets {@code theme.id}): exactly {@code config.patch}, with its merge,
 * whole validation (schemas and {@link CheckedSection#check}), atomic write, live apply and
 * {@code config.changed} event.
 */
@org.osgi.annotation.versioning.ProviderType
public interface ConfigEditor {
    /**
     * Merges {@code patch} (section tables, as {@code config.patch}'s {@code patch}) and
     * applies it; throws {@link io.artuditu.uhp.api.UhpException} with nothing changed when
     * anything is unknown or invalid.
     */
    void patch(ObjectNode patch);
}

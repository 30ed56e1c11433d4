package io.artuditu.uhp.api.config;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@link ConfigSection} whose values must also agree with state its bundle owns, which a
 * schema cannot express: the selected theme must exist in the theme registry.
 *
 * <p>{@link #check} is called for a {@code config.patch} (and for {@link ConfigEditor#patch})
 * that changes this section, after the schema accepted the whole result and before the file
 * is written, with the same writer lock held as {@link #apply}. It refuses by throwing
 * {@link io.artuditu.uhp.api.UhpException}, which becomes the request's error and leaves the
 * config and file unchanged. It is not called for the file read at start-up or by
 * {@code server.reload_config}: a hand-edited file is taken as written and the section
 * decides how to run with a value it cannot honour (a missing theme falls back visually).
 * The same rules as {@code apply}: quick, no blocking, no calls into the config bundle.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface CheckedSection extends ConfigSection {
    /** Refuses {@code values} (the section's complete next live values) by throwing. */
    void check(ObjectNode values);
}

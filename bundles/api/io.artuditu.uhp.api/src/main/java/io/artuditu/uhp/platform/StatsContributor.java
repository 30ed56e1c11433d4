package io.artuditu.uhp.platform;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Whiteboard service adding bounded operational counters to {@code uhp.stats}. Each
 * contributor writes its own fields into the result object; it must be cheap (no I/O)
 * and must not expose pane text, commands, paths or secrets.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface StatsContributor {
    void contribute(ObjectNode stats);
}

package io.artuditu.uhp.api;

import java.util.List;

/**
 * A method family: the whiteboard service a bundle registers to add methods. The
 * dispatcher reads {@link #methods()} once when the service appears and forgets them
 * when it goes away, so a family's route table is fixed for its service's lifetime.
 *
 * <p>When two families claim one method name, the service with the higher
 * {@code service.ranking} wins, then the one registered first (lower
 * {@code service.id}); the loser is listed under {@code conflicts} in
 * {@code uhp.capabilities} and logged. When the winner goes away the loser takes over.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface UhpFamily {
    /** The family name, as in the spec's table ({@code discovery}, {@code pane}, …). */
    String family();

    /** The route table: one entry per method. */
    List<UhpMethod> methods();
}

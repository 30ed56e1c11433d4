package io.artuditu.uhp.platform;

import java.util.Objects;

/**
 * Something a bundle meant to offer that the server does not: a family that could not
 * register, or one method or event of a family that did. Listed by {@code uhp.capabilities}
 * under {@code failures}.
 *
 * @param family the family's name; for a family that failed before it could say, its
 *               component's name
 * @param method the method left out, or null
 * @param event  the event left out, or null
 * @param bundle symbolic name of the bundle that provides it
 * @param reason what went wrong, for an operator
 */
public record FamilyFailure(String family, String method, String event, String bundle, String reason) {
    public FamilyFailure {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(bundle, "bundle");
        Objects.requireNonNull(reason, "reason");
    }
}

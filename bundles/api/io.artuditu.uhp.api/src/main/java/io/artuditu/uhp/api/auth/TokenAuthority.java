package io.artuditu.uhp.api.auth;

import io.artuditu.uhp.api.Scope;
import java.util.Optional;
import java.util.Set;

/**
 * Answers what a delegated token may do. The dispatcher asks it once per request that
 * carries {@code auth}; with no provider registered every such request is refused.
 *
 * <p>Trust boundary: the argument is the raw secret exactly as the client sent it, so
 * an implementation must never log it, keep it or compare it in time that depends on
 * its content. Thread safe: called concurrently from connection threads.
 */
@org.osgi.annotation.versioning.ProviderType
public interface TokenAuthority {
    /**
     * The scopes a live token grants, or empty when the secret is malformed, unknown,
     * expired or revoked (callers must not be able to tell which).
     */
    Optional<Set<Scope>> scopesOf(String secret);

    /** Whether holding {@code held} allows a method that needs {@code needed}: {@code all} allows everything. */
    static boolean grants(Set<Scope> held, Scope needed) {
        return held.contains(Scope.ALL) || held.contains(needed);
    }
}

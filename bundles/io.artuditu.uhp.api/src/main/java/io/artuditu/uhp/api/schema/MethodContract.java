package io.artuditu.uhp.api.schema;

import io.artuditu.uhp.api.Scope;

/**
 * One method as the contract describes it.
 *
 * @param name   exact method name
 * @param family family the method belongs to
 * @param scope  scope a delegated token needs
 * @param params compiled params schema
 * @param result compiled result schema
 * @param mutates  the method changes application state ({@code "mutates": true})
 * @param revision its results carry the current revision ({@code "revision": true}, implied by mutates)
 * @param target   what the method acts on ({@code "target"}), or null when it names no workspace, tab, pane or terminal
 */
public record MethodContract(String name, String family, Scope scope, JsonSchema params, JsonSchema result,
        boolean mutates, boolean revision, TargetSpec target) {
    /** A read-only method whose results carry no revision and which names no target. */
    public MethodContract(String name, String family, Scope scope, JsonSchema params, JsonSchema result) {
        this(name, family, scope, params, result, false, false, null);
    }
}

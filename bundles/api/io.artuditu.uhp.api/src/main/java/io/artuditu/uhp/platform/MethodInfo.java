package io.artuditu.uhp.platform;

import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.schema.JsonSchema;

/**
 * One row of the live method registry.
 *
 * @param name   exact method name
 * @param family family name
 * @param scope  scope a token needs to call it
 * @param bundle symbolic name of the bundle that provides it
 * @param params the params schema the dispatcher validates with, or null when unknown
 */
public record MethodInfo(String name, String family, Scope scope, String bundle, JsonSchema params) {
    /** A row without its params schema. */
    public MethodInfo(String name, String family, Scope scope, String bundle) {
        this(name, family, scope, bundle, null);
    }
}

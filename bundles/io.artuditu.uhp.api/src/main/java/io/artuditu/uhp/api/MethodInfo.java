package io.artuditu.uhp.api;

/**
 * One row of the live method registry.
 *
 * @param name   exact method name
 * @param family family name
 * @param scope  scope a token needs to call it
 * @param bundle symbolic name of the bundle that provides it
 */
public record MethodInfo(String name, String family, Scope scope, String bundle) {
}

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
 */
public record MethodContract(String name, String family, Scope scope, JsonSchema params, JsonSchema result) {
}

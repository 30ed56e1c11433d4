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
 * @param cli      how the {@code artu} command line spells it ({@code "cli"}); {@link CliSpec#NONE} when undeclared
 */
public record MethodContract(String name, String family, Scope scope, JsonSchema params, JsonSchema result,
        boolean mutates, boolean revision, TargetSpec target, CliSpec cli) {
    public MethodContract {
        cli = cli == null ? CliSpec.NONE : cli;
    }

    /** A method the command line spells only by its name and params. */
    public MethodContract(String name, String family, Scope scope, JsonSchema params, JsonSchema result,
            boolean mutates, boolean revision, TargetSpec target) {
        this(name, family, scope, params, result, mutates, revision, target, CliSpec.NONE);
    }

    /** A read-only method whose results carry no revision and which names no target. */
    public MethodContract(String name, String family, Scope scope, JsonSchema params, JsonSchema result) {
        this(name, family, scope, params, result, false, false, null);
    }
}

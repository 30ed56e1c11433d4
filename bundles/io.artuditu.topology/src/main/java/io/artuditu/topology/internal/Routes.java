package io.artuditu.topology.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.MethodContract;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.workspace.Workspaces;
import io.artuditu.workspace.topology.Change;
import io.artuditu.workspace.topology.Spawner;
import io.artuditu.workspace.topology.Target;
import io.artuditu.workspace.topology.Targets;
import io.artuditu.workspace.topology.Topology;
import io.artuditu.workspace.topology.TopologyOps;
import java.io.IOException;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * How a topology method is wired: its contract row, its declared target resolved once by
 * {@link Targets} (for a change, against the very state the change runs on, on the app
 * loop), then its handler. A read sees one {@link Workspaces#topology()}; a change runs as
 * one {@link Workspaces#change} and answers from the state it produced.
 */
final class Routes {
    /** A read: the state it reads and its resolved target (null when the method declares none). */
    @FunctionalInterface
    interface Read {
        ObjectNode read(Call call, Topology s, Target target);
    }

    /** A change: the state it runs on, its resolved target, the operations and the spawner. */
    @FunctionalInterface
    interface Edit {
        Change<ObjectNode> edit(Call call, Topology s, Target target, TopologyOps ops, Spawner sp) throws IOException;
    }

    private final Workspaces workspaces;
    private final UhpContract contract = UhpContract.standard();

    Routes(Workspaces workspaces) {
        this.workspaces = workspaces;
    }

    UhpMethod read(String name, Read read) {
        MethodContract c = contract.method(name);
        TargetSpec spec = c.target();
        return UhpMethod.of(c, call -> {
            Topology s = workspaces.topology();
            return read.read(call, s, spec == null ? null : Targets.resolve(s, spec, call.params()));
        });
    }

    UhpMethod edit(String name, Edit edit) {
        MethodContract c = contract.method(name);
        TargetSpec spec = c.target();
        return UhpMethod.of(c, call -> {
            try {
                return workspaces.change((s, ops, sp) -> edit.edit(call, s,
                        spec == null ? null : Targets.resolve(s, spec, call.params()), ops, sp));
            } catch (IOException e) {
                throw new UhpException(ErrorCode.SPAWN_FAILED, "the pane's process could not be started: "
                        + e.getMessage(), Map.of("reason", "spawn_failed"));
            }
        });
    }

    /** An accepted change whose answer is built from the state it produced. */
    static <T> Change<ObjectNode> then(Change<T> c, BiFunction<Topology, T, ObjectNode> result) {
        return new Change<>(c.state(), c.events(), result.apply(c.state(), c.result()));
    }
}

package io.artuditu.topology.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.MethodContract;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Targets;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyOps;
import java.io.IOException;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * How a topology method is wired: its contract row (from the family's file in this
 * bundle), its declared target resolved once by {@link Targets} (for a change, against the
 * very state the change runs on, on the app loop), then its handler. A read sees one
 * {@link Workspaces#topology()}; a change runs as one {@link Workspaces#change} and answers
 * from the state it produced. One family's route table: {@code new Routes(…).read(…).edit(…).bind()}.
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
    private final FamilyContract.Binder binder;

    Routes(Workspaces workspaces, FamilyContract contract) {
        this.workspaces = workspaces;
        this.binder = contract.binder();
    }

    /** A read of {@code name}. */
    Routes read(String name, Read read) {
        binder.routeWith(name, c -> readHandler(c, read));
        return this;
    }

    /** A change by {@code name}. */
    Routes edit(String name, Edit edit) {
        binder.routeWith(name, c -> editHandler(c, edit));
        return this;
    }

    /** The family's contract with these routes. */
    FamilyContract bind() {
        return binder.bind();
    }

    private MethodHandler readHandler(MethodContract c, Read read) {
        TargetSpec spec = c.target();
        return call -> {
            Topology s = workspaces.topology();
            return read.read(call, s, spec == null ? null : Targets.resolve(s, spec, call.params()));
        };
    }

    private MethodHandler editHandler(MethodContract c, Edit edit) {
        TargetSpec spec = c.target();
        return call -> {
            try {
                return workspaces.change((s, ops, sp) -> edit.edit(call, s,
                        spec == null ? null : Targets.resolve(s, spec, call.params()), ops, sp));
            } catch (IOException e) {
                throw new UhpException(ErrorCode.SPAWN_FAILED, "the pane's process could not be started: "
                        + e.getMessage(), Map.of("reason", "spawn_failed"));
            }
        };
    }

    /** An accepted change whose answer is built from the state it produced. */
    static <T> Change<ObjectNode> then(Change<T> c, BiFunction<Topology, T, ObjectNode> result) {
        return new Change<>(c.state(), c.events(), result.apply(c.state(), c.result()));
    }
}

package io.artuditu.topology.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.topology.internal.rules.TopologyOps;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * How a topology method is wired: its contract row (from the family's file in this
 * bundle), then its handler, which gets the target the dispatcher resolved
 * ({@link Call#target}). A read answers from the instant its target was resolved in (or,
 * naming none, the current one); a change runs as one {@link Workspaces#change} on the
 * model's app loop, with the request's {@code if_revision} checked there, finds its target
 * again by its ids, and answers from the state it produced. One family's route table:
 * {@code new Routes(…).read(…).edit(…).bind()}.
 */
final class Routes {
    /** A read: the state it reads and its resolved target (null when the method declares none). */
    @FunctionalInterface
    interface Read {
        ObjectNode read(Call call, Topology s, Target target);
    }

    /** A change: the state it runs on, its resolved target, the rules and the spawner. */
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
        binder.routeWith(name, c -> readHandler(c.target() != null, read));
        return this;
    }

    /** A change by {@code name}. */
    Routes edit(String name, Edit edit) {
        binder.routeWith(name, c -> editHandler(c.target() != null, edit));
        return this;
    }

    /** The family's contract with these routes. */
    FamilyContract bind() {
        return binder.bind();
    }

    private MethodHandler readHandler(boolean targeted, Read read) {
        return call -> {
            Target t = targeted ? call.target(Target.class) : null;
            return read.read(call, t != null ? t.state() : workspaces.topology(), t);
        };
    }

    private MethodHandler editHandler(boolean targeted, Edit edit) {
        return call -> {
            Target t = targeted ? call.target(Target.class) : null;
            try {
                return workspaces.change(call.ifRevision(), (s, sp) -> edit.edit(call, s, t, TopologyOps.of(sp), sp));
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

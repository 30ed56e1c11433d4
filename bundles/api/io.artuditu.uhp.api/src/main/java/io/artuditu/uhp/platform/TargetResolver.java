package io.artuditu.uhp.platform;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.schema.TargetSpec;
import java.util.Set;

/**
 * Finds the object a method's declared target names: the one place a workspace, tab, pane,
 * terminal or agent is looked up for every method of that kind. A whiteboard service: the
 * dispatcher tracks every resolver, asks the one of the target's kind once per call, after
 * the params passed their schema and before the handler runs, and hands the handler the
 * answer ({@link io.artuditu.uhp.api.Call#target}). A call whose kind has no resolver
 * running answers {@code method_unavailable}.
 *
 * <p>Registered by the bundle that owns the objects: the workspace model for workspaces,
 * tabs and panes, the terminal family for terminals, the agents family for agents. Called
 * on request threads, concurrently: it must only read, and must not block.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface TargetResolver {
    /** The kinds this resolver answers; fixed for the service's lifetime. */
    Set<TargetSpec.Kind> kinds();

    /**
     * The object {@code spec} names in {@code params} (already valid against the method's
     * schema). An omitted target means what {@link TargetSpec#omitted()} says.
     *
     * @return what the handler gets; never null
     * @throws io.artuditu.uhp.api.UhpException {@code not_found} (through
     *     {@link io.artuditu.uhp.api.UhpException#notFound(String, String, String, String)}) or
     *     {@code invalid_request} with the field at fault
     */
    Object resolve(TargetSpec spec, ObjectNode params);

    /**
     * A further target ({@code "targets"}, by role), resolved in the context of the
     * method's own target: {@code primary} is what {@link #resolve(TargetSpec, ObjectNode)}
     * answered for it (null when the method declares none). A tab named by position counts
     * in the primary target's workspace. The default ignores the context.
     */
    default Object resolve(TargetSpec spec, ObjectNode params, Object primary) {
        return resolve(spec, params);
    }
}

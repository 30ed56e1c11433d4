package io.artuditu.model.topology;

import static io.artuditu.uhp.api.UhpException.invalid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.TargetSpec;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The one resolver of workspace, tab and pane targets: every method that names one finds
 * it here (the model registers it as the dispatcher's resolver of those kinds, and a
 * stream that switches panes on its own resolves with it too), against one instant of the
 * topology, with one wording for every refusal. A
 * target may be named by its id, by its position, or by both when they agree; naming
 * neither means the focused one or is refused, as the method's contract says.
 * Out-of-range workspace indices and unknown ids are {@code not_found}; malformed ids, tab
 * positions outside the workspace, disagreeing id and position and missing required targets
 * are {@code invalid_request}. The params have already passed the method's schema, so types
 * are right. A pane that is gone with its process is {@code not_found} with its exit
 * ({@code state: exited}, {@code exit_status}, {@code exited_at_ms}, {@code terminal_id}); one
 * never seen (or long gone) with {@code state: unknown}.
 * Thread safe: it only reads.
 */
public final class Targets {
    /** The params that give a tab's workspace (its position is counted in that workspace). */
    static final String WORKSPACE = "workspace";
    static final String WORKSPACE_ID = "workspace_id";

    private static final Pattern WORKSPACE_ID_SHAPE = Pattern.compile("workspace_[0-9a-f]{16}");
    private static final Pattern TAB_ID_SHAPE = Pattern.compile("tab_[0-9a-f]{16}");
    private static final Pattern PANE_ID_SHAPE = Pattern.compile("[1-9][0-9]{0,17}");

    private static final TargetSpec WORKSPACE_CONTEXT = new TargetSpec(TargetSpec.Kind.WORKSPACE, WORKSPACE_ID,
            WORKSPACE, TargetSpec.Omitted.FOCUSED);

    private Targets() {
    }

    /**
     * Resolves {@code spec} in {@code p} against {@code s} ({@code primary} null), or a further
     * target in the context of the method's own ({@code primary}): against the topology
     * {@code primary} was resolved in, and a tab position that names no workspace counts in
     * {@code primary}'s workspace.
     *
     * @param exits what is known of a pane that left with its process (its exit, as
     *     {@code not_found} evidence), by pane id; empty for none
     */
    public static Target resolve(Topology current, TargetSpec spec, ObjectNode p, Target primary,
            Function<String, Map<String, Object>> exits) {
        Topology s = primary != null ? primary.state() : current;
        Workspace context = primary == null || p.hasNonNull(WORKSPACE) || p.hasNonNull(WORKSPACE_ID) ? null
                : s.workspace(primary.workspaceId()).orElse(null);
        return switch (spec.kind()) {
            case WORKSPACE -> workspace(s, spec, p);
            case TAB -> tab(s, spec, p, context);
            case PANE -> pane(s, spec, p, exits);
            default -> throw new IllegalArgumentException(spec.kind().wire() + " targets are not the topology's");
        };
    }

    private static Target workspace(Topology s, TargetSpec spec, ObjectNode p) {
        Integer index = integer(p, spec.positionField());
        String id = text(p, spec.idField());
        Workspace byIndex = index == null ? null : workspaceAt(s, spec.positionField(), index);
        Workspace byId = id == null ? null : workspaceById(s, spec.idField(), id);
        if (byIndex != null && byId != null && !byIndex.id().equals(byId.id())) {
            throw invalid(spec.idField(), "mismatch", spec.positionField() + " " + index + " is not " + id);
        }
        Workspace w = byIndex != null ? byIndex : byId;
        if (w == null) {
            if (spec.omitted() == TargetSpec.Omitted.REQUIRED) {
                throw invalid(spec.positionField(), "missing", spec.positionField() + " or " + spec.idField() + " is required");
            }
            w = s.active().orElseThrow(() -> UhpException.notFound("workspace", null, spec.positionField(),
                    "there is no workspace"));
        }
        return Target.of(s, w, byIndex != null || byId != null);
    }

    private static Target tab(Topology s, TargetSpec spec, ObjectNode p, Workspace context) {
        boolean wsNamed = p.hasNonNull(WORKSPACE) || p.hasNonNull(WORKSPACE_ID);
        Workspace named = wsNamed ? workspace(s, WORKSPACE_CONTEXT, p).workspace() : null;
        Workspace in = named != null ? named : context;
        String id = text(p, spec.idField());
        Topology.Location byId = id == null ? null : tabById(s, spec.idField(), id);
        if (byId != null && named != null && !named.id().equals(byId.workspace().id())) {
            throw invalid(spec.idField(), "other_workspace", "tab " + id + " is not in the named workspace");
        }
        Topology.Location at = tabIn(s, in != null ? in : byId != null ? byId.workspace() : null, p, spec.positionField(),
                spec.idField());
        if (at == null) {
            if (spec.omitted() == TargetSpec.Omitted.REQUIRED) {
                throw invalid(spec.positionField(), "missing", spec.positionField() + " or " + spec.idField() + " is required");
            }
            Workspace w = in != null ? in : s.active().orElseThrow(() -> UhpException.notFound("workspace", null,
                    WORKSPACE, "there is no workspace"));
            if (w.activeTab() == null) {
                throw UhpException.notFound("tab", null, spec.positionField(), "the workspace has no tab");
            }
            at = s.locateTab(w.activeTab()).orElseThrow();
        }
        return Target.of(s, at, null, p.hasNonNull(spec.positionField()) || id != null);
    }

    /**
     * The tab {@code p} names by 1-based {@code positionField} (counted in {@code in}, or in
     * the active workspace when null) and/or by {@code idField} (anywhere); null when it names
     * neither. Both must agree.
     */
    private static Topology.Location tabIn(Topology s, Workspace in, ObjectNode p, String positionField, String idField) {
        Integer pos = integer(p, positionField);
        String id = text(p, idField);
        Topology.Location byId = id == null ? null : tabById(s, idField, id);
        if (pos == null) {
            return byId;
        }
        Workspace w = in != null ? in : s.active().orElseThrow(() -> UhpException.notFound("workspace", null, WORKSPACE,
                "there is no workspace"));
        Topology.Location byPos = s.locateTab(tabAt(w, positionField, pos).id()).orElseThrow();
        if (byId != null && !byId.tab().id().equals(byPos.tab().id())) {
            throw invalid(idField, "mismatch", positionField + " " + pos + " is not " + id);
        }
        return byPos;
    }

    private static Target pane(Topology s, TargetSpec spec, ObjectNode p, Function<String, Map<String, Object>> exits) {
        String id = text(p, spec.idField());
        if (id != null) {
            if (!PANE_ID_SHAPE.matcher(id).matches()) {
                throw invalid(spec.idField(), "malformed", spec.idField() + " must be a decimal pane id");
            }
            Topology.Location at = s.locate(id).orElseThrow(() -> {
                Map<String, Object> gone = exits.apply(id);
                return gone.isEmpty() ? UhpException.notFound("pane", id, spec.idField(), "no such pane: " + id,
                        Map.of("state", "unknown"))
                        : UhpException.notFound("pane", id, spec.idField(), "pane " + id + " exited with status "
                                + gone.get("exit_status"), gone);
            });
            return Target.of(s, at, id, true);
        }
        if (spec.omitted() == TargetSpec.Omitted.REQUIRED) {
            throw invalid(spec.idField(), "missing", spec.idField() + " is required");
        }
        String focused = s.focusedPane().orElseThrow(() -> UhpException.notFound("pane", null, spec.idField(),
                "there is no focused pane"));
        return Target.of(s, s.locate(focused).orElseThrow(), focused, false);
    }

    // ---------------------------------------------------------------- one object by one field

    /** The workspace at a 0-based API index; out of range is {@code not_found}, as the spec says. */
    private static Workspace workspaceAt(Topology s, String field, int index) {
        if (index < 0 || index >= s.workspaces().size()) {
            throw UhpException.notFound("workspace", Integer.toString(index), field, "no workspace at index " + index);
        }
        return s.workspaces().get(index);
    }

    /** A workspace by id; a malformed id is {@code invalid_request}, an unknown one {@code not_found}. */
    private static Workspace workspaceById(Topology s, String field, String id) {
        if (!WORKSPACE_ID_SHAPE.matcher(id).matches()) {
            throw invalid(field, "malformed", field + " must be workspace_<16 hex digits>");
        }
        return s.workspace(id).orElseThrow(() -> UhpException.notFound("workspace", id, field, "no such workspace: " + id));
    }

    /** The tab at a 1-based position; zero or out of range is {@code invalid_request}, as the spec says. */
    private static io.artuditu.model.topology.Tab tabAt(Workspace w, String field, int position) {
        if (position < 1 || position > w.tabs().size()) {
            throw invalid(field, "out_of_range", "tab position " + position + " is not 1.." + w.tabs().size());
        }
        return w.tabs().get(position - 1);
    }

    /** A tab by id anywhere; malformed → {@code invalid_request}, unknown → {@code not_found}. */
    private static Topology.Location tabById(Topology s, String field, String id) {
        if (!TAB_ID_SHAPE.matcher(id).matches()) {
            throw invalid(field, "malformed", field + " must be tab_<16 hex digits>");
        }
        return s.locateTab(id).orElseThrow(() -> UhpException.notFound("tab", id, field, "no such tab: " + id));
    }

    private static Integer integer(ObjectNode p, String name) {
        JsonNode v = name == null ? null : p.get(name);
        return v == null || v.isNull() ? null : v.intValue();
    }

    private static String text(ObjectNode p, String name) {
        JsonNode v = name == null ? null : p.get(name);
        return v == null || v.isNull() ? null : v.textValue();
    }
}

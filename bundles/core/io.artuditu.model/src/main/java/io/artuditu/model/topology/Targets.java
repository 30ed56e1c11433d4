package io.artuditu.model.topology;

import static io.artuditu.model.topology.TopologyException.invalid;
import static io.artuditu.model.topology.TopologyException.missing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.schema.TargetSpec;
import java.util.regex.Pattern;

/**
 * The one resolver of declared targets ({@link TargetSpec}): every method that names a
 * workspace, tab or pane finds it here, with one wording for every refusal. A target may be
 * named by its id, by its position, or by both when they agree; naming neither means the
 * focused one or is refused, as the method's contract says. Out-of-range workspace indices
 * and unknown ids are {@code not_found}; malformed ids, tab positions outside the workspace,
 * disagreeing id and position and missing required targets are {@code invalid_request}. The
 * params have already passed the method's schema, so types are right. Pure and thread safe.
 */
public final class Targets {
    /** The params that give a tab's workspace (its position is counted in that workspace). */
    public static final String WORKSPACE = "workspace";
    public static final String WORKSPACE_ID = "workspace_id";

    private static final Pattern WORKSPACE_ID_SHAPE = Pattern.compile("workspace_[0-9a-f]{16}");
    private static final Pattern TAB_ID_SHAPE = Pattern.compile("tab_[0-9a-f]{16}");
    private static final Pattern PANE_ID_SHAPE = Pattern.compile("[1-9][0-9]{0,17}");

    private static final TargetSpec WORKSPACE_CONTEXT = new TargetSpec(TargetSpec.Kind.WORKSPACE, WORKSPACE_ID,
            WORKSPACE, TargetSpec.Omitted.FOCUSED);

    private Targets() {
    }

    /** Resolves {@code spec} in {@code p} against {@code s}. */
    public static Target resolve(Topology s, TargetSpec spec, ObjectNode p) {
        return switch (spec.kind()) {
            case WORKSPACE -> workspace(s, spec, p);
            case TAB -> tab(s, spec, p);
            case PANE -> pane(s, spec, p);
            case TERMINAL -> throw new IllegalArgumentException("terminals are resolved by the terminal host, not the topology");
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
            w = s.active().orElseThrow(() -> missing(spec.positionField(), "there is no workspace"));
        }
        return Target.of(s, w, byIndex != null || byId != null);
    }

    private static Target tab(Topology s, TargetSpec spec, ObjectNode p) {
        boolean wsNamed = p.hasNonNull(WORKSPACE) || p.hasNonNull(WORKSPACE_ID);
        Workspace in = wsNamed ? workspace(s, WORKSPACE_CONTEXT, p).workspace() : null;
        String id = text(p, spec.idField());
        Topology.Location byId = id == null ? null : tabById(s, spec.idField(), id);
        if (byId != null && in != null && !in.id().equals(byId.workspace().id())) {
            throw invalid(spec.idField(), "other_workspace", "tab " + id + " is not in the named workspace");
        }
        Topology.Location at = tabIn(s, in != null ? in : byId != null ? byId.workspace() : null, p, spec.positionField(),
                spec.idField());
        if (at == null) {
            if (spec.omitted() == TargetSpec.Omitted.REQUIRED) {
                throw invalid(spec.positionField(), "missing", spec.positionField() + " or " + spec.idField() + " is required");
            }
            Workspace w = in != null ? in : s.active().orElseThrow(() -> missing(WORKSPACE, "there is no workspace"));
            if (w.activeTab() == null) {
                throw missing(spec.positionField(), "the workspace has no tab");
            }
            at = s.locateTab(w.activeTab()).orElseThrow();
        }
        return Target.of(at, null, p.hasNonNull(spec.positionField()) || id != null);
    }

    /**
     * The tab {@code p} names by 1-based {@code positionField} (counted in {@code in}, or in
     * the active workspace when null) and/or by {@code idField} (anywhere); null when it names
     * neither. Both must agree.
     */
    public static Topology.Location tabIn(Topology s, Workspace in, ObjectNode p, String positionField, String idField) {
        Integer pos = integer(p, positionField);
        String id = text(p, idField);
        Topology.Location byId = id == null ? null : tabById(s, idField, id);
        if (pos == null) {
            return byId;
        }
        Workspace w = in != null ? in : s.active().orElseThrow(() -> missing(WORKSPACE, "there is no workspace"));
        Topology.Location byPos = s.locateTab(tabAt(w, positionField, pos).id()).orElseThrow();
        if (byId != null && !byId.tab().id().equals(byPos.tab().id())) {
            throw invalid(idField, "mismatch", positionField + " " + pos + " is not " + id);
        }
        return byPos;
    }

    private static Target pane(Topology s, TargetSpec spec, ObjectNode p) {
        String id = text(p, spec.idField());
        if (id != null) {
            return Target.of(paneById(s, spec.idField(), id), id, true);
        }
        if (spec.omitted() == TargetSpec.Omitted.REQUIRED) {
            throw invalid(spec.idField(), "missing", spec.idField() + " is required");
        }
        String focused = s.focusedPane().orElseThrow(() -> missing(spec.idField(), "there is no focused pane"));
        return Target.of(s.locate(focused).orElseThrow(), focused, false);
    }

    // ---------------------------------------------------------------- one object by one field

    /** The workspace at a 0-based API index; out of range is {@code not_found}, as the spec says. */
    public static Workspace workspaceAt(Topology s, String field, int index) {
        if (index < 0 || index >= s.workspaces().size()) {
            throw missing(field, "no workspace at index " + index);
        }
        return s.workspaces().get(index);
    }

    /** A workspace by id; a malformed id is {@code invalid_request}, an unknown one {@code not_found}. */
    public static Workspace workspaceById(Topology s, String field, String id) {
        if (!WORKSPACE_ID_SHAPE.matcher(id).matches()) {
            throw invalid(field, "malformed", field + " must be workspace_<16 hex digits>");
        }
        return s.workspace(id).orElseThrow(() -> missing(field, "no such workspace: " + id));
    }

    /** The tab at a 1-based position; zero or out of range is {@code invalid_request}, as the spec says. */
    public static Tab tabAt(Workspace w, String field, int position) {
        if (position < 1 || position > w.tabs().size()) {
            throw invalid(field, "out_of_range", "tab position " + position + " is not 1.." + w.tabs().size());
        }
        return w.tabs().get(position - 1);
    }

    /** A tab by id anywhere; malformed → {@code invalid_request}, unknown → {@code not_found}. */
    public static Topology.Location tabById(Topology s, String field, String id) {
        if (!TAB_ID_SHAPE.matcher(id).matches()) {
            throw invalid(field, "malformed", field + " must be tab_<16 hex digits>");
        }
        return s.locateTab(id).orElseThrow(() -> missing(field, "no such tab: " + id));
    }

    /** A pane by id; malformed → {@code invalid_request}, unknown → {@code not_found} ("no such pane: 42"). */
    public static Topology.Location paneById(Topology s, String field, String id) {
        if (!PANE_ID_SHAPE.matcher(id).matches()) {
            throw invalid(field, "malformed", field + " must be a decimal pane id");
        }
        return s.locate(id).orElseThrow(() -> missing(field, "no such pane: " + id));
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

package io.artuditu.agents.internal;

import static io.artuditu.uhp.api.UhpException.invalid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.api.AgentStates;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.TargetSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The one reading of an agent target ({@code agent.fork}'s rule, for every agent method):
 * a numeric pane id, else a live alias (a pane's name), else an agent kind that runs in
 * exactly one pane; or, in a {@code pane} param beside it (the name every pane method
 * uses), a plain pane id. Both given, they must name the same pane. Omitted, the focused
 * pane, or {@code invalid_request} when the method requires one. Thread safe: it reads one
 * instant of the topology and the agents' published states.
 */
final class AgentTargets {
    /** The param that names an agent's pane by its plain id, beside the agent target. */
    static final String PANE = "pane";
    private static final Pattern PANE_ID = Pattern.compile("[1-9][0-9]{0,17}");

    private AgentTargets() {
    }

    static Target resolve(Topology s, AgentStates states, TargetSpec spec, ObjectNode p) {
        String target = text(p, spec.idField());
        String pane = PANE.equals(spec.idField()) ? null : text(p, PANE);
        String byTarget = target == null ? null : pane(s, states, target, spec.idField());
        String byPane = pane == null ? null : paneById(s, pane, PANE);
        if (byTarget != null && byPane != null && !byTarget.equals(byPane)) {
            throw invalid(PANE, "mismatch", spec.idField() + " " + target + " is pane " + byTarget + ", not " + pane);
        }
        String id = byTarget != null ? byTarget : byPane;
        if (id == null) {
            if (spec.omitted() == TargetSpec.Omitted.REQUIRED) {
                throw invalid(spec.idField(), "missing", spec.idField() + " or " + PANE + " is required");
            }
            id = s.focusedPane().orElseThrow(() -> UhpException.notFound("pane", null, spec.idField(),
                    "no pane is focused"));
            return Target.of(s, s.locate(id).orElseThrow(), id, false);
        }
        return Target.of(s, s.locate(id).orElseThrow(), id, true);
    }

    /** The pane an agent target names: a pane id, a live alias, or the one pane running that kind. */
    private static String pane(Topology s, AgentStates states, String target, String field) {
        if (target.chars().allMatch(Character::isDigit)) {
            return paneById(s, target, field);
        }
        for (Pane p : s.panes().values()) {
            if (target.equals(p.name()) && s.locate(p.id()).isPresent()) {
                return p.id();
            }
        }
        List<String> ofKind = new ArrayList<>();
        for (String id : s.panes().keySet()) {
            states.state(id).filter(a -> a.name().equals(target)).ifPresent(a -> ofKind.add(id));
        }
        if (ofKind.size() == 1) {
            return ofKind.get(0);
        }
        if (ofKind.isEmpty()) {
            throw UhpException.notFound("agent", target, field, "no agent named " + target
                    + " and none of that kind runs");
        }
        throw new UhpException(ErrorCode.INVALID_REQUEST, ofKind.size() + " " + target
                + " agents run (panes " + String.join(", ", ofKind) + "); name one by its pane or alias",
                Map.of("field", field, "reason", "ambiguous", "panes", ofKind));
    }

    private static String paneById(Topology s, String id, String field) {
        if (!PANE_ID.matcher(id).matches()) {
            throw invalid(field, "malformed", field + " must be a decimal pane id");
        }
        if (s.locate(id).isEmpty()) {
            throw UhpException.notFound("pane", id, field, "no such pane: " + id);
        }
        return id;
    }

    /** Refuses a name another live pane already carries ({@code except} may keep its own). */
    static void nameFree(Topology s, String name, String except) {
        if (name == null) {
            return;
        }
        for (Pane p : s.panes().values()) {
            if (name.equals(p.name()) && !p.id().equals(except)) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "the name " + name + " is taken by pane " + p.id(),
                        Map.of("field", "name", "reason", "name_taken", "pane", p.id()));
            }
        }
    }

    private static String text(ObjectNode p, String name) {
        JsonNode v = p.get(name);
        return v == null || v.isNull() ? null : v.textValue();
    }
}

package io.artuditu.agents.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.model.AgentStates;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one reading of an agent target: a numeric pane id, else a live alias (a pane's
 * name), else an agent kind that runs in exactly one pane; omitted, the focused pane.
 */
final class Targets {
    private Targets() {
    }

    static String pane(Workspaces w, AgentStates states, String target) {
        Topology s = w.topology();
        if (target == null) {
            return s.focusedPane().orElseThrow(() -> new UhpException(ErrorCode.NOT_FOUND, "no pane is focused",
                    Map.of("field", "target", "reason", "not_found")));
        }
        if (target.chars().allMatch(Character::isDigit)) {
            if (!s.panes().containsKey(target)) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + target,
                        Map.of("field", "target", "reason", "not_found"));
            }
            return target;
        }
        for (Pane p : s.panes().values()) {
            if (target.equals(p.name())) {
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
            throw new UhpException(ErrorCode.NOT_FOUND, "no agent named " + target + " and none of that kind runs",
                    Map.of("field", "target", "reason", "not_found"));
        }
        throw new UhpException(ErrorCode.INVALID_REQUEST, ofKind.size() + " " + target
                + " agents run (panes " + String.join(", ", ofKind) + "); name one by its pane or alias",
                Map.of("field", "target", "reason", "ambiguous", "panes", ofKind));
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
}

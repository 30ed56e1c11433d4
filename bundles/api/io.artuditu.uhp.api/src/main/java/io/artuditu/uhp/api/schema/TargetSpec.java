package io.artuditu.uhp.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Objects;

/**
 * What a method acts on, as its contract declares it ({@code "target"}): the kind of
 * object, the params that name it (an opaque id field and, for workspaces and tabs, a
 * position field) and what an omitted target means. The dispatcher resolves it before the
 * handler runs, through the one resolver of its kind, so a pane, tab, workspace, terminal
 * or agent is found, and refused, the same way everywhere. Immutable.
 *
 * @param kind          what is named
 * @param idField       the param holding the stable id ({@code pane}, {@code tab_id}, {@code workspace_id},
 *                      {@code terminal_id}), or for an agent the live alias, pane id or agent kind ({@code target})
 * @param positionField the param holding a 0-based workspace index or 1-based tab position, or null
 * @param omitted       what a request naming neither means
 */
public record TargetSpec(Kind kind, String idField, String positionField, Omitted omitted) {

    /** The kinds of object a method may target. */
    public enum Kind {
        WORKSPACE, TAB, PANE, TERMINAL,
        /**
         * An agent's pane: named by a live alias, a pane id or the kind of an agent that runs
         * in exactly one pane ({@code agent.fork}'s rule), or by the plain pane id in a
         * {@code pane} param beside it; omitted, the focused pane.
         */
        AGENT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What a request that names no target means. */
    public enum Omitted {
        /** The focused pane, the active tab of the named or active workspace, the active workspace. */
        FOCUSED,
        /** Nothing: the request must name its target ({@code invalid_request} otherwise). */
        REQUIRED,
        /** Nothing, and that is allowed: the handler gets null (only for a further target, by role). */
        OPTIONAL;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public TargetSpec {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(idField, "idField");
        Objects.requireNonNull(omitted, "omitted");
        if (kind == Kind.TERMINAL && omitted == Omitted.FOCUSED) {
            throw new IllegalArgumentException("terminal methods never inherit the focus");
        }
        if ((kind == Kind.PANE || kind == Kind.TERMINAL || kind == Kind.AGENT) && positionField != null) {
            throw new IllegalArgumentException(kind.wire() + " targets have no position");
        }
    }

    /** The same kind and rule, named by other params (a second target, such as tab.swap's {@code with}). */
    public TargetSpec fields(String id, String position) {
        return new TargetSpec(kind, id, position, omitted);
    }

    /** The contract's {@code "target"} object, or null when {@code node} is missing. */
    static TargetSpec parse(String method, JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return null;
        }
        Kind kind = wire(Kind.values(), Kind::wire, node.path("kind").asText(), method, "kind");
        Omitted omitted = wire(Omitted.values(), Omitted::wire, node.path("omitted").asText("required"), method,
                "omitted rule");
        String position = node.hasNonNull("position") ? node.get("position").asText() : null;
        return new TargetSpec(kind, node.path("id").asText(), position, omitted);
    }

    private static <E> E wire(E[] values, java.util.function.Function<E, String> wire, String text, String method,
            String what) {
        for (E v : values) {
            if (wire.apply(v).equals(text)) {
                return v;
            }
        }
        throw new IllegalStateException(method + ": unknown target " + what + " " + text);
    }
}

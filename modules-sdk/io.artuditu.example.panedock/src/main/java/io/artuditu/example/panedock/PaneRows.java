package io.artuditu.example.panedock;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.sdk.AgentState;
import io.artuditu.sdk.MenuEntry;
import io.artuditu.sdk.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The dock's rows for a {@code session.snapshot} result: pure functions, so tests need no server. */
final class PaneRows {
    /** Longest label shown; longer ones end in an ellipsis (a row's text is at most 256 bytes). */
    static final int MAX_LABEL = 48;
    /** A dock holds at most 200 rows; the last one then says how many were left out. */
    static final int MAX_ROWS = 200;
    static final String FOCUS = "focus";
    static final String CLOSE = "close";

    private PaneRows() {
    }

    /** The active workspace in a snapshot, or null when there is none. */
    static JsonNode activeWorkspace(JsonNode snapshot) {
        for (JsonNode ws : snapshot.path("workspaces")) {
            if (ws.path("active").asBoolean()) {
                return ws;
            }
        }
        return null;
    }

    /** The dock's title: the workspace's name after the dock's own. */
    static String title(JsonNode workspace) {
        return workspace == null ? "Panes" : "Panes · " + cut(workspace.path("name").asText(""), 40);
    }

    /**
     * One row per pane of the workspace, tab by tab: the focused pane of the active tab is
     * marked {@code ▸}, a pane running an agent shows the agent's state as its dot, a click
     * focuses the pane and the menu offers Focus and Close.
     */
    static List<Row> rows(JsonNode workspace) {
        List<Row> out = new ArrayList<>();
        if (workspace == null) {
            out.add(Row.of("no workspace is open"));
            return out;
        }
        JsonNode tabs = workspace.path("tabs");
        int panes = 0;
        for (JsonNode tab : tabs) {
            panes += tab.path("panes").size();
        }
        for (JsonNode tab : tabs) {
            boolean activeTab = tab.path("active").asBoolean();
            String focused = tab.path("focused").asText(null);
            for (JsonNode pane : tab.path("panes")) {
                if (out.size() == MAX_ROWS - 1 && panes > MAX_ROWS) {
                    out.add(Row.of("… " + (panes - out.size()) + " more panes"));
                    return out;
                }
                String id = pane.path("pane").asText();
                String mark = activeTab && id.equals(focused) ? "▸ " : "  ";
                String prefix = tabs.size() > 1 ? tab.path("tab").asInt() + ": " : "";
                out.add(new Row(mark + prefix + cut(label(pane), MAX_LABEL), dot(pane), FOCUS, id, menu()));
            }
        }
        if (out.isEmpty()) {
            out.add(Row.of("no panes"));
        }
        return out;
    }

    /** What names a pane best: its name, else its title, else its agent or program, else its id. */
    static String label(JsonNode pane) {
        for (String f : new String[] {"name", "title"}) {
            String v = pane.path(f).asText("");
            if (!v.isBlank()) {
                return v.strip();
            }
        }
        JsonNode agent = pane.path("agent");
        if (agent.isObject()) {
            return agent.path("name").asText();
        }
        for (String f : new String[] {"process", "command"}) {
            String v = pane.path(f).asText("");
            if (!v.isBlank()) {
                return v;
            }
        }
        return "pane " + pane.path("pane").asText();
    }

    /**
     * The agent's state as a dot; none for a pane without an agent. An agent whose state
     * is not known yet shows as idle: it is there, and nothing says it is busy.
     */
    static AgentState dot(JsonNode pane) {
        JsonNode agent = pane.path("agent");
        if (!agent.isObject()) {
            return null;
        }
        try {
            AgentState s = AgentState.valueOf(agent.path("status").asText("unknown").toUpperCase(Locale.ROOT));
            return s == AgentState.UNKNOWN ? AgentState.IDLE : s;
        } catch (IllegalArgumentException newState) {
            return AgentState.IDLE;
        }
    }

    private static List<MenuEntry> menu() {
        return List.of(MenuEntry.of("Focus", FOCUS, null), MenuEntry.divider(),
                new MenuEntry("Close", CLOSE, null, true));
    }

    /** At most {@code max} code points, without control characters (a row refuses them). */
    static String cut(String s, int max) {
        String clean = s.codePoints().filter(c -> c >= 0x20 && !(c >= 0x7f && c <= 0x9f))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return clean.codePointCount(0, clean.length()) <= max ? clean
                : clean.substring(0, clean.offsetByCodePoints(0, max - 1)) + "…";
    }
}

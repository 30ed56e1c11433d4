package io.artuditu.agents.internal;

import static io.artuditu.agents.internal.AgentFamily.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.internal.detect.AgentManifest;
import io.artuditu.agents.internal.detect.Status;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.vt.Input;
import io.artuditu.vt.Key;
import io.artuditu.vt.Keys;
import io.artuditu.vt.Terminal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What drives agents: start, prompt, send, keys, read, name, fork and resume. Validation
 * comes first and whole (the manifest, the name, the session, the target the dispatcher
 * resolved); only then is a pane made (one {@code Workspaces.change}: split, focus, name
 * together, composed from the model's own operations) and the launch typed into its shell
 * as one submitted line, through the terminal bundle's input path.
 */
final class Lifecycle {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");
    private static final byte[] ENTER = {'\r'};
    /** How long a launch waits for a new pane's shell to show its prompt before typing anyway. */
    static final long SHELL_READY_MILLIS = 3000;
    private final Agents agents;

    Lifecycle(Agents agents) {
        this.agents = agents;
    }

    // ------------------------------------------------------------------ start, resume, fork

    ObjectNode start(Call call) {
        String name = text(call, "name");
        String kind = text(call, "kind");
        Target pane = call.target("pane", Target.class);
        Target anchor = call.target("anchor", Target.class);
        if (pane != null && (anchor != null || call.params().has("direction"))) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "pane names where to launch; anchor and direction where to "
                    + "make a new pane: give one or the other", Map.of("field", "pane", "reason", "mixed"));
        }
        AgentManifest m = manifest(kind, "kind");
        List<String> argv = new ArrayList<>(m.launch());
        String session = null;
        if (!m.startSession().isEmpty()) {
            session = UUID.randomUUID().toString();
            argv.addAll(AgentManifest.withSession(m.startSession(), session));
        }
        argv.addAll(AgentFamily.strings(call.params().get("args")));
        boolean focus = call.params().path("focus").asBoolean(true);
        long timeout = timeoutMillis(call, 30);
        boolean created = pane == null;
        String target;
        if (pane != null) {
            target = existingShell(call, pane.pane(), name);
        } else {
            target = open(call, anchor == null ? null : anchor.pane(), direction(call), focus, name);
        }
        return launched(call, "agent_start", target, m, argv, session, "start", timeout, created);
    }

    ObjectNode resume(Call call) {
        String id = text(call, "session_id");
        String kind = text(call, "agent");
        Sessions.Session s = agents.sessions().find(kind, id).orElseThrow(() -> new UhpException(ErrorCode.SESSION_UNKNOWN,
                "no known " + (kind == null ? "" : kind + " ") + "session " + id + " (agent.sessions lists them)",
                Map.of("field", "session_id", "reason", "session_unknown")));
        AgentManifest m = manifest(s.agent(), "agent");
        if (m.resume().isEmpty()) {
            throw new UhpException(ErrorCode.UNSUPPORTED_AGENT, m.name() + " has no resume command",
                    Map.of("agent", m.name(), "reason", "no_resume"));
        }
        Target anchor = call.target("anchor", Target.class);
        String pane = open(call, anchor == null ? null : anchor.pane(), direction(call),
                call.params().path("focus").asBoolean(true), text(call, "name"));
        ObjectNode r = launched(call, "agent_resume", pane, m, AgentManifest.withSession(m.resume(), id), id, "resume",
                timeoutMillis(call, 30), true);
        r.put("session_id", id);
        return r;
    }

    ObjectNode fork(Call call) {
        String from = AgentFamily.pane(call);
        String name = text(call, "name");
        boolean focus = call.params().path("focus").asBoolean(true);
        Agents.ForkSource src = agents.forkSource(from);
        String pane = open(call, from, Direction.RIGHT, focus, name);
        awaitShell(pane);
        agents.type(pane, line(AgentManifest.withSession(src.manifest().fork(), src.session())));
        agents.expect(pane, src.manifest().name(), null, 30_000, 0);
        Topology s = agents.workspaces().topology();
        Topology.Location at = s.locate(pane).orElseThrow();
        boolean focused = pane.equals(s.focusedPane().orElse(null));
        String given = s.panes().get(pane).name();
        agents.bus().publish("pane.forked", JsonNodeFactory.instance.objectNode().put("from", from).put("pane", pane)
                .put("agent", src.manifest().name()).put("name", given));
        return call.newObject().put("type", "agent_fork").put("from", from).put("pane", pane)
                .put("agent", src.manifest().name()).put("name", given).put("workspace", at.workspaceIndex())
                .put("tab", at.tabIndex() + 1).put("workspace_id", at.workspace().id()).put("tab_id", at.tab().id())
                .put("focused", focused).put("session_id", src.session());
    }

    private AgentManifest manifest(String kind, String field) {
        return agents.manifests().get(kind).orElseThrow(() -> UhpException.notFound("agent_manifest", kind, field,
                "no agent manifest named " + kind + " (server.agent_manifests lists them)"));
    }

    private static long timeoutMillis(Call call, double dflt) {
        JsonNode t = call.params().get("timeout_s");
        return (long) ((t == null ? dflt : t.asDouble()) * 1000);
    }

    private static Direction direction(Call call) {
        String d = text(call, "direction");
        return d == null ? Direction.RIGHT : Direction.valueOf(d.toUpperCase(java.util.Locale.ROOT));
    }

    /** One shell line: each argument quoted unless it is plainly safe. */
    static String line(List<String> argv) {
        StringBuilder b = new StringBuilder();
        for (String a : argv) {
            if (b.length() > 0) {
                b.append(' ');
            }
            if (!a.isEmpty() && PLAIN.matcher(a).matches()) {
                b.append(a);
            } else {
                b.append('\'').append(a.replace("'", "'\\''")).append('\'');
            }
        }
        return b.toString();
    }

    /**
     * A new pane split from {@code anchor} (default: the focused pane), named, focused or not:
     * one model change, composed from the model's {@link Lifecycle} operations, with the
     * request's {@code if_revision} checked where it is made. Not focused, the workspace,
     * tab, pane focus and zoom stay as they were.
     */
    private String open(Call call, String anchor, Direction d, boolean focus, String name) {
        try {
            return agents.workspaces().change(call.ifRevision(), (s, sp) -> {
                AgentTargets.nameFree(s, name, null);
                String a = anchor != null ? anchor : s.focusedPane().orElseThrow(() -> UhpException.notFound("pane", null,
                        "anchor", "no pane is focused to split; give anchor"));
                Topology.Location at = s.requirePane(a);
                boolean zoomed = at.tab().zoomed();
                String wasFocused = at.tab().focused();
                Change<String> c = io.artuditu.model.topology.Lifecycle.of(sp).splitPane(s, a, d, focus, sp);
                String id = c.result();
                List<TopologyEvent> ev = new ArrayList<>(c.events());
                Topology n = c.state();
                if (focus) {
                    Change<Void> f = io.artuditu.model.topology.Lifecycle.focusPane(n, id);
                    n = f.state();
                    ev.addAll(f.events());
                } else if (zoomed) {
                    Change<Boolean> z = io.artuditu.model.topology.Lifecycle.zoomPane(n, wasFocused, true);
                    n = z.state();
                    ev.addAll(z.events());
                }
                if (name != null) {
                    Change<Void> r = io.artuditu.model.topology.Lifecycle.renamePane(n, id, name);
                    n = r.state();
                    ev.addAll(r.events());
                }
                return new Change<>(n, ev, id);
            });
        } catch (IOException e) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, "the pane's process could not be started: " + e.getMessage(),
                    Map.of("reason", "spawn_failed"));
        }
    }

    /** A pane given to agent.start: a live shell with no agent in it; named in the same model change. */
    private String existingShell(Call call, String pane, String name) {
        PaneInfo info = agents.workspaces().pane(pane).orElseThrow(() -> UhpException.notFound("pane", pane, "pane",
                "no such pane: " + pane));
        if (agents.state(pane).isPresent()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "pane " + pane + " already runs "
                    + agents.state(pane).get().name(), Map.of("field", "pane", "reason", "busy"));
        }
        if (agents.host().find(info.terminalId()).map(p -> !p.isAlive()).orElse(true)) {
            throw Agents.exited(pane);
        }
        rename(call, pane, name);
        return pane;
    }

    /** Names {@code pane} ({@code name} free among the live panes), one model change. */
    private void rename(Call call, String pane, String name) {
        try {
            agents.workspaces().change(call.ifRevision(), (s, sp) -> {
                AgentTargets.nameFree(s, name, pane);
                return io.artuditu.model.topology.Lifecycle.renamePane(s, pane, name == null ? "" : name);
            });
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private ObjectNode launched(Call call, String type, String pane, AgentManifest m, List<String> argv, String session,
            String source, long timeout, boolean created) {
        PaneInfo info = agents.workspaces().pane(pane).orElseThrow();
        if (session != null) {
            agents.sessions().put(new Sessions.Session(m.name(), session, pane, info.cwd().toString(), source,
                    System.currentTimeMillis()));
        }
        String cmd = line(argv);
        if (created) {
            awaitShell(pane);
        }
        java.util.concurrent.CompletableFuture<Boolean> recognised = agents.expect(pane, m.name(), session,
                Math.max(timeout, 1000), timeout);
        agents.type(pane, cmd);
        boolean detected = AgentFamily.join(recognised, timeout);
        Topology s = agents.workspaces().topology();
        ObjectNode r = call.newObject().put("type", type).put("pane", pane).put("name", s.panes().get(pane).name())
                .put("agent", m.name()).put("status", agents.state(pane).map(a -> a.status()).orElse("unknown"))
                .put("detected", detected).put("created", created).put("terminal_id", info.terminalId());
        s.locate(pane).ifPresent(at -> r.put("workspace", at.workspaceIndex()).put("tab", at.tabIndex() + 1)
                .put("workspace_id", at.workspace().id()).put("tab_id", at.tab().id()));
        if (session != null) {
            r.put("session_id", session);
        }
        return r;
    }

    /**
     * Waits (at most {@value #SHELL_READY_MILLIS} ms) until a new pane's shell shows its first
     * prompt, so a launch typed next is read by the shell rather than echoed before it runs.
     * A shell without Artuditu's integration marks is not waited for.
     */
    private void awaitShell(String pane) {
        if (agents.workspaces().pane(pane).map(i -> i.shell() == null).orElse(true)) {
            return;
        }
        AgentFamily.join(agents.shellReady(pane, SHELL_READY_MILLIS), SHELL_READY_MILLIS);
    }

    // ------------------------------------------------------------------ input

    ObjectNode prompt(Call call) {
        boolean wait = call.params().path("wait").asBoolean(false);
        if (!wait && (call.params().has("until") || call.params().has("timeout_s"))) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "until and timeout_s need wait:true",
                    Map.of("field", call.params().has("until") ? "until" : "timeout_s", "reason", "needs_wait"));
        }
        String pane = AgentFamily.pane(call);
        String text = text(call, "text");
        Status until = Status.fromWire(text(call, "until")).orElse(null);
        long timeout = timeoutMillis(call, 300);
        long start = System.currentTimeMillis();
        // paste and Enter: one PTY queue action
        Agents.Sent sent = agents.input(pane, term -> pasted(term, text, true), wait, until, timeout);
        ObjectNode r = call.newObject().put("type", "agent_prompt").put("pane", pane)
                .put("agent", agents.state(pane).map(a -> a.name()).orElse(null)).put("submitted", true);
        if (sent.evidence() == null) {
            return r;
        }
        String evidence = AgentFamily.join(sent.evidence(), timeout);
        return r.put("matched", !"timeout".equals(evidence)).put("evidence", evidence)
                .put("status", agents.state(pane).map(a -> a.status()).orElse("unknown"))
                .put("waited_ms", System.currentTimeMillis() - start);
    }

    ObjectNode send(Call call) {
        String pane = AgentFamily.pane(call);
        String text = text(call, "text");
        boolean submit = call.params().path("submit").asBoolean(true);
        Agents.Sent sent = agents.input(pane, term -> pasted(term, text, submit), false, null, 0);
        return call.newObject().put("type", "agent_send").put("pane", pane)
                .put("agent", agents.state(pane).map(a -> a.name()).orElse(null)).put("bytes", sent.bytes())
                .put("submitted", submit);
    }

    ObjectNode keys(Call call) {
        String pane = AgentFamily.pane(call);
        List<Key> keys = new ArrayList<>();
        JsonNode a = call.params().get("keys");
        for (int i = 0; i < a.size(); i++) {
            try {
                keys.add(Keys.parse(a.get(i).asText()));
            } catch (IllegalArgumentException e) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "keys[" + i + "]: " + e.getMessage(),
                        Map.of("field", "keys", "index", i, "key", a.get(i).asText()));
            }
        }
        agents.input(pane, term -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (Key k : keys) {
                out.writeBytes(Keys.encode(k, term));
            }
            return out.toByteArray();
        }, false, null, 0);
        return call.newObject().put("type", "agent_keys").put("pane", pane)
                .put("agent", agents.state(pane).map(x -> x.name()).orElse(null)).put("keys", keys.size());
    }

    ObjectNode read(Call call) {
        String pane = AgentFamily.pane(call);
        PaneInfo info = agents.workspaces().pane(pane).orElseThrow(() -> Agents.exited(pane));
        JsonNode l = call.params().get("lines");
        int lines = l == null ? 0 : l.asInt();
        record Read(String text, int lines, long revision) {
        }
        Read r = agents.requireScreens().read(info.terminalId(), term -> {
            List<String> rows = new ArrayList<>();
            int h = term.historySize();
            int from = lines == 0 ? h : Math.max(0, h - Math.max(0, lines - term.rows()));
            for (int i = from; i < h; i++) {
                rows.add(term.historyText(i, false));
            }
            for (int i = 0; i < term.rows(); i++) {
                rows.add(term.rowText(i, false));
            }
            while (!rows.isEmpty() && rows.get(rows.size() - 1).isEmpty()) {
                rows.remove(rows.size() - 1);
            }
            if (lines > 0 && rows.size() > lines) {
                rows = rows.subList(rows.size() - lines, rows.size());
            }
            return new Read(String.join("\n", rows), rows.size(), term.revision());
        }).orElseThrow(() -> Agents.exited(pane));
        return call.newObject().put("type", "agent_read").put("pane", pane)
                .put("agent", agents.state(pane).map(x -> x.name()).orElse(null)).put("text", r.text())
                .put("lines", r.lines()).put("revision", r.revision());
    }

    ObjectNode name(Call call) {
        String pane = AgentFamily.pane(call);
        String name = text(call, "name");
        if (agents.state(pane).isEmpty()) {
            throw Agents.notAgent(pane);
        }
        rename(call, pane, name);
        return call.newObject().put("type", "agent_name").put("pane", pane)
                .put("name", agents.workspaces().topology().panes().get(pane).name());
    }

    // ------------------------------------------------------------------ helpers

    /** The text as a paste the program will read as one (bracketed when it asked), and Enter when submitting. */
    private static byte[] pasted(Terminal term, String text, boolean submit) {
        byte[] paste = Input.paste(text, term);
        if (!submit) {
            return paste;
        }
        byte[] all = new byte[paste.length + ENTER.length];
        System.arraycopy(paste, 0, all, 0, paste.length);
        System.arraycopy(ENTER, 0, all, paste.length, ENTER.length);
        return all;
    }
}

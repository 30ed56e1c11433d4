package io.artuditu.agents.internal;

import static io.artuditu.agents.internal.AgentFamily.notAgent;
import static io.artuditu.agents.internal.AgentFamily.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.internal.detect.AgentManifest;
import io.artuditu.agents.internal.detect.Status;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyInputException;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.vt.Input;
import io.artuditu.vt.Key;
import io.artuditu.vt.Keys;
import io.artuditu.vt.Terminal;
import io.artuditu.model.PaneInfo;
import io.artuditu.vt.TerminalScreens;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What drives agents: start, prompt, send, keys, read, name, fork and resume. Validation
 * comes first and whole (the manifest, the name, the session, the target); only then is a
 * pane made (one {@code Workspaces.change}: split, focus, name together) and the launch
 * typed into its shell as one submitted line.
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
        String pane = text(call, "pane");
        String anchor = text(call, "anchor");
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
            target = existingShell(pane, name);
        } else {
            target = open(anchor, direction(call), focus, name);
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
        String name = text(call, "name");
        String pane = open(text(call, "anchor"), direction(call), call.params().path("focus").asBoolean(true), name);
        ObjectNode r = launched(call, "agent_resume", pane, m, AgentManifest.withSession(m.resume(), id), id, "resume",
                timeoutMillis(call, 30), true);
        r.put("session_id", id);
        return r;
    }

    ObjectNode fork(Call call) {
        String from = Targets.pane(agents.workspaces(), agents, text(call, "target"));
        String name = text(call, "name");
        boolean focus = call.params().path("focus").asBoolean(true);
        record Source(AgentManifest m, String session) {
        }
        Source src = agents.onLoop(() -> {
            Tracked t = agents.tracked(from);
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + from);
            }
            agents.look(t, System.currentTimeMillis(), false);
            // Every source fork cannot take is unsupported_agent (the reference's one code for it), a shell
            // too; agent.send, keys and prompt keep invalid_request with the same reason for a shell.
            if (t.agent == null) {
                throw new UhpException(ErrorCode.UNSUPPORTED_AGENT, "no agent is recognised in pane " + from
                        + " (a shell, or a program no manifest knows), so there is nothing to fork",
                        Map.of("field", "target", "pane", from, "reason", "not_agent"));
            }
            AgentManifest m = t.manifest != null ? t.manifest : agents.manifests().get(t.agent).orElse(null);
            if (m == null || m.fork().isEmpty()) {
                throw new UhpException(ErrorCode.UNSUPPORTED_AGENT, t.agent + " has no native fork command",
                        Map.of("agent", t.agent, "pane", from, "reason", "no_fork"));
            }
            // an exact identity only: reported by a hook, pinned at start or resumed here; never "the newest"
            String session = t.sessionId != null ? t.sessionId
                    : agents.sessions().inPane(from, t.agent).map(Sessions.Session::id).orElse(null);
            if (session == null) {
                throw new UhpException(ErrorCode.SESSION_UNKNOWN, "the " + t.agent + " session in pane " + from
                        + " is not known: it needs a hook report (artu hook install " + t.agent + ") or a start or resume "
                        + "through Artuditu", Map.of("agent", t.agent, "pane", from, "reason", "session_unknown"));
            }
            return new Source(m, session);
        });
        String pane = open(from, Direction.RIGHT, focus, name);
        List<String> argv = AgentManifest.withSession(src.m().fork(), src.session());
        awaitShell(pane);
        type(pane, line(argv));
        agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t != null) {
                t.expected = src.m().name();
                t.expectedUntil = System.currentTimeMillis() + 30_000;
            }
            return null;
        });
        Topology s = agents.workspaces().topology();
        Topology.Location at = s.locate(pane).orElseThrow();
        boolean focused = pane.equals(s.focusedPane().orElse(null));
        String given = s.panes().get(pane).name();
        agents.bus().publish("pane.forked", JsonNodeFactory.instance.objectNode().put("from", from).put("pane", pane)
                .put("agent", src.m().name()).put("name", given));
        ObjectNode r = call.newObject().put("type", "agent_fork").put("from", from).put("pane", pane)
                .put("agent", src.m().name()).put("name", given).put("workspace", at.workspaceIndex())
                .put("tab", at.tabIndex() + 1).put("workspace_id", at.workspace().id()).put("tab_id", at.tab().id())
                .put("focused", focused).put("session_id", src.session());
        return r;
    }

    private AgentManifest manifest(String kind, String field) {
        return agents.manifests().get(kind).orElseThrow(() -> new UhpException(ErrorCode.NOT_FOUND,
                "no agent manifest named " + kind + " (server.agent_manifests lists them)",
                Map.of("field", field, "reason", "not_found")));
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

    /** A new pane split from anchor (default: the focused pane), named, focused or not: one model change. */
    private String open(String anchor, Direction d, boolean focus, String name) {
        try {
            return agents.workspaces().change((s, ops, sp) -> {
                Targets.nameFree(s, name, null);
                String a = anchor != null ? anchor : s.focusedPane().orElseThrow(() -> new UhpException(
                        ErrorCode.NOT_FOUND, "no pane is focused to split; give anchor"));
                Topology.Location at = s.locate(a).orElseThrow(() -> new UhpException(ErrorCode.NOT_FOUND,
                        "no such pane: " + a, Map.of("field", "anchor", "reason", "not_found")));
                boolean zoomed = at.tab().zoomed();
                String wasFocused = at.tab().focused();
                Change<String> c = ops.panes().split(s, a, d, focus, sp);
                String id = c.result();
                List<TopologyEvent> ev = new ArrayList<>(c.events());
                Topology n = c.state();
                if (focus) {
                    Change<Void> f = ops.panes().focus(n, id);
                    n = f.state();
                    ev.addAll(f.events());
                } else if (zoomed) {
                    Change<Boolean> z = ops.panes().zoom(n, wasFocused, true);
                    n = z.state();
                    ev.addAll(z.events());
                }
                if (name != null) {
                    Change<Void> r = ops.panes().rename(n, id, name);
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
    private String existingShell(String pane, String name) {
        PaneInfo info = agents.workspaces().pane(pane).orElseThrow(() -> new UhpException(ErrorCode.NOT_FOUND,
                "no such pane: " + pane, Map.of("field", "pane", "reason", "not_found")));
        if (agents.state(pane).isPresent()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "pane " + pane + " already runs "
                    + agents.state(pane).get().name(), Map.of("field", "pane", "reason", "busy"));
        }
        if (agents.host().find(info.terminalId()).map(p -> !p.isAlive()).orElse(true)) {
            throw exited(pane);
        }
        try {
            agents.workspaces().change((s, ops, sp) -> {
                Targets.nameFree(s, name, pane);
                return ops.panes().rename(s, pane, name);
            });
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return pane;
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
        Tracked.Wait w = agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "pane " + pane + " closed before the launch");
            }
            t.expected = m.name();
            t.expectedUntil = System.currentTimeMillis() + Math.max(timeout, 1000);
            if (session != null) {
                t.sessionId = session;
            }
            return agents.await(t, null, m.name(), timeout);
        });
        type(pane, cmd);
        boolean detected = AgentFamily.join(w.done, timeout);
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
        Tracked.Wait ready = agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            return t == null ? null : agents.await(t, null, Agents.PROMPT, SHELL_READY_MILLIS);
        });
        if (ready != null) {
            AgentFamily.join(ready.done, SHELL_READY_MILLIS);
        }
    }

    /** Types one shell line and Enter into a pane's PTY, as one write. */
    private void type(String pane, String line) {
        byte[] text = line.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[text.length + 1];
        System.arraycopy(text, 0, all, 0, text.length);
        all[text.length] = '\r';
        write(pane, all);
    }

    // ------------------------------------------------------------------ input

    ObjectNode prompt(Call call) {
        boolean wait = call.params().path("wait").asBoolean(false);
        if (!wait && (call.params().has("until") || call.params().has("timeout_s"))) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "until and timeout_s need wait:true",
                    Map.of("field", call.params().has("until") ? "until" : "timeout_s", "reason", "needs_wait"));
        }
        String pane = Targets.pane(agents.workspaces(), agents, text(call, "target"));
        String text = text(call, "text");
        Status until = Status.fromWire(text(call, "until")).orElse(null);
        long timeout = timeoutMillis(call, 300);
        long start = System.currentTimeMillis();
        Tracked.Prompt p = agents.onLoop(() -> {
            Tracked t = liveAgent(pane);
            if (wait && t.prompt != null) {
                throw new UhpException(ErrorCode.AGENT_PROMPT_BUSY, "a waiting prompt already owns pane " + pane,
                        Map.of("pane", pane));
            }
            byte[] bytes = pasted(t, text, true);
            write(pane, bytes); // paste and Enter: one PTY queue action
            long now = System.currentTimeMillis();
            t.tracker.userInput(now);
            Tracked.Prompt w = null;
            if (wait) {
                w = new Tracked.Prompt(now, t.changes, until, now + timeout);
                t.prompt = w;
            }
            agents.settled(t, now);
            return w;
        });
        ObjectNode r = call.newObject().put("type", "agent_prompt").put("pane", pane)
                .put("agent", agents.state(pane).map(a -> a.name()).orElse(null)).put("submitted", true);
        if (p == null) {
            return r;
        }
        String evidence = AgentFamily.join(p.evidence, timeout);
        return r.put("matched", !"timeout".equals(evidence)).put("evidence", evidence)
                .put("status", agents.state(pane).map(a -> a.status()).orElse("unknown"))
                .put("waited_ms", System.currentTimeMillis() - start);
    }

    ObjectNode send(Call call) {
        String pane = Targets.pane(agents.workspaces(), agents, text(call, "target"));
        String text = text(call, "text");
        boolean submit = call.params().path("submit").asBoolean(true);
        int n = agents.onLoop(() -> {
            Tracked t = liveAgent(pane);
            byte[] bytes = pasted(t, text, submit);
            write(pane, bytes);
            long now = System.currentTimeMillis();
            t.tracker.userInput(now);
            agents.settled(t, now);
            return bytes.length;
        });
        return call.newObject().put("type", "agent_send").put("pane", pane)
                .put("agent", agents.state(pane).map(a -> a.name()).orElse(null)).put("bytes", n).put("submitted", submit);
    }

    ObjectNode keys(Call call) {
        String pane = Targets.pane(agents.workspaces(), agents, text(call, "target"));
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
        agents.onLoop(() -> {
            Tracked t = liveAgent(pane);
            byte[] bytes = screens().read(t.terminalId, term -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (Key k : keys) {
                    out.writeBytes(Keys.encode(k, term));
                }
                return out.toByteArray();
            }).orElseThrow(() -> exited(pane));
            write(pane, bytes);
            long now = System.currentTimeMillis();
            t.tracker.userInput(now);
            agents.settled(t, now);
            return null;
        });
        return call.newObject().put("type", "agent_keys").put("pane", pane)
                .put("agent", agents.state(pane).map(x -> x.name()).orElse(null)).put("keys", keys.size());
    }

    ObjectNode read(Call call) {
        String pane = Targets.pane(agents.workspaces(), agents, text(call, "target"));
        PaneInfo info = agents.workspaces().pane(pane).orElseThrow();
        JsonNode l = call.params().get("lines");
        int lines = l == null ? 0 : l.asInt();
        record Read(String text, int lines, long revision) {
        }
        Read r = screens().read(info.terminalId(), term -> {
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
        }).orElseThrow(() -> exited(pane));
        return call.newObject().put("type", "agent_read").put("pane", pane)
                .put("agent", agents.state(pane).map(x -> x.name()).orElse(null)).put("text", r.text())
                .put("lines", r.lines()).put("revision", r.revision());
    }

    ObjectNode name(Call call) {
        String pane = Targets.pane(agents.workspaces(), agents, text(call, "target"));
        String name = text(call, "name");
        if (agents.state(pane).isEmpty()) {
            throw notAgent(pane);
        }
        try {
            agents.workspaces().change((s, ops, sp) -> {
                Targets.nameFree(s, name, pane);
                return ops.panes().rename(s, pane, name == null ? "" : name);
            });
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return call.newObject().put("type", "agent_name").put("pane", pane)
                .put("name", agents.workspaces().topology().panes().get(pane).name());
    }

    // ------------------------------------------------------------------ helpers

    private TerminalScreens screens() {
        TerminalScreens s = agents.screens();
        if (s == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the terminal bundle is not running; retry when it is back");
        }
        return s;
    }

    /** Loop: the pane's record if a live agent runs there; shells and exited panes are refused. */
    private Tracked liveAgent(String pane) {
        Tracked t = agents.tracked(pane);
        if (t == null) {
            throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + pane);
        }
        agents.look(t, System.currentTimeMillis(), false);
        if (agents.host().find(t.terminalId).map(p -> !p.isAlive()).orElse(true)) {
            throw exited(pane);
        }
        if (t.shownAgent(System.currentTimeMillis()) == null) {
            throw notAgent(pane);
        }
        return t;
    }

    /** The text as a paste the program will read as one (bracketed when it asked), and Enter when submitting. */
    private byte[] pasted(Tracked t, String text, boolean submit) {
        byte[] paste = screens().read(t.terminalId, (Terminal term) -> Input.paste(text, term)).orElseThrow(
                () -> exited(t.pane));
        if (!submit) {
            return paste;
        }
        byte[] all = new byte[paste.length + ENTER.length];
        System.arraycopy(paste, 0, all, 0, paste.length);
        System.arraycopy(ENTER, 0, all, paste.length, ENTER.length);
        return all;
    }

    private void write(String pane, byte[] bytes) {
        PaneInfo info = agents.workspaces().pane(pane).orElseThrow(() -> exited(pane));
        Pty pty = agents.host().find(info.terminalId()).orElseThrow(() -> exited(pane));
        try {
            pty.write(bytes);
        } catch (PtyInputException e) {
            if (e.reason() == PtyInputException.Reason.EXITED) {
                throw exited(pane);
            }
            throw new UhpException(ErrorCode.INVALID_REQUEST, "the program in pane " + pane + " is not reading its input ("
                    + e.pending() + " bytes queued)", Map.of("reason", "input_backlog", "pane", pane));
        }
    }

    static UhpException exited(String pane) {
        return new UhpException(ErrorCode.NOT_FOUND, "the process of pane " + pane + " has exited",
                Map.of("pane", pane, "reason", "exited"));
    }
}

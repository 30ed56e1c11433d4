package io.artuditu.agents.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.internal.detect.AgentManifest;
import io.artuditu.agents.internal.detect.ManifestSet;
import io.artuditu.agents.internal.detect.Status;
import io.artuditu.agents.internal.detect.Verdict;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The agents family (agents.json): reads, leased reports, hook evidence, waits and
 * manifests here; starting, prompting, forking and resuming in {@link Lifecycle}. Every
 * target is resolved by the dispatcher ({@link AgentTargets} for agents); every state read
 * or change is one method of {@link Agents}, which runs it on its loop and answers with
 * copies, so each request sees and makes one consistent step.
 */
@Component(service = UhpFamily.class)
public final class AgentFamily implements UhpFamily {
    private final Agents agents;
    private final Lifecycle lifecycle;
    private final FamilyContract contract;

    @Activate
    public AgentFamily(@Reference Agents agents) {
        this.agents = agents;
        this.lifecycle = new Lifecycle(agents);
        FamilyContract.Binder h = FamilyContract.load(AgentFamily.class, "protocol/uhp/v1/agents.json").binder();
        h.route("agent.list", this::list);
        h.route("agent.get", this::get);
        h.route("agent.explain", this::explain);
        h.route("agent.report", this::report);
        h.route("agent.release", this::release);
        h.route("agent.wait", this::await);
        h.route("agent.sessions", this::sessions);
        h.route("pane.report_session", this::reportSession);
        h.route("pane.report_event", this::reportEvent);
        h.route("server.agent_manifests", c -> manifests(c, false));
        h.route("server.reload_agent_manifests", c -> manifests(c, true));
        h.route("manifest.reload", c -> manifests(c, true));
        h.route("agent.start", lifecycle::start);
        h.route("agent.prompt", lifecycle::prompt);
        h.route("agent.send", lifecycle::send);
        h.route("agent.keys", lifecycle::keys);
        h.route("agent.read", lifecycle::read);
        h.route("agent.name", lifecycle::name);
        h.route("agent.fork", lifecycle::fork);
        h.route("agent.resume", lifecycle::resume);
        this.contract = h.bind();
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    static String text(Call c, String field) {
        JsonNode v = c.params().get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** The pane the dispatcher resolved from the method's declared target (an agent's or a plain pane). */
    static String pane(Call c) {
        return c.target(Target.class).pane();
    }

    // ------------------------------------------------------------------ reads

    ObjectNode list(Call call) {
        List<Agents.View> views = agents.list();
        ObjectNode r = call.newObject().put("type", "agents");
        ArrayNode a = r.putArray("agents");
        Topology s = agents.workspaces().topology();
        for (Agents.View v : views) {
            row(a.addObject(), v, s);
        }
        return r;
    }

    ObjectNode get(Call call) {
        Agents.View v = agents.get(pane(call));
        ObjectNode r = call.newObject().put("type", "agent");
        row(r, v, agents.workspaces().topology());
        return r;
    }

    /** One agent row. */
    static void row(ObjectNode o, Agents.View v, Topology s) {
        o.put("pane", v.pane()).put("agent", v.agent()).put("status", v.status().wire()).put("source", v.source());
        Pane p = s.panes().get(v.pane());
        o.put("name", p == null ? null : p.name());
        if (v.pid() > 0) {
            o.put("pid", v.pid());
        } else {
            o.putNull("pid");
        }
        s.locate(v.pane()).ifPresent(at -> o.put("workspace", at.workspaceIndex()).put("tab", at.tabIndex() + 1)
                .put("workspace_id", at.workspace().id()).put("tab_id", at.tab().id()));
        o.put("terminal_id", v.terminalId()).put("session_id", v.sessionId()).put("message", v.message())
                .put("since_ms", v.sinceMs()).put("attention", v.attention());
    }

    ObjectNode explain(Call call) {
        Agents.Explanation e = agents.explain(pane(call));
        ObjectNode r = call.newObject().put("type", "agent_explain").put("pane", e.pane()).put("agent", e.agent())
                .put("status", e.status().wire());
        ObjectNode id = r.putObject("identity").put("source", e.via()).put("process", e.processName());
        if (e.pid() > 0) {
            id.put("pid", e.pid());
        } else {
            id.putNull("pid");
        }
        AgentManifest m = e.manifest();
        if (m != null) {
            id.put("manifest", m.name()).put("manifest_source", m.source()).put("manifest_path", m.path())
                    .put("rules", m.rules().size());
        } else {
            id.putNull("manifest");
        }
        Verdict v = e.evidence();
        if (v == null) {
            r.putNull("evidence");
        } else {
            r.putObject("evidence").put("status", v.status().wire()).put("rule", v.rule()).put("region", v.region())
                    .put("priority", v.priority()).put("confidence", v.confidence()).put("matched", v.evidence())
                    .put("revision", v.revision()).put("rows_read", v.rowsRead());
        }
        if (e.hookEvent() == null) {
            r.putNull("hook");
        } else {
            r.putObject("hook").put("event", e.hookEvent())
                    .put("status", e.hookStatus() == null ? null : e.hookStatus().wire())
                    .put("at_ms", e.hookAt()).put("fresh", e.hookFresh());
        }
        ObjectNode a = r.putObject("authority").put("active", e.authority());
        Tracked.Lease l = e.lease();
        if (l != null) {
            a.put("source", l.source()).put("sequence", l.sequence()).put("expires_in_ms", l.expiresAt() - e.now())
                    .put("status", l.status().wire());
        }
        return r;
    }

    // ------------------------------------------------------------------ leases

    ObjectNode report(Call call) {
        String pane = pane(call);
        String source = text(call, "source");
        String agent = text(call, "agent");
        Status status = Status.fromWire(text(call, "status")).orElseThrow();
        long sequence = call.params().get("sequence").asLong();
        long ttl = call.params().get("ttl_s").asLong();
        agents.report(pane, source, agent, status, text(call, "message"), sequence, ttl);
        return call.newObject().put("type", "agent_report").put("pane", pane).put("agent", agent)
                .put("status", status.wire()).put("source", source).put("sequence", sequence).put("ttl_s", ttl);
    }

    ObjectNode release(Call call) {
        String pane = pane(call);
        String source = text(call, "source");
        Agents.Released r = agents.release(pane, source);
        return call.newObject().put("type", "agent_release").put("pane", pane).put("source", source)
                .put("released", r.released()).put("status", r.status().wire());
    }

    // ------------------------------------------------------------------ waits

    ObjectNode await(Call call) {
        String pane = pane(call);
        Status status = Status.fromWire(text(call, "status")).orElseThrow();
        JsonNode to = call.params().get("timeout_s");
        long timeout = (long) ((to == null ? 30 : to.asDouble()) * 1000);
        long start = System.currentTimeMillis();
        boolean matched = join(agents.awaitStatus(pane, status, timeout), timeout);
        Status current = agents.state(pane).flatMap(a -> Status.fromWire(a.status())).orElse(Status.UNKNOWN);
        return call.newObject().put("type", "agent_wait").put("pane", pane).put("status", status.wire())
                .put("matched", matched).put("current", current.wire()).put("waited_ms", System.currentTimeMillis() - start);
    }

    /** Waits for a loop-completed future a little past its own deadline (the loop completes it on time). */
    static <T> T join(CompletableFuture<T> f, long timeoutMillis) {
        return Agents.join(f, timeoutMillis + 5_000);
    }

    // ------------------------------------------------------------------ hooks

    ObjectNode reportSession(Call call) {
        String pane = pane(call);
        String agent = text(call, "agent");
        String session = text(call, "session_id");
        agents.sessions().put(new Sessions.Session(agent, session, pane, text(call, "cwd"), "hook",
                System.currentTimeMillis()));
        agents.sessionReported(pane, agent, session);
        return call.newObject().put("type", "ok").put("pane", pane).put("agent", agent).put("session_id", session);
    }

    ObjectNode reportEvent(Call call) {
        String pane = pane(call);
        String agent = text(call, "agent");
        String event = text(call, "event");
        String given = text(call, "status");
        String session = text(call, "session_id");
        Optional<AgentManifest> m = agents.manifests().get(agent);
        Status mapped = given != null ? Status.fromWire(given).orElseThrow() : m.flatMap(x -> x.hookStatus(event)).orElse(null);
        if (session != null) {
            agents.sessions().put(new Sessions.Session(agent, session, pane, null, "hook", System.currentTimeMillis()));
        }
        Status now = agents.hookEvent(pane, agent, event, mapped, text(call, "message"), session);
        ObjectNode d = JsonNodeFactory.instance.objectNode().put("pane", pane).put("agent", agent).put("event", event)
                .put("status", mapped == null ? null : mapped.wire());
        agents.bus().publish("agent.hook", d);
        return call.newObject().put("type", "ok").put("pane", pane).put("agent", agent).put("event", event)
                .put("status", now.wire()).put("applied", mapped != null);
    }

    ObjectNode sessions(Call call) {
        String agent = text(call, "agent");
        java.util.Set<String> live = agents.workspaces().topology().panes().keySet();
        ObjectNode r = call.newObject().put("type", "agent_sessions");
        ArrayNode a = r.putArray("sessions");
        for (Sessions.Session s : agents.sessions().list(agent)) {
            a.addObject().put("agent", s.agent()).put("session_id", s.id()).put("pane", s.pane()).put("cwd", s.cwd())
                    .put("source", s.source()).put("updated_ms", s.updatedMillis())
                    .put("live", s.pane() != null && live.contains(s.pane()));
        }
        return r;
    }

    // ------------------------------------------------------------------ manifests

    ObjectNode manifests(Call call, boolean reload) {
        if (reload) {
            agents.reload(ManifestSet.load(agents.managedDir(), agents.userDir())); // file reads on this worker
        }
        ManifestSet set = agents.manifests();
        ObjectNode r = call.newObject().put("type", "agent_manifests");
        ArrayNode names = r.putArray("names");
        ArrayNode ms = r.putArray("manifests");
        for (AgentManifest m : set.active()) {
            names.add(m.name());
            ObjectNode o = ms.addObject().put("name", m.name()).put("display_name", m.displayName()).put("source", m.source())
                    .put("path", m.path()).put("rules", m.rules().size());
            o.put("fork", !m.fork().isEmpty()).put("resume", !m.resume().isEmpty());
        }
        r.put("rule_count", set.ruleCount());
        ArrayNode ps = r.putArray("problems");
        for (ManifestSet.Problem p : set.problems()) {
            ps.addObject().put("source", p.source()).put("path", p.path()).put("message", p.message());
        }
        if (reload) {
            r.put("reloaded", true);
        }
        return r;
    }

    static List<String> strings(JsonNode a) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (a != null) {
            a.forEach(x -> out.add(x.asText()));
        }
        return out;
    }
}

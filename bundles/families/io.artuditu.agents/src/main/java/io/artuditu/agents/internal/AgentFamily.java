package io.artuditu.agents.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.internal.detect.AgentManifest;
import io.artuditu.agents.internal.detect.ManifestSet;
import io.artuditu.agents.internal.detect.Status;
import io.artuditu.agents.internal.detect.Verdict;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Topology;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The agents family (agents.json): reads, leased reports, hook evidence, waits and
 * manifests here; starting, prompting, forking and resuming in {@link Lifecycle}. Every
 * state read or change runs on the {@link Agents} loop, so each request sees and makes one
 * consistent step.
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

    /** The pane a request names by {@code field} (a plain pane id), or the focused one. */
    String paneParam(Call c, String field) {
        String p = text(c, field);
        Topology s = agents.workspaces().topology();
        if (p == null) {
            return s.focusedPane().orElseThrow(() -> new UhpException(ErrorCode.NOT_FOUND, "no pane is focused"));
        }
        if (!s.panes().containsKey(p)) {
            throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + p, Map.of("field", field, "reason", "not_found"));
        }
        return p;
    }

    String target(Call c) {
        return Targets.pane(agents.workspaces(), agents, text(c, "target"));
    }

    // ------------------------------------------------------------------ reads

    ObjectNode list(Call call) {
        return agents.onLoop(() -> {
            agents.trackAll();
            ObjectNode r = call.newObject().put("type", "agents");
            ArrayNode a = r.putArray("agents");
            Topology s = agents.workspaces().topology();
            long now = System.currentTimeMillis();
            for (Tracked t : agents.all()) {
                if (t.shownAgent(now) != null && s.panes().containsKey(t.pane)) {
                    row(a.addObject(), t, s, now);
                }
            }
            return r;
        });
    }

    ObjectNode get(Call call) {
        String pane = target(call);
        return agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            long now = System.currentTimeMillis();
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + pane);
            }
            agents.noteFocus();
            agents.look(t, now, false);
            if (t.shownAgent(now) == null) {
                throw notAgent(pane);
            }
            ObjectNode r = call.newObject().put("type", "agent");
            row(r, t, agents.workspaces().topology(), now);
            return r;
        });
    }

    static UhpException notAgent(String pane) {
        return new UhpException(ErrorCode.INVALID_REQUEST, "no agent is recognised in pane " + pane
                + " (a shell, or a program no manifest knows)", Map.of("field", "target", "reason", "not_agent", "pane", pane));
    }

    /** One agent row (loop). */
    static void row(ObjectNode o, Tracked t, Topology s, long now) {
        o.put("pane", t.pane).put("agent", t.shownAgent(now)).put("status", t.tracker.status().wire())
                .put("source", t.tracker.source().wire());
        Pane p = s.panes().get(t.pane);
        o.put("name", p == null ? null : p.name());
        if (t.agentPid > 0) {
            o.put("pid", t.agentPid);
        } else {
            o.putNull("pid");
        }
        s.locate(t.pane).ifPresent(at -> o.put("workspace", at.workspaceIndex()).put("tab", at.tabIndex() + 1)
                .put("workspace_id", at.workspace().id()).put("tab_id", at.tab().id()));
        o.put("terminal_id", t.terminalId).put("session_id", t.sessionId)
                .put("message", t.lease != null && t.lease.expiresAt() > now ? t.lease.message() : t.message)
                .put("since_ms", t.tracker.since()).put("attention", t.tracker.attention());
    }

    ObjectNode explain(Call call) {
        String pane = target(call);
        return agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + pane);
            }
            long now = System.currentTimeMillis();
            agents.look(t, now, false);
            ObjectNode r = call.newObject().put("type", "agent_explain").put("pane", pane).put("agent", t.shownAgent(now))
                    .put("status", t.tracker.status().wire());
            ObjectNode id = r.putObject("identity").put("source", t.via).put("process", t.processName);
            if (t.agentPid > 0) {
                id.put("pid", t.agentPid);
            } else {
                id.putNull("pid");
            }
            if (t.manifest != null) {
                id.put("manifest", t.manifest.name()).put("manifest_source", t.manifest.source())
                        .put("manifest_path", t.manifest.path()).put("rules", t.manifest.rules().size());
            } else {
                id.putNull("manifest");
            }
            Verdict v = t.tracker.lastVerdict();
            if (v == null) {
                r.putNull("evidence");
            } else {
                r.putObject("evidence").put("status", v.status().wire()).put("rule", v.rule()).put("region", v.region())
                        .put("priority", v.priority()).put("confidence", v.confidence()).put("matched", v.evidence())
                        .put("revision", v.revision()).put("rows_read", v.rowsRead());
            }
            if (t.tracker.lastHookEvent() == null) {
                r.putNull("hook");
            } else {
                r.putObject("hook").put("event", t.tracker.lastHookEvent())
                        .put("status", t.tracker.hookStatus() == null ? null : t.tracker.hookStatus().wire())
                        .put("at_ms", t.tracker.hookAt()).put("fresh", t.tracker.hookFresh(now));
            }
            ObjectNode a = r.putObject("authority").put("active", t.tracker.source().wire());
            if (t.lease != null && t.lease.expiresAt() > now) {
                a.put("source", t.lease.source()).put("sequence", t.lease.sequence())
                        .put("expires_in_ms", t.lease.expiresAt() - now).put("status", t.lease.status().wire());
            }
            return r;
        });
    }

    // ------------------------------------------------------------------ leases

    ObjectNode report(Call call) {
        String pane = paneParam(call, "pane");
        String source = text(call, "source");
        String agent = text(call, "agent");
        Status status = Status.fromWire(text(call, "status")).orElseThrow();
        String message = text(call, "message");
        long sequence = call.params().get("sequence").asLong();
        long ttl = call.params().get("ttl_s").asLong();
        return agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + pane);
            }
            long now = System.currentTimeMillis();
            ownedByOther(t, source, now);
            Long last = t.lastSequence.get(source);
            if (last != null && sequence <= last) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "sequence " + sequence + " does not increase on "
                        + last + " from " + source, Map.of("field", "sequence", "reason", "not_increasing", "last", last));
            }
            t.lastSequence.remove(source);
            t.lastSequence.put(source, sequence);
            while (t.lastSequence.size() > Tracked.MAX_SOURCES) {
                t.lastSequence.remove(t.lastSequence.keySet().iterator().next());
            }
            t.lease = new Tracked.Lease(source, agent, status, message, sequence, ttl, now + ttl * 1000);
            agents.counterSet().reports.incrementAndGet();
            t.tracker.lease(status, now);
            agents.settled(t, now);
            return call.newObject().put("type", "agent_report").put("pane", pane).put("agent", agent)
                    .put("status", status.wire()).put("source", source).put("sequence", sequence).put("ttl_s", ttl);
        });
    }

    /** Loop: the pane's live lease (null for none); authority_conflict when another source holds it. */
    private static Tracked.Lease ownedByOther(Tracked t, String source, long now) {
        Tracked.Lease held = t.lease != null && t.lease.expiresAt() > now ? t.lease : null;
        if (held != null && !held.source().equals(source)) {
            throw new UhpException(ErrorCode.AUTHORITY_CONFLICT, "pane " + t.pane + " is reported by " + held.source()
                    + " for " + (held.expiresAt() - now) / 1000 + " s more, not by " + source,
                    Map.of("owner", held.source(), "expires_in_ms", held.expiresAt() - now, "pane", t.pane));
        }
        return held;
    }

    ObjectNode release(Call call) {
        String pane = paneParam(call, "pane");
        String source = text(call, "source");
        return agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + pane);
            }
            long now = System.currentTimeMillis();
            Tracked.Lease held = ownedByOther(t, source, now);
            t.lease = null;
            t.tracker.lease(null, now);
            agents.look(t, now, true);
            return call.newObject().put("type", "agent_release").put("pane", pane).put("source", source)
                    .put("released", held != null).put("status", t.tracker.status().wire());
        });
    }

    // ------------------------------------------------------------------ waits

    ObjectNode await(Call call) {
        String pane = Targets.pane(agents.workspaces(), agents, text(call, "pane"));
        Status status = Status.fromWire(text(call, "status")).orElseThrow();
        JsonNode to = call.params().get("timeout_s");
        long timeout = (long) ((to == null ? 30 : to.asDouble()) * 1000);
        long start = System.currentTimeMillis();
        Tracked.Wait w = agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + pane);
            }
            return agents.await(t, status, null, timeout);
        });
        boolean matched = join(w.done, timeout);
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
        String pane = paneParam(call, "pane");
        String agent = text(call, "agent");
        String session = text(call, "session_id");
        String cwd = text(call, "cwd");
        agents.sessions().put(new Sessions.Session(agent, session, pane, cwd, "hook", System.currentTimeMillis()));
        agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t != null) {
                t.sessionId = session;
                if (t.agent == null) {
                    t.agent = agent;
                    t.via = "hook";
                    t.manifest = agents.manifests().get(agent).orElse(null);
                }
                agents.settled(t, System.currentTimeMillis());
            }
            return null;
        });
        return call.newObject().put("type", "ok").put("pane", pane).put("agent", agent).put("session_id", session);
    }

    ObjectNode reportEvent(Call call) {
        String pane = paneParam(call, "pane");
        String agent = text(call, "agent");
        String event = text(call, "event");
        String given = text(call, "status");
        String message = text(call, "message");
        String session = text(call, "session_id");
        Optional<AgentManifest> m = agents.manifests().get(agent);
        Status mapped = given != null ? Status.fromWire(given).orElseThrow() : m.flatMap(x -> x.hookStatus(event)).orElse(null);
        if (session != null) {
            agents.sessions().put(new Sessions.Session(agent, session, pane, null, "hook", System.currentTimeMillis()));
        }
        Status now = agents.onLoop(() -> {
            Tracked t = agents.tracked(pane);
            if (t == null) {
                throw new UhpException(ErrorCode.NOT_FOUND, "no such pane: " + pane);
            }
            long ms = System.currentTimeMillis();
            if (t.agent == null) {
                t.agent = agent;
                t.via = "hook";
                t.manifest = m.orElse(null);
            }
            if (session != null) {
                t.sessionId = session;
            }
            if (message != null) {
                t.message = message;
            }
            agents.counterSet().hooks.incrementAndGet();
            t.tracker.hook(event, mapped, ms);
            agents.settled(t, ms);
            return t.tracker.status();
        });
        ObjectNode d = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("pane", pane)
                .put("agent", agent).put("event", event).put("status", mapped == null ? null : mapped.wire());
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
            ManifestSet set = ManifestSet.load(agents.managedDir(), agents.userDir()); // file reads on this worker
            agents.onLoop(() -> {
                agents.manifests(set);
                agents.freshPass();
                return null;
            });
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

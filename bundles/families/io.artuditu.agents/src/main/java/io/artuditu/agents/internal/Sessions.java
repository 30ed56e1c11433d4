package io.artuditu.agents.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The agent sessions Artuditu knows: reported by hooks ({@code pane.report_session}),
 * pinned at {@code agent.start}, or resumed here. What {@code agent.sessions} lists and what
 * {@code agent.fork} and {@code agent.resume} need: an exact session id, never a guess such
 * as "the newest rollout".
 *
 * <p>Bounds: the newest {@value #MAX} sessions are kept; the file is at most 1 MiB when
 * read. Persisted atomically in {@code <home>/agents/sessions.json} on every change, so a
 * session can be resumed after a restart. Thread-safe.
 */
final class Sessions {
    static final int MAX = 256;
    private static final long MAX_FILE = 1 << 20;
    private static final ObjectMapper M = new ObjectMapper();
    private static final System.Logger LOG = System.getLogger(Sessions.class.getName());

    /** One known session. {@code pane} is where it last ran (null once that pane is gone). */
    record Session(String agent, String id, String pane, String cwd, String source, long updatedMillis) {
    }

    private final Path file;
    /** By agent + id, oldest first (re-inserted on update). Guarded by this. */
    private final LinkedHashMap<String, Session> byKey = new LinkedHashMap<>();

    Sessions(Path file) {
        this.file = file;
        load();
    }

    private static String key(String agent, String id) {
        return agent + "\u0000" + id;
    }

    /**
     * Records a report of {@code s}. A report without a {@code cwd} keeps the one known (a
     * hook's {@code pane.report_event} names the session but not its folder). Saved when
     * the session is new or what the file keeps of it changed; a repeat report (every hook
     * event makes one) only refreshes it here, not worth a synced write per tool call.
     */
    synchronized void put(Session s) {
        Session old = byKey.remove(key(s.agent(), s.id()));
        if (old != null && s.cwd() == null && old.cwd() != null) {
            s = new Session(s.agent(), s.id(), s.pane(), old.cwd(), s.source(), s.updatedMillis());
        }
        byKey.put(key(s.agent(), s.id()), s);
        boolean dropped = false;
        while (byKey.size() > MAX) {
            Iterator<String> it = byKey.keySet().iterator();
            it.next();
            it.remove();
            dropped = true;
        }
        if (old == null || dropped || !java.util.Objects.equals(old.cwd(), s.cwd()) || !old.source().equals(s.source())) {
            save();
        }
    }

    /** The session of {@code agent} with {@code id}; with a null agent, the one session of any agent with that id. */
    synchronized Optional<Session> find(String agent, String id) {
        if (agent != null) {
            return Optional.ofNullable(byKey.get(key(agent, id)));
        }
        Session found = null;
        for (Session s : byKey.values()) {
            if (s.id().equals(id)) {
                if (found != null && !found.agent().equals(s.agent())) {
                    return Optional.empty();
                }
                found = s;
            }
        }
        return Optional.ofNullable(found);
    }

    /** The newest session last seen in {@code pane} for {@code agent}. */
    synchronized Optional<Session> inPane(String pane, String agent) {
        Session found = null;
        for (Session s : byKey.values()) {
            if (pane.equals(s.pane()) && s.agent().equals(agent)) {
                found = s;
            }
        }
        return Optional.ofNullable(found);
    }

    /** Newest first, optionally of one agent. */
    synchronized List<Session> list(String agent) {
        List<Session> out = new ArrayList<>();
        for (Session s : byKey.values()) {
            if (agent == null || agent.equals(s.agent())) {
                out.add(0, s);
            }
        }
        return out;
    }

    /** The file, once what an interrupted write left beside it is gone. */
    private void load() {
        try {
            AtomicFiles.removeLeftovers(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot look for temporary files beside " + file + ": " + e.getMessage());
        }
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE) {
                return;
            }
            JsonNode root = M.readTree(file.toFile());
            for (JsonNode n : root.path("sessions")) {
                String agent = n.path("agent").asText("");
                String id = n.path("session_id").asText("");
                if (agent.isEmpty() || id.isEmpty()) {
                    continue;
                }
                Session s = new Session(agent, id, null, n.path("cwd").isTextual() ? n.get("cwd").asText() : null,
                        n.path("source").asText("hook"), n.path("updated_ms").asLong());
                byKey.put(key(agent, id), s);
            }
            while (byKey.size() > MAX) {
                Iterator<String> it = byKey.keySet().iterator();
                it.next();
                it.remove();
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot read " + file + "; starting with no known sessions", e);
        }
    }

    /** Panes are not kept: a pane id means nothing to the next server. */
    private void save() {
        ObjectNode root = M.createObjectNode();
        ArrayNode a = root.putArray("sessions");
        for (Session s : byKey.values()) {
            a.addObject().put("agent", s.agent()).put("session_id", s.id()).put("cwd", s.cwd()).put("source", s.source())
                    .put("updated_ms", s.updatedMillis());
        }
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, M.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot save " + file, e);
        }
    }

    /** Forgets which pane each session ran in, for panes that are gone. */
    synchronized void panesGone(java.util.Set<String> live) {
        Map<String, Session> changed = new LinkedHashMap<>();
        for (Map.Entry<String, Session> e : byKey.entrySet()) {
            Session s = e.getValue();
            if (s.pane() != null && !live.contains(s.pane())) {
                changed.put(e.getKey(), new Session(s.agent(), s.id(), null, s.cwd(), s.source(), s.updatedMillis()));
            }
        }
        byKey.putAll(changed);
    }
}

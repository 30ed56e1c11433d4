package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.sdk.ActionEvent;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The module family: link, enable, disable, actions, panes, settings and logs of modules. */
@Component(service = UhpFamily.class)
public final class ModuleFamily implements UhpFamily {
    private final Modules modules;
    private final FamilyContract contract;

    @Activate
    public ModuleFamily(@Reference Modules modules) {
        this.modules = modules;
        FamilyContract.Binder h = FamilyContract.load(ModuleFamily.class, "protocol/uhp/v1/modules.json").binder();
        h.route("module.list", this::list);
        h.route("module.info", this::info);
        h.route("module.link", this::link);
        h.route("module.unlink", this::unlink);
        h.route("module.enable", c -> state(c, modules.enable(id(c))));
        h.route("module.disable", c -> state(c, modules.disable(id(c))));
        h.route("module.action.list", this::actions);
        h.route("module.action.invoke", this::invoke);
        h.route("module.pane.open", this::paneOpen);
        h.route("module.pane.focus", this::paneFocus);
        h.route("module.pane.close", this::paneClose);
        h.route("module.config_dir", this::configDir);
        h.route("module.settings.list", this::settingsList);
        h.route("module.settings.get", this::settingsGet);
        h.route("module.settings.set", this::settingsSet);
        h.route("module.log.list", this::log);
        this.contract = h.bind();
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    private static String id(Call c) {
        return c.params().get("id").asText();
    }

    private static String opt(Call c, String f) {
        JsonNode v = c.params().get(f);
        return v == null || v.isNull() ? null : v.asText();
    }

    ObjectNode list(Call call) {
        ObjectNode r = call.newObject().put("type", "modules");
        ArrayNode a = r.putArray("modules");
        for (ModuleRecord m : modules.all()) {
            summary(a.addObject(), m);
        }
        return r;
    }

    private void summary(ObjectNode n, ModuleRecord r) {
        ModuleRecord.View v = r.view();
        List<String> problems = r.bundleId >= 0 ? modules.componentProblems(r) : List.of();
        // An enabled bundle module whose contribution failed is reported failed, with the first reason.
        boolean degraded = !problems.isEmpty() && !ModuleRecord.FAILED.equals(v.state());
        n.put("id", r.id).put("kind", r.kind).put("state", degraded ? ModuleRecord.FAILED : v.state())
                .put("path", r.path.toString());
        if (v.error() != null || degraded) {
            n.put("error", degraded ? problems.get(0) : v.error());
        }
        for (String p : problems) {
            if (r.reported.add(p)) {
                r.log.error(p);
            }
        }
        Manifest m = v.manifest();
        if (m != null) {
            n.put("name", m.name()).put("version", m.version()).put("api", m.api());
            ArrayNode s = n.putArray("scopes");
            m.scopes().forEach(x -> s.add(x.wire()));
            m.actions().keySet().forEach(n.putArray("actions")::add);
            m.docks().keySet().forEach(n.putArray("docks")::add);
            m.bars().keySet().forEach(n.putArray("bars")::add);
        }
        if (r.bundleId >= 0) {
            n.put("bundle_id", r.bundleId);
            if (!problems.isEmpty()) {
                problems.forEach(n.putArray("problems")::add);
            }
        }
    }

    ObjectNode info(Call call) {
        ModuleRecord r = modules.get(id(call));
        ObjectNode out = call.newObject().put("type", "module");
        ObjectNode n = out.putObject("module");
        summary(n, r);
        Manifest m = r.view().manifest();
        if (m != null) {
            n.put("description", m.description());
            if (m.onEnable() != null) {
                n.put("on_enable", m.onEnable());
            }
            ArrayNode acts = n.putArray("action_details");
            for (Manifest.Action a : m.actions().values()) {
                actionRow(acts.addObject(), r, a);
            }
            ArrayNode docks = n.putArray("dock_details");
            m.docks().values().forEach(d -> docks.addObject().put("id", d.id()).put("title", d.title())
                    .put("placement", d.placement()));
            ArrayNode bars = n.putArray("bar_details");
            m.bars().values().forEach(b -> bars.addObject().put("id", b.id()).put("region", b.region())
                    .put("priority", b.priority()));
            n.put("settings", m.settings().size());
        }
        n.put("live_widgets", modules.ui.liveWidgets(r.id));
        r.panes.forEach(n.putArray("panes")::add);
        n.put("running_actions", r.busy.size());
        n.put("timers", r.timers.size());
        n.put("context", r.context != null);
        return out;
    }

    private static void actionRow(ObjectNode o, ModuleRecord r, Manifest.Action a) {
        o.put("module", r.id).put("id", a.id()).put("title", a.title()).put("kind", a.run() == null ? "java" : "script")
                .put("timeout_ms", a.timeoutMs());
        if (a.everyMs() > 0) {
            o.put("every_ms", a.everyMs());
        }
        if (a.run() == null) {
            o.put("registered", r.javaActions.containsKey(a.id()));
        }
    }

    ObjectNode link(Call call) {
        ModuleRecord r = modules.link(call.params().get("path").asText(), call.params().path("enable").asBoolean(true));
        return state(call, r);
    }

    ObjectNode unlink(Call call) {
        ModuleRecord r = modules.unlink(id(call));
        return call.newObject().put("type", "ok").put("id", r.id).put("state", "disabled");
    }

    private static ObjectNode state(Call call, ModuleRecord r) {
        ObjectNode o = call.newObject().put("type", "ok").put("id", r.id).put("state", r.view().state());
        if (r.view().error() != null) {
            o.put("error", r.view().error());
        }
        return o;
    }

    ObjectNode actions(Call call) {
        String only = opt(call, "id");
        if (only != null) {
            modules.get(only);
        }
        ObjectNode out = call.newObject().put("type", "actions");
        ArrayNode a = out.putArray("actions");
        for (ModuleRecord r : modules.all()) {
            if ((only == null && r.enabled() || r.id.equals(only)) && r.view().manifest() != null) {
                for (Manifest.Action x : r.view().manifest().actions().values()) {
                    actionRow(a.addObject(), r, x);
                }
            }
        }
        return out;
    }

    ObjectNode invoke(Call call) {
        ObjectNode p = call.params();
        String action = p.get("action").asText();
        ActionEvent e = new ActionEvent(action, opt(call, "row_value"), opt(call, "bar_id"),
                p.has("bar_segment") ? p.get("bar_segment").asInt() : -1, opt(call, "bar_value"));
        boolean wait = p.path("wait").asBoolean(true);
        ActionRunner.Result r = modules.invoke(id(call), action, e, wait);
        ObjectNode out = call.newObject().put("type", "action_result").put("module", id(call)).put("action", action)
                .put("started", true);
        if (r != null) {
            if (r.exitCode() == null) {
                out.putNull("exit_code");
            } else {
                out.put("exit_code", r.exitCode());
            }
            out.put("duration_ms", r.durationMs()).put("output", Modules.tail(r.output(), 16 * 1024))
                    .put("output_bytes", r.outputBytes()).put("truncated", r.truncated() || r.output().length() > 16 * 1024)
                    .put("timed_out", r.timedOut());
            if (r.error() != null) {
                out.put("error", r.error());
            }
        }
        return out;
    }

    /** {@code params} with the call's {@code if_revision}, for the topology method that makes the change. */
    private static ObjectNode revisioned(Call call, ObjectNode params) {
        call.ifRevision().ifPresent(r -> params.put("if_revision", r));
        return params;
    }

    ObjectNode paneOpen(Call call) {
        List<String> cmd = new ArrayList<>();
        call.params().path("command").forEach(c -> cmd.add(c.asText()));
        try {
            String pane = modules.openPane(id(call), cmd, opt(call, "cwd"), opt(call, "workspace_id"),
                    call.params().path("focus").asBoolean(true), call.ifRevision());
            return call.newObject().put("type", "ok").put("pane", pane);
        } catch (IOException e) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, "cannot start the pane's process: " + e.getMessage());
        }
    }

    ObjectNode paneFocus(Call call) {
        String pane = call.params().get("pane").asText();
        modules.ownPane(id(call), pane);
        modules.local().call("pane.focus", revisioned(call, Local.JSON.createObjectNode().put("pane", pane)), null);
        return call.newObject().put("type", "ok");
    }

    ObjectNode paneClose(Call call) {
        String pane = call.params().get("pane").asText();
        modules.ownPane(id(call), pane);
        modules.local().call("pane.close", revisioned(call, Local.JSON.createObjectNode().put("pane", pane)), null);
        modules.get(id(call)).panes.remove(pane);
        return call.newObject().put("type", "ok").put("closed", true);
    }

    ObjectNode configDir(Call call) {
        modules.get(id(call));
        try {
            return call.newObject().put("type", "config_dir").put("path", modules.configDir(id(call)).toString());
        } catch (IOException e) {
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "cannot create the module's folder: " + e.getMessage());
        }
    }

    private Manifest manifest(String id) {
        Manifest m = modules.get(id).view().manifest();
        if (m == null) {
            throw UhpException.invalid("module " + id + " has no valid manifest: " + modules.get(id).view().error());
        }
        return m;
    }

    ObjectNode settingsList(Call call) {
        String id = id(call);
        ObjectNode out = call.newObject().put("type", "settings");
        ArrayNode a = out.putArray("settings");
        for (Manifest.Setting s : manifest(id).settings().values()) {
            ObjectNode o = a.addObject().put("key", s.key()).put("type", s.type()).put("description", s.description());
            o.set("default", s.defaultValue());
            o.set("value", modules.settings.get(id, s));
            if (!s.choices().isEmpty()) {
                s.choices().forEach(o.putArray("choices")::add);
            }
            if (s.min() != null) {
                o.put("min", s.min());
            }
            if (s.max() != null) {
                o.put("max", s.max());
            }
        }
        return out;
    }

    private Manifest.Setting setting(String id, String key) {
        Manifest.Setting s = manifest(id).settings().get(key);
        if (s == null) {
            throw UhpException.notFound("setting", key, "key", "module " + id + " declares no setting " + key);
        }
        return s;
    }

    ObjectNode settingsGet(Call call) {
        String key = call.params().get("key").asText();
        Manifest.Setting s = setting(id(call), key);
        ObjectNode o = call.newObject().put("type", "setting").put("key", key);
        o.set("value", modules.settings.get(id(call), s));
        return o;
    }

    ObjectNode settingsSet(Call call) {
        String id = id(call);
        String key = call.params().get("key").asText();
        Manifest.Setting s = setting(id, key);
        JsonNode v = call.params().get("value");
        if (!v.isNull()) {
            String problem = Settings.check(s, v);
            if (problem != null) {
                throw new UhpException(ErrorCode.INVALID_REQUEST, "setting " + key + " " + problem, Map.of("path", "value"));
            }
        }
        try {
            modules.settings.set(id, key, v);
        } catch (IOException e) {
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "cannot save the setting: " + e.getMessage());
        }
        ModuleRecord r = modules.get(id);
        r.log.info("setting " + key + " = " + (v.isNull() ? "(default)" : v.toString()));
        ContextComponent ctx = r.context;
        if (ctx != null) {
            ctx.settingsChanged();
        }
        ObjectNode o = call.newObject().put("type", "ok").put("key", key);
        o.set("value", modules.settings.get(id, s));
        return o;
    }

    ObjectNode log(Call call) {
        ModuleRecord r = modules.get(id(call));
        ObjectNode out = call.newObject().put("type", "module_log");
        r.log.writeTo(out.putArray("entries"), call.params().path("limit").asInt(ModuleLog.MAX_ENTRIES));
        return out;
    }
}

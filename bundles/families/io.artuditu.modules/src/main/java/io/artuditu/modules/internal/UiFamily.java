package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The ui family: sidebars, docks, the Artuditu Bar, notifications and toasts. */
@Component(service = UhpFamily.class)
public final class UiFamily implements UhpFamily {
    private final Modules modules;
    private final FamilyContract contract;

    @Activate
    public UiFamily(@Reference Modules modules) {
        this.modules = modules;
        FamilyContract.Binder h = FamilyContract.load(UiFamily.class, "protocol/uhp/v1/ui.json").binder();
        h.route("ui.sidebar", this::sidebar);
        h.route("ui.dock.push", this::dockPush);
        h.route("ui.dock.list", this::dockList);
        h.route("ui.dock.move", this::dockMove);
        h.route("ui.bar.push", this::barPush);
        h.route("ui.bar.list", this::barList);
        h.route("ui.bar.move", this::barMove);
        h.route("ui.bar.remove", this::barRemove);
        h.route("ui.notification.push", this::notificationPush);
        h.route("ui.notification.clear", this::notificationClear);
        h.route("ui.notification.list", this::notificationList);
        h.route("ui.toast", this::toast);
        this.contract = h.bind();
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    private static String text(Call c, String f) {
        JsonNode v = c.params().get(f);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** Reads the side's config; with width or visible, patches it through config.patch first. */
    ObjectNode sidebar(Call call) {
        String side = call.params().path("side").asText("left");
        ObjectNode p = call.params();
        if (p.has("width") || p.has("visible")) {
            ObjectNode patch = Local.JSON.createObjectNode();
            ObjectNode s = patch.putObject("patch").putObject("sidebars").putObject(side);
            if (p.has("width")) {
                s.set("width", p.get("width"));
            }
            if (p.has("visible")) {
                s.set("visible", p.get("visible"));
            }
            modules.local().call("config.patch", patch, null);
        }
        JsonNode cfg = modules.local().call("config.get", Local.JSON.createObjectNode(), null);
        JsonNode s = cfg.path("config").path("sidebars").path(side);
        return call.newObject().put("type", "sidebar").put("side", side).put("width", s.path("width").asInt())
                .put("visible", s.path("visible").asBoolean());
    }

    ObjectNode dockPush(Call call) {
        modules.ui.pushDock(text(call, "owner"), text(call, "id"), text(call, "title"), text(call, "placement"),
                (ArrayNode) call.params().get("rows"));
        return call.newObject().put("type", "ok");
    }

    ObjectNode dockList(Call call) {
        ObjectNode r = call.newObject().put("type", "dock_list");
        modules.ui.listDocks(r.putArray("docks"));
        return r;
    }

    ObjectNode dockMove(Call call) {
        modules.ui.moveDock(text(call, "owner"), text(call, "id"), text(call, "side"));
        return call.newObject().put("type", "ok");
    }

    ObjectNode barPush(Call call) {
        ObjectNode p = call.params();
        Object[] r = modules.ui.pushBar(text(call, "owner"), text(call, "id"), text(call, "region"),
                (ArrayNode) p.get("content"), p.hasNonNull("compact_content") ? (ArrayNode) p.get("compact_content") : null,
                p.has("priority") ? p.get("priority").asInt() : null);
        return call.newObject().put("type", "ok").put("changed", (Boolean) r[0]).put("key", (String) r[1]);
    }

    ObjectNode barList(Call call) {
        ObjectNode r = call.newObject().put("type", "bar_list");
        modules.ui.listBars(r.putArray("widgets"));
        return r;
    }

    ObjectNode barMove(Call call) {
        String region = text(call, "region");
        String key = modules.ui.moveBar(text(call, "owner"), text(call, "id"), region);
        return call.newObject().put("type", "ok").put("key", key).put("region", region);
    }

    ObjectNode barRemove(Call call) {
        return call.newObject().put("type", "ok").put("removed", modules.ui.removeBar(text(call, "owner"), text(call, "id")));
    }

    ObjectNode notificationPush(Call call) {
        ObjectNode p = call.params();
        Object[] r = modules.ui.pushNotification(text(call, "owner"), text(call, "text"), text(call, "level"),
                p.has("ttl_ms") ? p.get("ttl_ms").asInt() : null, text(call, "action"), text(call, "value"),
                text(call, "dedupe_key"));
        return call.newObject().put("type", "ok").put("id", (String) r[0]).put("replaced", (Boolean) r[1]);
    }

    ObjectNode notificationClear(Call call) {
        return call.newObject().put("type", "ok").put("removed",
                modules.ui.clearNotifications(text(call, "owner"), text(call, "dedupe_key")));
    }

    ObjectNode notificationList(Call call) {
        ObjectNode r = call.newObject().put("type", "notifications");
        modules.ui.listNotifications(r.putArray("notifications"));
        return r;
    }

    ObjectNode toast(Call call) {
        String text = text(call, "text");
        Segments.field(call.params().get("text"), "text");
        modules.observe("ui.toast", Local.JSON.createObjectNode().put("text", text).put("level",
                call.params().path("level").asText("info")));
        return call.newObject().put("type", "ok");
    }
}

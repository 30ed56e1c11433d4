package io.artuditu.operator.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * The {@code server.bundle} family: the operator's view of the installed bundles and the
 * way to change them at run time. Every change goes through {@link BundleAdmin}.
 *
 * <p>Operator-installed bundles get the location {@code file:} + the jar's real path as a
 * URI; drop-in bundles {@code dropin:} + file name (see {@link DropInFolder}).
 */
@Component(service = UhpFamily.class)
public final class BundleFamily implements UhpFamily {
    private static final Logger LOG = System.getLogger(BundleFamily.class.getName());

    private final BundleAdmin admin;
    private final FamilyContract contract;

    @Activate
    public BundleFamily(BundleContext context) {
        this(new BundleAdmin(context, DropInFolder.of(context)));
    }

    BundleFamily(BundleAdmin admin) {
        this.admin = admin;
        this.contract = FamilyContract.load(BundleFamily.class, "protocol/uhp/v1/bundles.json")
                .route("server.bundle.list", logged(this::list))
                .route("server.bundle.install", logged(this::install))
                .route("server.bundle.update", logged(this::update))
                .route("server.bundle.start", logged(this::start))
                .route("server.bundle.stop", logged(this::stop))
                .route("server.bundle.uninstall", logged(this::uninstall))
                .bind();
    }

    @Override
    public String family() {
        return "server.bundle";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    /** Every refusal lands in the server log too, with who asked. */
    private static MethodHandler logged(MethodHandler h) {
        return call -> {
            try {
                return h.handle(call);
            } catch (UhpException e) {
                LOG.log(Level.WARNING, call.method() + " from connection " + call.caller().connection() + " failed: "
                        + e.code().wire() + ": " + e.getMessage());
                throw e;
            }
        };
    }

    ObjectNode list(Call call) {
        ObjectNode r = call.newObject().put("type", "bundle_list");
        ArrayNode rows = r.putArray("bundles");
        for (Bundle b : admin.bundles()) {
            row(rows.addObject(), b);
        }
        r.put("drop_in", admin.dropIn().toString());
        return r;
    }

    ObjectNode install(Call call) {
        BundleAdmin.Source src = admin.source(call.params().path("path").asText());
        if (src.file().startsWith(realDropIn())) {
            throw UhpException.invalid(src.file() + " is in the drop-in folder, which the server installs from by "
                    + "itself; wait for it, or install from another folder");
        }
        Bundle b = admin.install(src, BundleAdmin.fileLocation(src.file()));
        if (call.params().path("start").asBoolean(true) && !BundleAdmin.isFragment(b)) {
            try {
                admin.start(b);
            } catch (UhpException e) {
                // The call failed, so it leaves nothing behind.
                discard(b);
                throw new UhpException(e.code(), e.getMessage()
                        + "; the bundle was uninstalled again (install with start:false to keep it)", e.details());
            }
        }
        return result(call, "bundle_installed", b);
    }

    ObjectNode update(Call call) {
        Bundle b = admin.find(call.params().path("bundle"));
        BundleAdmin.Source src = call.params().has("path") ? admin.source(call.params().path("path").asText()) : null;
        List<String> refreshed = admin.update(b, src);
        ObjectNode r = result(call, "bundle_updated", b);
        refreshed.forEach(r.putArray("refreshed")::add);
        return r;
    }

    ObjectNode start(Call call) {
        Bundle b = admin.find(call.params().path("bundle"));
        admin.start(b);
        return result(call, "bundle_started", b);
    }

    ObjectNode stop(Call call) {
        Bundle b = admin.find(call.params().path("bundle"));
        admin.stop(b);
        return result(call, "bundle_stopped", b);
    }

    ObjectNode uninstall(Call call) {
        Bundle b = admin.find(call.params().path("bundle"));
        List<String> refreshed = admin.uninstall(b);
        ObjectNode r = result(call, "bundle_uninstalled", b);
        refreshed.forEach(r.putArray("refreshed")::add);
        return r;
    }

    private void discard(Bundle b) {
        try {
            admin.uninstall(b);
        } catch (UhpException e) {
            LOG.log(Level.ERROR, "could not uninstall " + BundleAdmin.describe(b) + " after its start failed: "
                    + e.getMessage());
        }
    }

    private Path realDropIn() {
        Path d = admin.dropIn();
        try {
            return Files.exists(d) ? d.toRealPath() : d;
        } catch (IOException e) {
            return d;
        }
    }

    private static ObjectNode result(Call call, String type, Bundle b) {
        ObjectNode r = call.newObject().put("type", type);
        row(r.putObject("bundle"), b);
        return r;
    }

    /** One bundle as every result shows it. */
    static void row(ObjectNode row, Bundle b) {
        row.put("id", b.getBundleId());
        if (b.getSymbolicName() == null) {
            row.putNull("symbolic_name");
        } else {
            row.put("symbolic_name", b.getSymbolicName());
        }
        row.put("version", b.getVersion().toString());
        row.put("state", state(b.getState()));
        row.put("location", b.getLocation());
        row.put("core", BundleAdmin.isCore(b));
    }

    static String state(int state) {
        return switch (state) {
            case Bundle.INSTALLED -> "installed";
            case Bundle.RESOLVED -> "resolved";
            case Bundle.STARTING -> "starting";
            case Bundle.ACTIVE -> "active";
            case Bundle.STOPPING -> "stopping";
            default -> "uninstalled";
        };
    }
}

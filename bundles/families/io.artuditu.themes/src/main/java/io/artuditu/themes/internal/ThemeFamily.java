package io.artuditu.themes.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.themes.Rgb;
import io.artuditu.themes.Theme;
import io.artuditu.themes.ThemeFormat;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.config.CheckedSection;
import io.artuditu.uhp.api.config.ConfigEditor;
import io.artuditu.uhp.api.config.ConfigSection;
import io.artuditu.uhp.api.config.SectionDocument;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.AtomicFiles;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.util.tracker.BundleTracker;

/**
 * The {@code theme} family and the config table {@code theme} ({@code id}, shown on the wire
 * as {@code config.theme}, the id alone): one component, so the registry, its watcher and the
 * config check see the same {@link Themes}. The registry starts from the built-ins and a scan
 * of {@code <home>/themes/} at activation; running bundle modules add theme files they carry;
 * {@code theme.use} and {@code config.patch} are checked against it before {@code config.theme}
 * changes.
 */
@Component(service = {UhpFamily.class, ConfigSection.class})
public final class ThemeFamily implements UhpFamily, CheckedSection {
    static final String SECTION = "theme";
    private static final Logger LOG = System.getLogger(ThemeFamily.class.getName());
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** The table's schema and defaults, {@code theme-config.json} beside this class. */
    private static final SectionDocument SECTION_DOC = SectionDocument.load(ThemeFamily.class, "theme-config.json");

    private final Themes themes;
    private final FamilyContract contract;
    private final FolderWatch watch;
    private final BundleTracker<ModuleThemes> modules;
    /** Why the config is changing on this thread: theme.use says "use", else it is "config". */
    private final ThreadLocal<String> reason = new ThreadLocal<>();

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus bus;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile ConfigEditor editor;

    @Activate
    public ThemeFamily(BundleContext context) {
        Path home = SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv())
                .toAbsolutePath().normalize();
        Path folder = home.resolve("themes");
        try {
            Files.createDirectories(home);
            if (!Files.exists(folder)) {
                Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "themes: cannot make " + folder + ": " + e.getMessage());
        }
        try {
            // theme files are written there atomically (artu theme install|import): what a write cut short left
            AtomicFiles.removeLeftovers(folder, name -> name.endsWith(".toml"));
        } catch (IOException e) {
            LOG.log(Level.WARNING, "themes: cannot look for temporary files in " + folder + ": " + e.getMessage());
        }
        List<Registry.Problem> builtinProblems = new ArrayList<>();
        List<Registry.Entry> builtins = Themes.builtins(ThemeFamily.class.getClassLoader(), builtinProblems);
        builtinProblems.forEach(p -> LOG.log(Level.ERROR, "themes: built-in " + p.file() + ": " + p.message()));
        this.themes = new Themes(folder, builtins, Registry.FALLBACK, () -> bus);
        themes.reload("reload");
        this.contract = FamilyContract.load(ThemeFamily.class, "protocol/uhp/v1/themes.json")
                .route("theme.list", this::list)
                .route("theme.path", this::path)
                .route("theme.use", this::use)
                .route("theme.reload", this::reload)
                .bind();
        FolderWatch w = null;
        try {
            w = new FolderWatch(themes);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "themes: " + folder + " is not watched (" + e.getMessage()
                    + "); use artu theme reload after changing it");
        }
        this.watch = w;
        this.modules = new BundleTracker<>(context, Bundle.ACTIVE, null) {
            @Override
            public ModuleThemes addingBundle(Bundle b, BundleEvent event) {
                ModuleThemes m = ModuleThemes.read(b);
                if (m != null) {
                    themes.moduleAdded(m);
                }
                return m;
            }

            @Override
            public void removedBundle(Bundle b, BundleEvent event, ModuleThemes m) {
                themes.moduleRemoved(m.bundleId());
            }
        };
        modules.open();
    }

    @Deactivate
    void deactivate() {
        modules.close();
        if (watch != null) {
            watch.close();
        }
    }

    @Override
    public String family() {
        return "theme";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    // ------------------------------------------------------------------ the config table

    @Override
    public String name() {
        return SECTION;
    }

    @Override
    public JsonNode schema() {
        return SECTION_DOC.schema();
    }

    @Override
    public ObjectNode defaults() {
        return SECTION_DOC.defaults();
    }

    /** {@code config.theme} is the id, as the reference speaks of it; the file keeps {@code [theme] id}. */
    @Override
    public String valueKey() {
        return "id";
    }

    @Override
    public void check(ObjectNode values) {
        requireKnown(Themes.idOf(values));
    }

    /** theme.use and config.patch alike: an id the current registry lacks is not_found. */
    private void requireKnown(String id) {
        if (!themes.state().listing().byId().containsKey(id)) {
            throw UhpException.notFound("theme", id, "id", "no theme '" + id
                    + "' (theme.list shows the ids); nothing changed");
        }
    }

    @Override
    public void apply(ObjectNode values) {
        String why = reason.get();
        themes.configured(Themes.idOf(values), why == null ? "config" : why);
    }


    // ------------------------------------------------------------------ methods

    ObjectNode list(Call call) {
        Themes.State s = themes.state();
        ObjectNode r = call.newObject().put("type", "theme_list");
        ArrayNode out = r.putArray("themes");
        for (Registry.Entry e : s.listing().entries()) {
            out.add(entry(e, s));
        }
        problems(r.putArray("problems"), s);
        return selection(r, s);
    }

    ObjectNode path(Call call) {
        return call.newObject().put("type", "theme_path").put("path", themes.folder().toString())
                .put("exists", Files.isDirectory(themes.folder()));
    }

    ObjectNode use(Call call) {
        String id = call.params().path("id").asText();
        requireKnown(id); // before anything else, even when the config family is away
        ConfigEditor e = editor;
        if (e == null) {
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE,
                    "the config family is not running, so the selection cannot be saved; nothing changed", Map.of());
        }
        reason.set("use");
        try {
            e.patch(JSON.objectNode().set(SECTION, JSON.objectNode().put("id", id)));
        } finally {
            reason.remove();
        }
        return call.newObject().put("type", "theme_selected").put("id", id)
                .put("active", themes.state().active().id());
    }

    ObjectNode reload(Call call) {
        Themes.State s = themes.reload("reload");
        ObjectNode r = call.newObject().put("type", "themes_reloaded").put("count", s.listing().entries().size());
        problems(r.putArray("problems"), s);
        return selection(r, s);
    }

    private static ObjectNode selection(ObjectNode r, Themes.State s) {
        r.put("configured", s.registry().configured());
        r.put("active", s.active().id());
        r.put("selected_available", s.selectedAvailable());
        return r;
    }

    private static void problems(ArrayNode out, Themes.State s) {
        for (Registry.Problem p : s.listing().problems()) {
            ObjectNode o = out.addObject().put("file", p.file());
            if (p.module() != null) {
                o.put("module", p.module());
            }
            o.put("message", p.message());
        }
    }

    private static ObjectNode entry(Registry.Entry e, Themes.State s) {
        ObjectNode o = JSON.objectNode();
        Theme t = e.theme();
        o.put("id", e.id());
        o.put("name", t == null ? "Terminal" : t.name());
        o.put("author", t == null ? null : t.author());
        o.put("variant", t == null ? null : t.variant());
        o.put("source", e.source());
        o.put("path", e.path() == null ? null : e.path().toString());
        o.put("module", e.module());
        ArrayNode w = o.putArray("warnings");
        if (t != null) {
            t.warnings().forEach(w::add);
        }
        o.put("active", s.active() == e);
        o.put("selected", e.id().equals(s.registry().configured()));
        if (t == null) {
            o.putNull("colors");
            o.putNull("workbench");
        } else {
            ObjectNode c = o.putObject("colors");
            for (String k : ThemeFormat.TERMINAL_KEYS) {
                c.put(k, Rgb.hex(t.colors().get(k)));
            }
            for (String k : ThemeFormat.PALETTE_KEYS) {
                c.put(k, Rgb.hex(t.colors().get(k)));
            }
            ObjectNode wb = o.putObject("workbench");
            for (String k : ThemeFormat.WORKBENCH_KEYS) {
                wb.put(k, Rgb.hex(t.workbench().get(k)));
            }
        }
        return o;
    }
}

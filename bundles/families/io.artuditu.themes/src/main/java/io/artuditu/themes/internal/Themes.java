package io.artuditu.themes.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.themes.Theme;
import io.artuditu.themes.ThemeFolder;
import io.artuditu.themes.ThemeFormat;
import io.artuditu.uhp.api.events.EventBus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The registry's one writer. Every change (a reload's scan, a module's themes coming or
 * going, the configured id) builds a complete {@link Registry} and swaps it in under this
 * object's monitor; readers take the current {@link State} without a lock. Scans run on the
 * caller's thread before the swap and carry a ticket, so a scan that started earlier never
 * replaces a newer one. A swap that changes what the workbench shows (another theme, or the
 * active theme's colours) publishes {@code theme.changed}.
 */
final class Themes {
    static final String CHANGED = "theme.changed";
    static final String BUILTIN = "io/artuditu/themes/builtin/";

    /** A registry with its listing and active entry worked out once. */
    record State(Registry registry, Registry.Listing listing, Registry.Entry active) {
        static State of(Registry r) {
            Registry.Listing l = r.listing();
            return new State(r, l, Registry.active(l, r.configured()));
        }

        boolean selectedAvailable() {
            return listing.byId().containsKey(registry.configured());
        }
    }

    private final Path folder;
    private final Supplier<EventBus> bus;
    private volatile State state;
    private long scanTickets;
    private long appliedScan;

    Themes(Path folder, List<Registry.Entry> builtins, String configured, Supplier<EventBus> bus) {
        this.folder = folder;
        this.bus = bus;
        this.state = State.of(new Registry(builtins, List.of(), List.of(), List.of(), configured));
    }

    State state() {
        return state;
    }

    Path folder() {
        return folder;
    }

    /** Scans the home folder on this thread, then swaps it in; returns the state after. */
    State reload(String reason) {
        long ticket;
        synchronized (this) {
            ticket = ++scanTickets;
        }
        ThemeFolder.Scan scan = ThemeFolder.scan(folder, state.registry().reserved());
        synchronized (this) {
            if (ticket > appliedScan) {
                appliedScan = ticket;
                swap(state.registry().withLocals(scan), reason);
            }
            return state;
        }
    }

    synchronized void moduleAdded(ModuleThemes m) {
        List<ModuleThemes> next = new ArrayList<>(state.registry().modules());
        next.removeIf(x -> x.bundleId() == m.bundleId());
        next.add(m);
        next.sort((a, b) -> Long.compare(a.bundleId(), b.bundleId()));
        swap(state.registry().withModules(next), "module");
    }

    synchronized void moduleRemoved(long bundleId) {
        List<ModuleThemes> next = new ArrayList<>(state.registry().modules());
        if (next.removeIf(x -> x.bundleId() == bundleId)) {
            swap(state.registry().withModules(next), "module");
        }
    }

    synchronized void configured(String id, String reason) {
        swap(state.registry().withConfigured(id), reason);
    }

    private void swap(Registry next, String reason) {
        State before = state;
        State after = State.of(next);
        state = after;
        boolean moved = !Objects.equals(before.registry().configured(), after.registry().configured())
                || !before.active().id().equals(after.active().id())
                || !Objects.equals(before.active().theme(), after.active().theme());
        EventBus b = bus.get();
        if (moved && b != null) {
            ObjectNode data = JsonNodeFactory.instance.objectNode();
            data.put("configured", after.registry().configured());
            data.put("active", after.active().id());
            data.put("selected_available", after.selectedAvailable());
            data.put("reason", reason);
            b.publish(CHANGED, data);
        }
    }

    /** The built-in themes listed in the bundle's index, in its order; a broken one is a problem. */
    static List<Registry.Entry> builtins(ClassLoader loader, List<Registry.Problem> problems) {
        List<Registry.Entry> out = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (InputStream in = loader.getResourceAsStream(BUILTIN + "index.txt")) {
            if (in == null) {
                problems.add(new Registry.Problem(BUILTIN + "index.txt", null, "missing from the bundle"));
                return out;
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null;) {
                line = line.strip();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    names.add(line);
                }
            }
        } catch (IOException e) {
            problems.add(new Registry.Problem(BUILTIN + "index.txt", null, e.toString()));
        }
        for (String name : names) {
            try (InputStream in = loader.getResourceAsStream(BUILTIN + name)) {
                if (in == null) {
                    problems.add(new Registry.Problem(name, null, "listed in index.txt but missing"));
                    continue;
                }
                Theme t = ThemeFormat.parse(in.readNBytes(ThemeFormat.MAX_BYTES + 1));
                if (out.stream().anyMatch(e -> e.id().equals(t.id()))) {
                    problems.add(new Registry.Problem(name, null, "id '" + t.id() + "' appears twice"));
                    continue;
                }
                out.add(new Registry.Entry(t, "builtin", null, null));
            } catch (ThemeFormat.Invalid | IOException e) {
                problems.add(new Registry.Problem(name, null, e.getMessage()));
            }
        }
        return out;
    }

    /** The id a config table holds. */
    static String idOf(JsonNode values) {
        return values.path("id").asText(Registry.FALLBACK);
    }
}

package io.artuditu.themes.internal;

import io.artuditu.themes.Theme;
import io.artuditu.themes.ThemeFolder;
import io.artuditu.themes.ThemeFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One complete, validated registry: the built-ins (in their index's order), the home folder's
 * themes, the running modules' themes, what was left out and why, and the configured id.
 * Immutable; the family replaces it whole (one writer, {@link Themes}). An id belongs to the
 * first of: the built-ins, the home folder, the modules in bundle order; a later claim is a
 * problem. The configured id may name nothing: then {@link #active()} is the fallback.
 */
record Registry(List<Entry> builtins, List<ThemeFolder.Loaded> locals, List<ThemeFolder.Problem> localProblems,
        List<ModuleThemes> modules, String configured) {

    /** The id shown when the configured theme is missing. */
    static final String FALLBACK = "default";
    /** At most this many module themes in all (each module ships at most {@link ModuleThemes#MAX_FILES}). */
    static final int MAX_MODULE_THEMES = 256;

    /** A listed theme. {@code theme} is null for the virtual terminal theme. */
    record Entry(Theme theme, String source, Path path, String module) {
        String id() {
            return theme == null ? ThemeFormat.TERMINAL : theme.id();
        }
    }

    /** A file left out: {@code module} is null for the home folder and the built-ins. */
    record Problem(String file, String module, String message) {
    }

    /** The listing: built-ins, installed by id, terminal last; and the problems. */
    record Listing(List<Entry> entries, List<Problem> problems, Map<String, Entry> byId) {
    }

    Registry withLocals(ThemeFolder.Scan scan) {
        return new Registry(builtins, scan.themes(), scan.problems(), modules, configured);
    }

    Registry withModules(List<ModuleThemes> next) {
        return new Registry(builtins, locals, localProblems, List.copyOf(next), configured);
    }

    Registry withConfigured(String id) {
        return new Registry(builtins, locals, localProblems, modules, id);
    }

    /** The built-ins' ids and where they come from: what no local file may claim. */
    Map<String, String> reserved() {
        Map<String, String> r = new LinkedHashMap<>();
        for (Entry e : builtins) {
            r.put(e.id(), "the built-in theme " + e.id());
        }
        r.put(ThemeFormat.TERMINAL, "the virtual terminal theme");
        return r;
    }

    Listing listing() {
        List<Problem> problems = new ArrayList<>();
        for (ThemeFolder.Problem p : localProblems) {
            problems.add(new Problem(p.file().toString(), null, p.message()));
        }
        Map<String, Entry> byId = new HashMap<>();
        List<Entry> entries = new ArrayList<>(builtins);
        for (Entry e : builtins) {
            byId.put(e.id(), e);
        }
        List<Entry> installed = new ArrayList<>();
        for (ThemeFolder.Loaded l : locals) {
            Entry e = new Entry(l.theme(), "local", l.file(), null);
            byId.put(e.id(), e);
            installed.add(e);
        }
        int moduleThemes = 0;
        for (ModuleThemes m : modules) {
            for (ModuleThemes.Problem p : m.problems()) {
                problems.add(new Problem(p.file(), m.module(), p.message()));
            }
            for (ModuleThemes.File f : m.themes()) {
                String id = f.theme().id();
                Entry holder = byId.get(id);
                if (holder != null || id.equals(ThemeFormat.TERMINAL)) {
                    problems.add(new Problem(f.file(), m.module(), "id '" + id + "' is already used by "
                            + (holder == null ? "the virtual terminal theme" : describe(holder))));
                    continue;
                }
                if (++moduleThemes > MAX_MODULE_THEMES) {
                    problems.add(new Problem(f.file(), m.module(),
                            "more than " + MAX_MODULE_THEMES + " module themes in all; left out"));
                    continue;
                }
                Entry e = new Entry(f.theme(), "module", null, m.module());
                byId.put(id, e);
                installed.add(e);
            }
        }
        installed.sort(Comparator.comparing(Entry::id));
        entries.addAll(installed);
        Entry terminal = new Entry(null, "terminal", null, null);
        entries.add(terminal);
        byId.put(terminal.id(), terminal);
        return new Listing(List.copyOf(entries), List.copyOf(problems), Map.copyOf(byId));
    }

    private static String describe(Entry e) {
        return switch (e.source()) {
            case "builtin" -> "the built-in theme " + e.id();
            case "local" -> e.path().getFileName().toString();
            default -> "the module " + e.module();
        };
    }

    /** The entry that colours the workbench: the configured one, else the fallback, else terminal. */
    static Entry active(Listing l, String configured) {
        Entry e = l.byId().get(configured);
        if (e == null) {
            e = l.byId().get(FALLBACK);
        }
        return e != null ? e : l.byId().get(ThemeFormat.TERMINAL);
    }
}

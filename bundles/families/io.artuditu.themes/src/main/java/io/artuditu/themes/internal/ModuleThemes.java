package io.artuditu.themes.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.themes.Theme;
import io.artuditu.themes.ThemeFormat;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.osgi.framework.Bundle;

/**
 * The themes one bundle module ships: the files {@code META-INF/artuditu/themes/*.toml} of a
 * bundle that carries {@code META-INF/artuditu/module.toml}, checked like any theme file, at
 * most {@link #MAX_FILES} of them. They are listed while the bundle is active, which for a
 * module means linked and enabled (disabling a bundle module stops its bundle).
 */
record ModuleThemes(String module, long bundleId, List<File> themes, List<Problem> problems) {
    static final String MANIFEST = "META-INF/artuditu/module.toml";
    static final String FOLDER = "META-INF/artuditu/themes";
    static final int MAX_FILES = 16;
    private static final TomlMapper TOML = new TomlMapper();

    record File(String file, Theme theme) {
    }

    record Problem(String file, String message) {
    }

    /** The module's themes, or null when the bundle is not a module or ships none. */
    static ModuleThemes read(Bundle b) {
        URL manifest = b.getEntry(MANIFEST);
        Enumeration<URL> found = b.findEntries(FOLDER, "*.toml", false);
        if (manifest == null || found == null) {
            return null;
        }
        String module = moduleId(manifest, b);
        List<URL> urls = Collections.list(found);
        urls.sort((x, y) -> x.getPath().compareTo(y.getPath()));
        List<File> themes = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            URL u = urls.get(i);
            String where = b.getSymbolicName() + "!" + u.getPath();
            if (i >= MAX_FILES) {
                problems.add(new Problem(where, "a module ships at most " + MAX_FILES + " themes; left out"));
                continue;
            }
            try (InputStream in = u.openStream()) {
                Theme t = ThemeFormat.parse(in.readNBytes(ThemeFormat.MAX_BYTES + 1));
                if (themes.stream().anyMatch(f -> f.theme().id().equals(t.id()))) {
                    problems.add(new Problem(where, "id '" + t.id() + "' appears twice in this module"));
                    continue;
                }
                themes.add(new File(where, t));
            } catch (ThemeFormat.Invalid e) {
                problems.add(new Problem(where, e.getMessage()));
            } catch (IOException e) {
                problems.add(new Problem(where, "cannot read: " + e.getMessage()));
            }
        }
        return new ModuleThemes(module, b.getBundleId(), themes, problems);
    }

    /** The manifest's id, or the bundle's symbolic name when the manifest cannot say. */
    private static String moduleId(URL manifest, Bundle b) {
        try (InputStream in = manifest.openStream()) {
            byte[] bytes = in.readNBytes(ThemeFormat.MAX_BYTES + 1);
            if (bytes.length <= ThemeFormat.MAX_BYTES) {
                JsonNode id = TOML.readTree(new String(bytes, StandardCharsets.UTF_8)).get("id");
                if (id != null && id.isTextual()) {
                    return id.asText();
                }
            }
        } catch (IOException | RuntimeException e) {
            // the modules bundle reports a broken manifest; the theme keeps the bundle's name
        }
        return b.getSymbolicName();
    }
}

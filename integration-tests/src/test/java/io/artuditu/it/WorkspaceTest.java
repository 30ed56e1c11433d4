package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The workspace rules, read off what the build produced: every bundle's manifest went
 * through the root bnd.bnd and the cnf/ext fragments; folder = artifactId =
 * Bundle-SymbolicName = root package; every exported package is versioned.
 */
class WorkspaceTest {
    /** Every bundle folder the reactor builds: the root pom's active module lines with a bnd.bnd. */
    private static List<Path> bundleFolders() throws IOException {
        List<Path> out = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\\s*<module>((?:bundles|modules-sdk)/[^<]+)</module>")
                .matcher(Files.readString(Cli.ROOT.resolve("pom.xml")));
        while (m.find()) {
            Path folder = Cli.ROOT.resolve(m.group(1));
            if (Files.exists(folder.resolve("bnd.bnd"))) {
                out.add(folder);
            }
        }
        return out;
    }

    private static Path jarOf(Path folder) throws IOException {
        String name = folder.getFileName().toString();
        try (Stream<Path> s = Files.list(folder.resolve("target"))) {
            return s.filter(p -> p.getFileName().toString().matches(java.util.regex.Pattern.quote(name) + "-[0-9].*\\.jar"))
                    .findFirst().orElseThrow(() -> new AssertionError("no jar built for " + name));
        }
    }

    @Test
    void everyBundleCarriesTheWorkspaceHeadersAndIsNamedAfterItsFolder() throws Exception {
        List<Path> folders = bundleFolders();
        assertTrue(folders.size() >= 6, "found the bundles: " + folders);
        for (Path folder : folders) {
            String name = folder.getFileName().toString();
            try (JarFile jar = new JarFile(jarOf(folder).toFile())) {
                Attributes a = jar.getManifest().getMainAttributes();
                assertEquals("workspace", a.getValue("Artuditu-Build"), name + ": cnf/ext/identity.bnd applied");
                assertEquals("Artuditu", a.getValue("Bundle-Vendor"), name);
                assertEquals(name, a.getValue("Bundle-SymbolicName"), name + ": folder = Bundle-SymbolicName");
                assertTrue(Files.readString(folder.resolve("pom.xml")).contains("<artifactId>" + name + "</artifactId>"),
                        name + ": folder = artifactId");
                assertTrue(jar.stream().anyMatch(e -> e.getName().startsWith(name.replace('.', '/') + "/")),
                        name + ": classes live under the root package " + name);
                assertFalse(jar.stream().anyMatch(e -> e.getName().startsWith("META-INF/versions/")),
                        name + ": no multi-release leftovers");
                String exports = a.getValue("Export-Package");
                if (exports != null) {
                    for (String clause : clauses(exports)) {
                        assertTrue(clause.contains("version="), name + " exports an unversioned package: " + clause);
                        assertFalse(clause.contains(".internal"), name + " exports an internal package: " + clause);
                    }
                }
            }
        }
    }

    /** Splits a manifest header into clauses at commas outside quoted values. */
    static List<String> clauses(String header) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : header.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    @Test
    void apiPackagesAreVersionedInPackageInfo() throws Exception {
        Path api = Cli.ROOT.resolve("bundles/api/io.artuditu.uhp.api/src/main/java/io/artuditu/uhp/api");
        try (Stream<Path> s = Files.walk(api)) {
            // Every API package (a folder holding Java sources) carries its own package-info.
            List<Path> packages = s.filter(p -> p.toString().endsWith(".java")).map(Path::getParent).distinct().toList();
            List<Path> infos = packages.stream().map(d -> d.resolve("package-info.java")).toList();
            assertTrue(infos.size() >= 4, infos.toString());
            for (Path p : infos) {
                String text = Files.readString(p);
                assertTrue(text.contains("@Export") && text.contains("@Version("), p.toString());
            }
        }
    }
}

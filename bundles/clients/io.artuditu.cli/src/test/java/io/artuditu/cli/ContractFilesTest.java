package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.schema.MethodContract;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator of the files the build writes from the contract ({@link ContractFiles}),
 * run on this class path, which holds every core and family bundle as the build's run does:
 * every method of the contract is in the command index, the command reference and the scope
 * table, the jar carries exactly what the generator makes of these bundles, and a family
 * whose bundle joins the class path is in every file with nothing else changed.
 */
class ContractFilesTest {
    static final ContractFiles.Output BUILT = ContractFiles.render(ContractFilesTest.class.getClassLoader());

    @Test
    void theJarCarriesWhatTheGeneratorMakesOfTheseBundles() throws IOException {
        assertEquals(BUILT.index(), Commands.index().substring(1), ContractFiles.INDEX);
        assertEquals(BUILT.contractJson(), resource(ContractFiles.CONTRACT), ContractFiles.CONTRACT);
        assertEquals(BUILT.reference(), Contract.page(ContractFiles.REFERENCE), ContractFiles.REFERENCE);
        assertEquals(BUILT.scopes(), Contract.page(ContractFiles.SCOPES), ContractFiles.SCOPES);
    }

    @Test
    void theContractOfTheCoreAndTheFamiliesIsWholeAndWithoutProblems() {
        assertEquals(List.of(), BUILT.contract().problems());
        for (String m : new String[] {"ping", "config.get", "events.subscribe", "server.bundle.list", "uhp.token.create",
                "terminal.backend.capture", "pane.run", "attach.pane", "pane.split", "workspace.list", "session.snapshot",
                "ui.bar.push", "module.list", "agent.list", "theme.list"}) {
            assertTrue(BUILT.contract().describes(m), "the contract on the class path describes " + m);
        }
    }

    @Test
    void everyMethodHasAnIndexEntryAReferenceRowAndAScopeRow() {
        String idx = "\n" + BUILT.index();
        List<String> missing = new ArrayList<>();
        for (MethodContract m : BUILT.contract().methods().values()) {
            Command c = Commands.command(idx, m.name());
            if (c == null) {
                missing.add(m.name() + ": no index entry");
                continue;
            }
            JsonNode params = BUILT.contract().document().at("/methods/" + m.name() + "/params");
            List<String> names = new ArrayList<>();
            params.path("properties").fieldNames().forEachRemaining(names::add);
            assertEquals(names, new ArrayList<>(c.params.keySet()), m.name() + ": the index keeps every param");
            List<String> required = new ArrayList<>();
            params.path("required").forEach(r -> required.add(r.asText()));
            assertEquals(required, c.required, m.name() + ": the index keeps what is required");
            String row = "| `" + Help.usageLine(c, Command.words(m.name())).replace("|", "\\|") + "` | `" + m.name() + "` | ";
            if (!BUILT.reference().contains("\n" + row)) {
                missing.add(m.name() + ": no reference row " + row);
            }
            String scope = "| `" + m.name() + "` | " + m.family() + " | `" + m.scope().wire() + "` | `io.artuditu.";
            if (!BUILT.scopes().contains("\n" + scope)) {
                missing.add(m.name() + ": no scope row " + scope);
            }
        }
        assertEquals(List.of(), missing);
        int methods = BUILT.contract().methods().size();
        assertEquals(methods, rows(BUILT.reference()), "one reference row per method");
        assertEquals(methods, rows(BUILT.scopes()), "one scope row per method");
    }

    @Test
    void everyAliasOfTheContractIsACommandAndListed() {
        String idx = "\n" + BUILT.index();
        int aliases = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = BUILT.contract().document().path("methods").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> m = it.next();
            for (Iterator<String> a = m.getValue().path("cli").path("aliases").fieldNames(); a.hasNext();) {
                String path = a.next();
                Command c = Commands.command(idx, path.replace(' ', '.').replace('-', '_'));
                assertNotNull(c, "alias " + path);
                assertEquals(m.getKey(), c.method, "alias " + path);
                assertTrue(BUILT.reference().contains("\n- `artu " + path + "` → `" + m.getKey() + "`"), "alias " + path);
                aliases++;
            }
        }
        assertTrue(aliases > 5, aliases + " aliases");
    }

    @Test
    void aFamilyWhoseBundleJoinsTheClassPathIsInEveryFile(@TempDir Path bundle) throws IOException {
        greet(bundle);
        ContractFiles.Output o;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {bundle.toUri().toURL()}, getClass().getClassLoader())) {
            o = ContractFiles.render(loader);
        }
        assertEquals(List.of(), o.contract().problems());
        assertEquals(BUILT.contract().methods().size() + 1, o.contract().methods().size());
        Command hello = Commands.command("\n" + o.index(), "greet.hello");
        assertNotNull(hello, o.index());
        assertEquals(List.of("name"), hello.positionals);
        assertEquals("greet.hello", Commands.command("\n" + o.index(), "hi").method);
        assertTrue(o.reference().contains("\n| `artu greet hello NAME [--loud]` | `greet.hello` | Says hello. |\n"), o.reference());
        assertTrue(o.reference().contains("\n- `artu hi` → `greet.hello`\n"), o.reference());
        assertTrue(o.scopes().contains("\n| `greet.hello` | greet | `read` | `org.example.greet` |\n"), o.scopes());
        assertTrue(o.contractJson().contains("\"greet.hello\":{\"family\":\"greet\""), "the assembled contract has it");
        assertFalse(BUILT.index().contains("greet.hello"), "and the build's own files do not");
    }

    @Test
    void aBundleTwiceOnTheClassPathIsReadOnce(@TempDir Path dir) throws IOException {
        // as when a jar is named on the class path and again by another jar's Class-Path
        greet(dir.resolve("a"));
        greet(dir.resolve("b"));
        URL[] twice = {dir.resolve("a").toUri().toURL(), dir.resolve("b").toUri().toURL()};
        try (URLClassLoader loader = new URLClassLoader(twice, getClass().getClassLoader())) {
            ContractFiles.Output o = ContractFiles.render(loader);
            assertEquals(List.of(), o.contract().problems());
            assertEquals(BUILT.contract().methods().size() + 1, o.contract().methods().size());
        }
    }

    @Test
    void aRowTheLoaderRefusesIsAProblemOfTheContract(@TempDir Path bundle) throws IOException {
        Files.createDirectories(bundle.resolve("META-INF"));
        Files.writeString(bundle.resolve("META-INF/MANIFEST.MF"), "Manifest-Version: 1.0\n"
                + "Bundle-SymbolicName: org.example.bad\nArtuditu-Contract: bad.json\n", StandardCharsets.UTF_8);
        Files.writeString(bundle.resolve("bad.json"), "{\"family\":\"bad\",\"methods\":{\"bad.row\":{\"scope\":\"nobody\","
                + "\"params\":{\"type\":\"object\"},\"result\":{\"type\":\"object\"}}}}", StandardCharsets.UTF_8);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {bundle.toUri().toURL()}, getClass().getClassLoader())) {
            ContractFiles.Output o = ContractFiles.render(loader);
            assertEquals(1, o.contract().problems().size(), o.contract().problems().toString());
            assertFalse(o.contract().describes("bad.row"));
        }
    }

    /** A bundle as the generator sees one: a manifest naming its contract file, and the file. */
    private static void greet(Path bundle) throws IOException {
        Files.createDirectories(bundle.resolve("META-INF"));
        Files.writeString(bundle.resolve("META-INF/MANIFEST.MF"), "Manifest-Version: 1.0\n"
                + "Bundle-SymbolicName: org.example.greet;singleton:=true\n"
                + "Artuditu-Contract: protocol/greet.json\n", StandardCharsets.UTF_8);
        Files.createDirectories(bundle.resolve("protocol"));
        Files.writeString(bundle.resolve("protocol/greet.json"), "{\"family\":\"greet\",\"methods\":{\"greet.hello\":{"
                + "\"scope\":\"read\",\"description\":\"Says hello. Nothing more.\","
                + "\"params\":{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"name\"],"
                + "\"properties\":{\"name\":{\"type\":\"string\"},\"loud\":{\"type\":\"boolean\"}}},"
                + "\"result\":{\"type\":\"object\"},\"cli\":{\"positionals\":[\"name\"],\"aliases\":{\"hi\":{}}}}}}",
                StandardCharsets.UTF_8);
    }

    /** The rows of a generated page's table (lines starting with a backquoted first cell). */
    private static int rows(String page) {
        int n = 0;
        for (String line : page.split("\n")) {
            n += line.startsWith("| `") ? 1 : 0;
        }
        return n;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ContractFiles.class.getResourceAsStream(name)) {
            assertNotNull(in, name + " is in the CLI's classes");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

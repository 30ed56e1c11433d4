package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.MethodContract;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A family bundle needs no file outside itself. The example {@code io.artuditu.example.echo} is
 * built like a built-in family (contract files named by its {@code Artuditu-Contract} header)
 * and is listed nowhere the build or the CLI reads: given its jar beside the runtime's bundles,
 * the generator the CLI's build runs ({@code io.artuditu.cli.ContractFiles}, from the CLI jar
 * the distribution ships) puts its methods in the command index, the command reference and
 * the scope table; dropped into a running server's {@code <home>/bundles/}, it is served, and
 * the CLI lists it, explains it and calls it.
 */
class NewFamilyTest {
    static final Path ECHO = Reactor.jar("io.artuditu.example.echo");
    static final Path CLI_JAR = Reactor.ROOT.resolve("distribution/target/artuditu/lib/io.artuditu.cli.jar");

    @TempDir
    Path dir;

    @Test
    void theGeneratorPutsAFamilyInEveryFileWhenItsJarIsAmongTheInputs() throws Exception {
        List<MethodContract> echo = methods(ECHO);
        assertEquals(List.of("example.echo", "example.publish"), echo.stream().map(MethodContract::name).toList());

        Path without = generate(dir.resolve("without"), RuntimeBundles.withContract());
        List<Path> inputs = new ArrayList<>(RuntimeBundles.withContract());
        inputs.add(ECHO);
        Path with = generate(dir.resolve("with"), inputs);

        String index = read(with, "commands.idx");
        String reference = read(with, "commands.md");
        String scopes = read(with, "scopes.md");
        for (MethodContract m : echo) {
            assertFalse(read(without, "commands.idx").contains("\n" + m.name() + "\t"), "only the input makes the difference");
            assertTrue(index.contains("\n" + m.name() + "\t{"), m.name() + " has a command index entry:\n" + index);
            assertTrue(reference.contains("` | `" + m.name() + "` | "), m.name() + " has a reference row");
            assertTrue(scopes.contains("\n| `" + m.name() + "` | example | `" + m.scope().wire() + "` | `io.artuditu.example.echo` |\n"),
                    m.name() + " has a scope row:\n" + scopes);
        }
        assertTrue(reference.contains("\n| `artu example echo --text VALUE [--upper]` | `example.echo` | "), reference);
        JsonNode contract = Wire.M.readTree(read(with, "contract.json"));
        assertEquals("example", contract.at("/methods/example.echo/family").asText());
        assertEquals(Installed.CONTRACT.methods().size() + echo.size(), contract.path("methods").size(),
                "the runtime's methods and the new family's, nothing lost");
        assertEquals(lines(read(without, "commands.idx")) + echo.size(), lines(index));
    }

    @Test
    void droppedIntoARunningServerItIsServedAndTheCliListsExplainsAndCallsIt() throws Exception {
        try (ForegroundServer s = new ForegroundServer(dir)) {
            Cli.Result before = Cli.run(s.env, "--help");
            assertEquals(0, before.status(), before.err());
            assertFalse(before.out().contains("From the running server"), before.out());

            Path dropIn = dir.resolve("bundles");
            Path part = dropIn.resolve("echo.jar.part");
            Files.copy(ECHO, part);
            Files.move(part, dropIn.resolve("echo.jar"), StandardCopyOption.ATOMIC_MOVE);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!served(s, "example.echo")) {
                assertTrue(System.nanoTime() < deadline, "the dropped-in family is served within 20 s:\n" + s.log());
                Thread.sleep(50);
            }
            JsonNode caps = Wire.call(s.socket, "uhp.capabilities", "{}").get("result");
            assertEquals("[]", caps.get("failures").toString(), "its whole contract is served");

            Cli.Result help = Cli.run(s.env, "--help");
            assertEquals(0, help.status(), help.err());
            assertTrue(help.out().contains("\nFrom the running server: example\n"), help.out());
            Cli.Result verbs = Cli.run(s.env, "example");
            assertEquals(2, verbs.status(), verbs.err());
            assertTrue(verbs.err().contains("example needs a verb (echo, publish)"), verbs.err());
            Cli.Result usage = Cli.run(s.env, "example", "echo", "--help");
            assertEquals(0, usage.status(), usage.err());
            assertTrue(usage.out().startsWith("usage: artu example echo --text VALUE [--upper]"), usage.out());
            assertTrue(usage.out().contains("from the running server's bundle io.artuditu.example.echo"), usage.out());
            Cli.Result echo = Cli.run(s.env, "example", "echo", "--text", "hi", "--upper");
            assertEquals(0, echo.status(), echo.err());
            assertEquals("{\"type\":\"echo\",\"text\":\"HI\"}", echo.out().trim());
        }
    }

    private static boolean served(ForegroundServer s, String method) throws IOException {
        for (JsonNode m : Wire.call(s.socket, "uhp.capabilities", "{}").at("/result/methods")) {
            if (m.get("name").asText().equals(method)) {
                return true;
            }
        }
        return false;
    }

    /** Runs the CLI jar's generator with exactly {@code bundles} beside it; returns the folder it wrote. */
    private static Path generate(Path out, List<Path> bundles) throws IOException, InterruptedException {
        StringBuilder cp = new StringBuilder(CLI_JAR.toString());
        for (Path b : bundles) {
            cp.append(File.pathSeparatorChar).append(b);
        }
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp.toString(),
                "io.artuditu.cli.ContractFiles", out.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the generator finishes");
        assertEquals(0, p.exitValue(), log);
        return out;
    }

    /** The methods a bundle's own contract files describe, read from its jar. */
    private static List<MethodContract> methods(Path bundle) throws IOException {
        List<MethodContract> out = new ArrayList<>();
        try (JarFile jar = new JarFile(bundle.toFile())) {
            for (String file : jar.getManifest().getMainAttributes().getValue(FamilyContract.HEADER).split(",")) {
                try (InputStream in = jar.getInputStream(jar.getEntry(file.trim()))) {
                    out.addAll(FamilyContract.read(file.trim(), in).methods().values());
                }
            }
        }
        return out;
    }

    private static String read(Path folder, String name) throws IOException {
        return Files.readString(folder.resolve(name), StandardCharsets.UTF_8);
    }

    private static int lines(String text) {
        return text.split("\n").length;
    }
}

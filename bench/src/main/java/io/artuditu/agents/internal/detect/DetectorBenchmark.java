package io.artuditu.agents.internal.detect;

import io.artuditu.vt.Terminal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The screen detector's work per evaluation: {@link ScreenRules#evaluate} of each agent's
 * manifest on every real screen of the corpus ({@code bundles/families/io.artuditu.agents/
 * src/test/resources/agents/screens}, drawn once in real terminals at setup), one op being
 * all of them, so the score divided by the screen count is the mean cost of one evaluation.
 * What an evaluation costs is what the detector spends per MB of output, times the
 * evaluations a MB causes (bounded by the agents loop's coalescing, which this does not
 * change).
 *
 * <p>{@code rules}: {@code builtin}, the manifests as built; or a git revision, whose
 * {@code agents/builtin/*.toml} are read with {@code git show} and loaded as the user layer
 * over the built-ins (so before and after run the same code on the same screens). Run in the
 * checkout:
 *
 * <pre>java -jar bench/target/benchmarks.jar DetectorBenchmark -p rules=builtin,cb5ac2f</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseSerialGC"})
public class DetectorBenchmark {
    static final String AGENTS = "bundles/families/io.artuditu.agents";
    static final String BUILTIN = AGENTS + "/src/main/resources/agents/builtin";
    /** The corpus, found from the working directory up (bench/run may run from anywhere in the checkout). */
    static final Path SCREENS = repository().resolve(AGENTS + "/src/test/resources/agents/screens");

    private static Path repository() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve(AGENTS))) {
                return p;
            }
        }
        return Path.of("");
    }

    @Param({"builtin"})
    public String rules;

    private final List<Terminal> terminals = new ArrayList<>();
    private final List<AgentManifest> manifests = new ArrayList<>();

    @Setup
    public void setUp() throws Exception {
        ManifestSet set = rules.equals("builtin") ? ManifestSet.load(null, null) : ManifestSet.load(null, older(rules));
        if (!set.problems().isEmpty()) {
            throw new IllegalStateException("manifests refused: " + set.problems());
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(SCREENS, 2)) {
            files = s.filter(p -> p.toString().endsWith(".screen")).sorted(Comparator.naturalOrder()).toList();
        }
        for (Path f : files) {
            String agent = f.getParent().getFileName().toString();
            AgentManifest m = set.get(agent).orElse(null);
            if (m != null) {
                terminals.add(draw(Files.readString(f, StandardCharsets.UTF_8)));
                manifests.add(m);
            }
        }
        if (terminals.isEmpty()) {
            throw new IllegalStateException("no screens under " + SCREENS.toAbsolutePath() + ": run from the repository");
        }
        System.out.println("\nscreens=" + terminals.size());
    }

    /** The manifests of git revision {@code rev}, in a temporary folder (the user layer). */
    private static Path older(String rev) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("detector-bench-");
        for (String name : List.of("aider", "claude", "codex", "gemini", "goose", "opencode")) {
            Process p = new ProcessBuilder("git", "show", rev + ":" + BUILTIN + "/" + name + ".toml")
                    .directory(repository().toFile()).redirectOutput(dir.resolve(name + ".toml").toFile()).start();
            if (p.waitFor() != 0) {
                throw new IOException("git show " + rev + " failed for " + name);
            }
        }
        return dir;
    }

    /** A screen file drawn as the accuracy test draws it (its README's format). */
    static Terminal draw(String file) {
        int cut = file.indexOf("\n---\n");
        int cols = 80;
        int rows = 24;
        boolean alt = false;
        String resize = null;
        for (String line : file.substring(0, cut).split("\n")) {
            if (line.startsWith("size ")) {
                String[] w = line.split(" ");
                cols = Integer.parseInt(w[1]);
                rows = Integer.parseInt(w[2]);
            } else if (line.equals("screen alt")) {
                alt = true;
            } else if (line.startsWith("resize ")) {
                resize = line.substring(7);
            }
        }
        String body = file.substring(cut + 5).replaceFirst("\n$", "");
        Terminal t = Terminal.create(cols, rows);
        t.feed(((alt ? "\033[?1049h\033[H" : "") + body.replace("\n", "\r\n")).getBytes(StandardCharsets.UTF_8));
        if (resize != null) {
            String[] w = resize.split(" ");
            t.resize(Integer.parseInt(w[0]), Integer.parseInt(w[1]));
        }
        return t;
    }

    /** Every screen evaluated once against its agent's manifest; the rows read, so nothing is optimised away. */
    @Benchmark
    public long evaluateEveryScreen() {
        long rows = 0;
        for (int i = 0; i < terminals.size(); i++) {
            Terminal t = terminals.get(i);
            rows += ScreenRules.evaluate(manifests.get(i), t, t.revision()).rowsRead();
        }
        return rows;
    }
}

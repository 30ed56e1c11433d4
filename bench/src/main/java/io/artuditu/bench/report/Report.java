package io.artuditu.bench.report;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark suite's report: reads one {@code suite.json} (bench/suite/FORMAT.md) and writes a
 * markdown page with PNG charts drawn by JFreeChart.
 *
 * <pre>
 * java -Djava.awt.headless=true -cp bench/target/benchmarks.jar io.artuditu.bench.report.Report \
 *     SUITE_JSON OUT_MD PNG_DIR [--findings FILE] [--link-root DIR]
 * </pre>
 *
 * <ul>
 * <li>SUITE_JSON: the results file, e.g. bench/results/&lt;stamp&gt;-suite/suite.json.</li>
 * <li>OUT_MD: the page to write, normally docs/performance.md.</li>
 * <li>PNG_DIR: where the charts go, normally docs/performance/. Charts are named
 *     {@code bench-*.png}; any such file there that this run did not write is deleted.</li>
 * <li>--findings FILE: hand-written markdown appended verbatim at the end (skipped, with a
 *     warning, when the file does not exist).</li>
 * <li>--link-root DIR: the directory the page's relative links start from; default OUT_MD's parent.</li>
 * </ul>
 *
 * Every file is written to a temporary file in its own directory and then renamed over the old one,
 * so a reader never sees half a page. Exit status 2 on bad arguments, 1 when the suite cannot be read.
 */
public final class Report {
    static final String PREFIX = "bench-";

    private Report() {
    }

    public static void main(String[] args) throws IOException {
        List<String> positional = new ArrayList<>();
        Path findings = null;
        Path linkRoot = null;
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("--findings") || args[i].equals("--link-root")) && i + 1 < args.length) {
                Path p = Path.of(args[++i]);
                if (args[i - 1].equals("--findings")) {
                    findings = p;
                } else {
                    linkRoot = p;
                }
            } else if (args[i].startsWith("--")) {
                usage("unknown option " + args[i]);
            } else {
                positional.add(args[i]);
            }
        }
        if (positional.size() != 3) {
            usage("expected SUITE_JSON OUT_MD PNG_DIR");
        }
        Path suitePath = Path.of(positional.get(0));
        Path outMd = Path.of(positional.get(1)).toAbsolutePath().normalize();
        Path pngDir = Path.of(positional.get(2)).toAbsolutePath().normalize();
        linkRoot = (linkRoot != null ? linkRoot : outMd.getParent()).toAbsolutePath().normalize();

        JsonNode suite;
        try {
            suite = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build().readTree(suitePath.toFile());
        } catch (IOException e) {
            System.err.println("report: cannot read " + suitePath + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        List<Figure> figures = new ArrayList<>();
        Json.list(suite, "figures").forEach(f -> figures.add(Figure.of(f)));
        String findingsText = null;
        if (findings != null) {
            if (Files.isRegularFile(findings)) {
                findingsText = Files.readString(findings, StandardCharsets.UTF_8);
            } else {
                System.err.println("report: no findings file " + findings + "; the page goes without it");
            }
        }

        Files.createDirectories(pngDir);
        Set<Path> written = new HashSet<>();
        final Path root = linkRoot;
        String against = null;
        Charts.Png chart = Charts.againstTmux(figures);
        if (chart != null) {
            against = link(root, png(pngDir, "against-tmux", chart, written));
        }
        Map<Integer, String> distributions = new HashMap<>();
        Set<String> names = new HashSet<>();
        List<JsonNode> scenarios = Json.list(suite, "scenarios");
        for (int i = 0; i < scenarios.size(); i++) {
            JsonNode s = scenarios.get(i);
            String title = Json.text(s, "title") != null ? Json.text(s, "title") : Json.text(s, "id");
            Charts.Png d = Charts.distribution(title != null ? title : "scenario " + (i + 1), Samples.of(s));
            if (d != null) {
                String name = slug(Json.text(s, "id"), i);
                name = names.add(name) ? name : name + "-" + (i + 1);
                names.add(name);
                distributions.put(i, link(root, png(pngDir, name + "-samples", d, written)));
            }
        }

        String redraw = "java -Djava.awt.headless=true -cp bench/target/benchmarks.jar " + Report.class.getName()
                + " " + display(suitePath) + " " + display(outMd) + " " + display(pngDir)
                + (findings == null ? "" : " --findings " + display(findings))
                + (linkRoot.equals(outMd.getParent()) ? "" : " --link-root " + display(linkRoot));
        String page = new Page(suite, figures).render(display(suitePath), link(root, suitePath), redraw, against,
                distributions::get, findingsText);
        Files.createDirectories(outMd.getParent());
        write(outMd, page.getBytes(StandardCharsets.UTF_8));
        deleteStale(pngDir, written);
        System.out.println("report: wrote " + outMd + " and " + written.size() + " chart(s) in " + pngDir);
    }

    private static Path png(Path dir, String name, Charts.Png chart, Set<Path> written) throws IOException {
        Path file = dir.resolve(PREFIX + name + ".png");
        write(file, chart.bytes());
        written.add(file);
        return file;
    }

    /** Writes next to the target, then renames over it. */
    static void write(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                out.write(bytes);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Removes the charts of an earlier run (bench-*.png) that this one did not draw. */
    private static void deleteStale(Path dir, Set<Path> written) throws IOException {
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, PREFIX + "*.png")) {
            for (Path p : old) {
                if (!written.contains(p.toAbsolutePath().normalize())) {
                    Files.delete(p);
                    System.out.println("report: removed stale " + p);
                }
            }
        }
    }

    /** A relative link from the link root, with forward slashes and spaces escaped. */
    static String link(Path root, Path target) {
        String rel = root.relativize(target.toAbsolutePath().normalize()).toString().replace('\\', '/');
        return rel.replace(" ", "%20");
    }

    /** A path as the reader would type it: relative to the working directory when inside it. */
    private static String display(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath();
        String shown = abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs).toString() : abs.toString();
        return shown.contains(" ") ? "'" + shown + "'" : shown;
    }

    private static String slug(String id, int index) {
        String s = id == null ? "" : id.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]+", "-").replaceAll("^-+|-+$", "");
        return s.isEmpty() ? "scenario-" + (index + 1) : s;
    }

    private static void usage(String problem) {
        System.err.println("report: " + problem);
        System.err.println("usage: java -Djava.awt.headless=true -cp bench/target/benchmarks.jar " + Report.class.getName()
                + " SUITE_JSON OUT_MD PNG_DIR [--findings FILE] [--link-root DIR]");
        System.exit(2);
    }
}

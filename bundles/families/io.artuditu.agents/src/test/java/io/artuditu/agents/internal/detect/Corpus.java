package io.artuditu.agents.internal.detect;

import io.artuditu.pty.proc.ProcessEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The labelled corpus under {@code src/test/resources/agents/corpus/cases} (and the held-out
 * cases under {@code …/holdout}, the same format): one
 * {@code <agent>/<name>.case} (header and steps, one a line) per case, with the bytes its
 * {@code output N} steps consume, in order, in {@code <name>.bin}. Written by
 * {@code corpus/generate.py}; the format is {@code docs/agents/accuracy.md}'s.
 */
record Corpus(List<Case> cases) {
    /** One step: its verb, its argument, and the line it is on (for messages). */
    record Step(String verb, String arg, int line) {
    }

    /** One case: where it is, what runs in the pane, its first size and its steps. */
    record Case(String family, String name, String description, String agent, String kind, int cols, int rows,
            List<ProcessEntry> processes, List<Step> steps, byte[] output) {
        String id() {
            return family + "/" + name;
        }
    }

    /**
     * The cases in the source tree when the test runs in the module (so a case the generator
     * no longer writes, but an earlier build copied to the class path, is not replayed), else
     * from the class path.
     */
    static Corpus load(String folder) {
        try {
            Path dir = Path.of("src/test/resources/agents/corpus", folder);
            if (!Files.isDirectory(dir)) {
                URL root = Corpus.class.getClassLoader().getResource("agents/corpus/" + folder);
                if (root == null) {
                    throw new IllegalStateException("agents/corpus/" + folder + " is missing; run corpus/generate.py");
                }
                dir = Path.of(root.toURI());
            }
            List<Path> files;
            try (Stream<Path> s = Files.walk(dir)) {
                files = s.filter(p -> p.toString().endsWith(".case")).sorted().collect(Collectors.toList());
            }
            List<Case> cases = new ArrayList<>();
            for (Path f : files) {
                cases.add(read(f));
            }
            return new Corpus(cases);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Case read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String name = file.getFileName().toString().replaceFirst("\\.case$", "");
        String family = file.getParent().getFileName().toString();
        byte[] output = Files.readAllBytes(file.resolveSibling(name + ".bin"));
        String description = "";
        String agent = null;
        String kind = "";
        int cols = 80;
        int rows = 24;
        List<ProcessEntry> processes = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        long pid = 1000;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("# ")) {
                description = line.substring(2);
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            String[] w = line.split(" ", 2);
            String arg = w.length > 1 ? w[1] : "";
            switch (w[0]) {
                case "agent" -> agent = arg;
                case "kind" -> kind = arg;
                case "size" -> {
                    String[] cr = arg.split(" ");
                    cols = Integer.parseInt(cr[0]);
                    rows = Integer.parseInt(cr[1]);
                }
                case "process" -> {
                    String[] p = arg.split(" ");
                    int depth = Integer.parseInt(p[0]);
                    processes.add(new ProcessEntry(pid, depth == 0 ? 1 : pid - 1, p[1], depth, p.length > 2 ? p[2] : null));
                    pid++;
                }
                default -> steps.add(new Step(w[0], arg, i + 1));
            }
        }
        if (agent == null) {
            throw new IllegalArgumentException(file + ": no agent line");
        }
        return new Case(family, name, description, agent, kind, cols, rows, processes, steps, output);
    }
}

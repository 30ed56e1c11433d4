package io.artuditu.agents.internal.detect;

import io.artuditu.pty.proc.ProcessEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The corpus of real screens under {@code src/test/resources/agents/screens}: one
 * {@code <agent>/<name>.screen} per pane as a person saw it, each naming its public source;
 * each agent folder's {@code SOURCES.md} puts every source on one side of the split
 * ({@code tune} or {@code holdout}). The format is the folder's {@code README.md}.
 */
record ScreenCorpus(List<Screen> screens, Map<String, Source> sources) {
    static final Path DIR = Path.of("src/test/resources/agents/screens");

    /** One public source: its id, address and side of the split. */
    record Source(String id, String address, String side) {
    }

    /** One screen and its label. */
    record Screen(String agent, String name, String description, String state, String source, String kind, int cols,
            int rows, boolean alternate, int[] resize, int[] cursor, List<ProcessEntry> processes, String hook,
            String text) {
        String id() {
            return agent + "/" + name;
        }
    }

    private static final Pattern SOURCE = Pattern.compile(
            "^### `([a-z0-9][a-z0-9-]*)`(.*?)^side: (tune|holdout)\\s*$", Pattern.MULTILINE | Pattern.DOTALL);
    private static final Pattern ADDRESS = Pattern.compile("^address: (\\S+)", Pattern.MULTILINE);

    static ScreenCorpus load() {
        return load(true);
    }

    /** {@code strict}: a screen whose source no SOURCES.md lists is an error (else it is left out). */
    static ScreenCorpus load(boolean strict) {
        try {
            Map<String, Source> sources = new HashMap<>();
            List<Path> files;
            try (Stream<Path> s = Files.walk(DIR, 2)) {
                files = s.sorted().collect(Collectors.toList());
            }
            for (Path f : files) {
                if (f.getFileName().toString().equals("SOURCES.md")) {
                    Matcher m = SOURCE.matcher(Files.readString(f));
                    while (m.find()) {
                        Matcher a = ADDRESS.matcher(m.group(2));
                        sources.put(m.group(1), new Source(m.group(1), a.find() ? a.group(1) : "", m.group(3)));
                    }
                }
            }
            List<Screen> screens = new ArrayList<>();
            for (Path f : files) {
                if (f.toString().endsWith(".screen")) {
                    Screen s = read(f);
                    if (!sources.containsKey(s.source())) {
                        if (!strict) {
                            continue;
                        }
                        throw new IllegalArgumentException(f + ": source " + s.source() + " is in no SOURCES.md");
                    }
                    screens.add(s);
                }
            }
            return new ScreenCorpus(screens, sources);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String side(Screen s) {
        return sources.get(s.source()).side();
    }

    static Screen read(Path file) throws IOException {
        String all = Files.readString(file, StandardCharsets.UTF_8);
        int cut = all.indexOf("\n---\n");
        if (cut < 0) {
            throw new IllegalArgumentException(file + ": no --- line");
        }
        String body = all.substring(cut + 5);
        if (body.endsWith("\n")) {
            body = body.substring(0, body.length() - 1);
        }
        String name = file.getFileName().toString().replaceFirst("\\.screen$", "");
        String description = "";
        Map<String, String> h = new HashMap<>();
        List<ProcessEntry> processes = new ArrayList<>();
        long pid = 1000;
        for (String line : all.substring(0, cut).split("\n")) {
            if (line.startsWith("# ")) {
                description = line.substring(2);
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            String[] w = line.split(" ", 2);
            String arg = w.length > 1 ? w[1] : "";
            if (w[0].equals("process")) {
                String[] p = arg.split(" ");
                int depth = Integer.parseInt(p[0]);
                processes.add(new ProcessEntry(pid, depth == 0 ? 1 : pid - 1, p[1], depth, p.length > 2 ? p[2] : null));
                pid++;
            } else if (h.put(w[0], arg) != null) {
                throw new IllegalArgumentException(file + ": two " + w[0] + " lines");
            }
        }
        String agent = require(file, h, "agent");
        if (!agent.equals(file.getParent().getFileName().toString())) {
            throw new IllegalArgumentException(file + ": agent " + agent + " in another agent's folder");
        }
        if (processes.isEmpty()) {
            processes.add(new ProcessEntry(pid++, 1, "bash", 0, null));
            if (!agent.equals("none")) {
                processes.add(new ProcessEntry(pid, pid - 1, agent, 1, null));
            }
        }
        int[] size = pair(h.getOrDefault("size", "80 24"));
        return new Screen(agent, name, description, require(file, h, "state"), require(file, h, "source"),
                require(file, h, "kind"), size[0], size[1], "alt".equals(h.get("screen")),
                h.containsKey("resize") ? pair(h.get("resize")) : null,
                h.containsKey("cursor") ? pair(h.get("cursor")) : null, processes, h.get("hook"), body);
    }

    private static String require(Path file, Map<String, String> h, String key) {
        String v = h.get(key);
        if (v == null) {
            throw new IllegalArgumentException(file + ": no " + key + " line");
        }
        return v;
    }

    private static int[] pair(String s) {
        String[] p = s.trim().split(" +");
        return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1])};
    }
}

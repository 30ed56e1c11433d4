package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The detector's accuracy on the labelled corpus, with hook events and without: precision
 * and recall per state ({@code idle}, {@code working}, {@code blocked}, {@code done}, and
 * {@code none} for panes where no agent runs), each at least {@value #FLOOR} over the whole
 * corpus (the tuning cases and the held-out ones). Prints a table per set and writes
 * {@code target/accuracy.json}; {@code docs/agents/accuracy.md} has the method and figures.
 */
class AccuracyTest {
    static final double FLOOR = 0.98;
    static final List<String> STATES = List.of("idle", "working", "blocked", "done", "none");
    static final List<String> SETS = List.of("cases", "holdout");

    static Map<String, Corpus> corpora = new TreeMap<>();
    static ManifestSet manifests;

    @BeforeAll
    static void load() {
        for (String set : SETS) {
            corpora.put(set, Corpus.load(set));
        }
        manifests = ManifestSet.load(null, null);
        assertEquals(List.of(), manifests.problems());
    }

    /** Precision and recall of one state. */
    record Score(String state, int labelled, int predicted, int hits) {
        double precision() {
            return predicted == 0 ? (labelled == 0 ? 1 : 0) : (double) hits / predicted;
        }

        double recall() {
            return labelled == 0 ? 1 : (double) hits / labelled;
        }
    }

    static List<Replay.Result> results(List<Corpus.Case> cases, boolean hooks) {
        List<Replay.Result> all = new ArrayList<>();
        for (Corpus.Case c : cases) {
            all.addAll(Replay.run(c, manifests, hooks, false));
        }
        return all;
    }

    static List<Score> scores(List<Replay.Result> results) {
        List<Score> out = new ArrayList<>();
        for (String s : STATES) {
            int labelled = 0;
            int predicted = 0;
            int hits = 0;
            for (Replay.Result r : results) {
                labelled += r.expected().equals(s) ? 1 : 0;
                predicted += r.actual().equals(s) ? 1 : 0;
                hits += r.expected().equals(s) && r.hit() ? 1 : 0;
            }
            out.add(new Score(s, labelled, predicted, hits));
        }
        return out;
    }

    static String table(String title, List<Score> hooks, List<Score> screen, int nHooks, int nScreen, int cases) {
        StringBuilder t = new StringBuilder(title).append('\n');
        t.append(String.format("%-8s | %9s %9s %6s | %9s %9s %6s%n", "state", "hooks P", "hooks R", "n", "screen P",
                "screen R", "n"));
        for (int i = 0; i < STATES.size(); i++) {
            Score h = hooks.get(i);
            Score s = screen.get(i);
            t.append(String.format("%-8s | %9.4f %9.4f %6d | %9.4f %9.4f %6d%n", h.state(), h.precision(), h.recall(),
                    h.labelled(), s.precision(), s.recall(), s.labelled()));
        }
        t.append(String.format("checkpoints: %d with hooks, %d screen only; cases: %d%n", nHooks, nScreen, cases));
        return t.toString();
    }

    @Test
    void everyStateIsRecognisedWithAndWithoutHooks() throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        ObjectNode sets = root.putObject("sets");
        List<Corpus.Case> everything = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (String set : SETS) {
            everything.addAll(corpora.get(set).cases());
        }
        List<String> names = new ArrayList<>(SETS);
        names.add("all");
        List<Score> allHooks = null;
        List<Score> allScreen = null;
        String allTable = null;
        for (String set : names) {
            List<Corpus.Case> cases = set.equals("all") ? everything : corpora.get(set).cases();
            List<Replay.Result> withHooks = results(cases, true);
            List<Replay.Result> screenOnly = results(cases, false);
            List<Score> h = scores(withHooks);
            List<Score> s = scores(screenOnly);
            String t = table(set, h, s, withHooks.size(), screenOnly.size(), cases.size());
            report.append(t);
            ObjectNode node = sets.putObject(set);
            describe(node.putObject("corpus"), cases, withHooks, screenOnly);
            put(node.putObject("hooks"), h, withHooks);
            put(node.putObject("screen_only"), s, screenOnly);
            if (set.equals("all")) {
                allHooks = h;
                allScreen = s;
                allTable = t;
                for (Replay.Result r : withHooks) {
                    if (!r.hit()) {
                        report.append("miss (hooks)  ").append(describe(r)).append('\n');
                    }
                }
                for (Replay.Result r : screenOnly) {
                    if (!r.hit()) {
                        report.append("miss (screen) ").append(describe(r)).append('\n');
                    }
                }
            }
        }
        System.out.print(report);
        Path out = Path.of("target", "accuracy.json");
        Files.createDirectories(out.getParent());
        json.writeValue(out.toFile(), root);

        for (List<Score> mode : List.of(allHooks, allScreen)) {
            for (Score s : mode) {
                assertTrue(s.precision() >= FLOOR && s.recall() >= FLOOR,
                        "state " + s.state() + ": precision " + s.precision() + ", recall " + s.recall() + "\n" + allTable);
            }
        }
    }

    /** Where the real screens' tables live in the docs, between these two lines. */
    static final Path DOC = Path.of("../../../docs/agents/accuracy.md");
    static final String BEGIN = "<!-- real screens: generated by AccuracyTest, do not edit -->";
    static final String END = "<!-- end of real screens -->";
    /** The bars, on each side: recall of working and blocked, precision of every class, screens with no verdict. */
    static final double RECALL_BAR = 0.95;
    static final double PRECISION_BAR = 0.95;
    static final double NO_VERDICT_BAR = 0.02;

    /**
     * The real screens (each from a public source, split by source into a tuning side and a
     * held-out side): per side, each state class's precision and recall against the bars,
     * screen only and with hooks; the tables go to {@code target/accuracy-screens.md} and
     * must match the docs' ({@code -Daccuracy.write=true} rewrites them there).
     */
    @Test
    void realScreensMeetTheBarsOnEachSide() throws IOException {
        ScreenCorpus corpus = ScreenCorpus.load();
        StringBuilder md = new StringBuilder();
        StringBuilder misses = new StringBuilder();
        List<String> failures = new ArrayList<>();
        for (String side : List.of("tune", "holdout")) {
            List<ScreenCorpus.Screen> screens = corpus.screens().stream().filter(x -> corpus.side(x).equals(side)).toList();
            List<Replay.ScreenResult> screen = new ArrayList<>();
            List<Replay.ScreenResult> hooks = new ArrayList<>();
            for (ScreenCorpus.Screen x : screens) {
                screen.add(Replay.screen(x, manifests, false));
                hooks.add(Replay.screen(x, manifests, true));
            }
            md.append(ScreenScores.table(side.equals("tune") ? "Tuning side" : "Held-out side", screen, hooks));
            for (Replay.ScreenResult r : screen) {
                if (!ScreenScores.hit(r)) {
                    misses.append("miss (").append(side).append(", screen) ").append(ScreenScores.miss(r)).append('\n');
                }
            }
            for (Replay.ScreenResult r : hooks) {
                if (!ScreenScores.hit(r)) {
                    misses.append("miss (").append(side).append(", hooks) ").append(ScreenScores.miss(r)).append('\n');
                }
            }
            for (ScreenScores.Score sc : ScreenScores.scores(screen)) {
                boolean recallCounts = sc.cls().equals("working") || sc.cls().equals("blocked");
                if (sc.precision() < PRECISION_BAR || recallCounts && sc.recall() < RECALL_BAR) {
                    failures.add(side + " " + sc.cls() + ": precision " + sc.precision() + ", recall " + sc.recall());
                }
            }
            if (ScreenScores.noVerdict(screen) > NO_VERDICT_BAR) {
                failures.add(side + ": no verdict on " + ScreenScores.noVerdict(screen));
            }
        }
        System.out.print(md);
        System.out.print(misses);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "accuracy-screens.md"), md + misses.toString());
        if (Files.exists(DOC)) {
            String doc = Files.readString(DOC);
            int b = doc.indexOf(BEGIN);
            int e = doc.indexOf(END);
            assertTrue(b >= 0 && e > b, DOC + " has no generated block");
            String now = doc.substring(0, b + BEGIN.length()) + "\n\n" + md + doc.substring(e);
            if (Boolean.getBoolean("accuracy.write")) {
                Files.writeString(DOC, now);
            } else {
                assertEquals(doc, now, DOC + " is not the test's output: run with -Daccuracy.write=true");
            }
        }
        assertEquals(List.of(), failures, misses.toString());
    }

    static String describe(Replay.Result r) {
        Verdict v = r.verdict();
        return r.c().id() + ":" + r.line() + " expected " + r.expected() + ", got " + r.actual()
                + (v == null ? "" : " (screen " + v.status().wire() + " by " + v.rule() + ")");
    }

    private static void describe(ObjectNode size, List<Corpus.Case> cases, List<Replay.Result> withHooks,
            List<Replay.Result> screenOnly) {
        size.put("cases", cases.size());
        size.put("checkpoints_with_hooks", withHooks.size());
        size.put("checkpoints_screen_only", screenOnly.size());
        Map<String, int[]> byFamily = new TreeMap<>();
        Map<String, int[]> byKind = new TreeMap<>();
        for (Corpus.Case c : cases) {
            byFamily.computeIfAbsent(c.family(), k -> new int[2])[0]++;
            byKind.computeIfAbsent(c.kind(), k -> new int[2])[0]++;
        }
        for (Replay.Result r : withHooks) {
            byFamily.get(r.c().family())[1]++;
            byKind.get(r.c().kind())[1]++;
        }
        ObjectNode fam = size.putObject("by_agent");
        byFamily.forEach((k, v) -> fam.putObject(k).put("cases", v[0]).put("checkpoints", v[1]));
        ObjectNode kinds = size.putObject("by_kind");
        byKind.forEach((k, v) -> kinds.putObject(k).put("cases", v[0]).put("checkpoints", v[1]));
    }

    private static void put(ObjectNode mode, List<Score> scores, List<Replay.Result> results) {
        ObjectNode states = mode.putObject("states");
        for (Score s : scores) {
            states.putObject(s.state()).put("labelled", s.labelled()).put("predicted", s.predicted())
                    .put("correct", s.hits()).put("precision", round(s.precision())).put("recall", round(s.recall()));
        }
        ArrayNode misses = mode.putArray("misses");
        for (Replay.Result r : results) {
            if (!r.hit()) {
                misses.add(describe(r));
            }
        }
    }

    private static double round(double d) {
        return Math.round(d * 10_000) / 10_000.0;
    }
}

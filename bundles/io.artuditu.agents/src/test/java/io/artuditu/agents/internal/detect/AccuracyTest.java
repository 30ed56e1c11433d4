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
 * {@code none} for panes where no agent runs), each at least {@value #FLOOR}. Writes
 * {@code target/accuracy.json} and prints the table; {@code docs/agents/accuracy.md} has
 * the method and the figures.
 */
class AccuracyTest {
    static final double FLOOR = 0.98;
    static final List<String> STATES = List.of("idle", "working", "blocked", "done", "none");

    static Corpus corpus;
    static ManifestSet manifests;

    @BeforeAll
    static void load() {
        corpus = Corpus.load();
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

    static List<Replay.Result> results(boolean hooks) {
        List<Replay.Result> all = new ArrayList<>();
        for (Corpus.Case c : corpus.cases()) {
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

    @Test
    void everyStateIsRecognisedWithAndWithoutHooks() throws IOException {
        List<Replay.Result> withHooks = results(true);
        List<Replay.Result> screenOnly = results(false);
        List<Score> hookScores = scores(withHooks);
        List<Score> screenScores = scores(screenOnly);

        StringBuilder table = new StringBuilder();
        table.append(String.format("%-8s | %9s %9s %7s | %9s %9s %7s%n", "state", "hooks P", "hooks R", "n",
                "screen P", "screen R", "n"));
        for (int i = 0; i < STATES.size(); i++) {
            Score h = hookScores.get(i);
            Score s = screenScores.get(i);
            table.append(String.format("%-8s | %9.4f %9.4f %7d | %9.4f %9.4f %7d%n", h.state(), h.precision(),
                    h.recall(), h.labelled(), s.precision(), s.recall(), s.labelled()));
        }
        table.append(String.format("checkpoints: %d with hooks, %d screen only; cases: %d%n", withHooks.size(),
                screenOnly.size(), corpus.cases().size()));
        List<Replay.Result> misses = new ArrayList<>();
        withHooks.stream().filter(r -> !r.hit()).forEach(misses::add);
        screenOnly.stream().filter(r -> !r.hit()).forEach(misses::add);
        System.out.print(table);
        for (Replay.Result r : withHooks) {
            if (!r.hit()) {
                System.out.println("miss (hooks)  " + describe(r));
            }
        }
        for (Replay.Result r : screenOnly) {
            if (!r.hit()) {
                System.out.println("miss (screen) " + describe(r));
            }
        }
        write(withHooks, screenOnly, hookScores, screenScores);

        for (List<Score> mode : List.of(hookScores, screenScores)) {
            for (Score s : mode) {
                assertTrue(s.precision() >= FLOOR && s.recall() >= FLOOR,
                        "state " + s.state() + ": precision " + s.precision() + ", recall " + s.recall() + "\n" + table);
            }
        }
    }

    static String describe(Replay.Result r) {
        Verdict v = r.verdict();
        return r.c().id() + ":" + r.line() + " expected " + r.expected() + ", got " + r.actual()
                + (v == null ? "" : " (screen " + v.status().wire() + " by " + v.rule() + ")");
    }

    private static void write(List<Replay.Result> withHooks, List<Replay.Result> screenOnly, List<Score> hookScores,
            List<Score> screenScores) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        ObjectNode size = root.putObject("corpus");
        size.put("cases", corpus.cases().size());
        size.put("checkpoints_with_hooks", withHooks.size());
        size.put("checkpoints_screen_only", screenOnly.size());
        Map<String, int[]> byFamily = new TreeMap<>();
        Map<String, int[]> byKind = new TreeMap<>();
        for (Corpus.Case c : corpus.cases()) {
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
        ObjectNode modes = root.putObject("modes");
        put(modes.putObject("hooks"), hookScores, withHooks);
        put(modes.putObject("screen_only"), screenScores, screenOnly);
        Path out = Path.of("target", "accuracy.json");
        Files.createDirectories(out.getParent());
        json.writeValue(out.toFile(), root);
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

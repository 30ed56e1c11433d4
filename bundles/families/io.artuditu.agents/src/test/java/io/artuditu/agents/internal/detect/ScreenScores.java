package io.artuditu.agents.internal.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The real screens' figures: precision and recall per state class ({@code working},
 * {@code blocked}, {@code quiet} for done or idle, {@code none}), done and idle told apart
 * as a second figure, per agent, and the share of agent screens with no verdict
 * ({@code unknown}), as markdown tables.
 */
final class ScreenScores {
    static final List<String> CLASSES = List.of("working", "blocked", "quiet", "none");

    private ScreenScores() {
    }

    static String cls(String state) {
        return state.equals("done") || state.equals("idle") ? "quiet" : state;
    }

    /** Precision, recall and counts of one class. */
    record Score(String cls, int labelled, int predicted, int hits) {
        double precision() {
            return predicted == 0 ? 1 : (double) hits / predicted;
        }

        double recall() {
            return labelled == 0 ? 1 : (double) hits / labelled;
        }
    }

    static List<Score> scores(List<Replay.ScreenResult> rs) {
        List<Score> out = new ArrayList<>();
        for (String c : CLASSES) {
            int labelled = 0;
            int predicted = 0;
            int hits = 0;
            for (Replay.ScreenResult r : rs) {
                boolean l = cls(r.s().state()).equals(c);
                boolean p = cls(r.actual()).equals(c);
                labelled += l ? 1 : 0;
                predicted += p ? 1 : 0;
                hits += l && p ? 1 : 0;
            }
            out.add(new Score(c, labelled, predicted, hits));
        }
        return out;
    }

    /** Agent screens the detector gave no verdict on ({@code unknown}), as a share. */
    static double noVerdict(List<Replay.ScreenResult> rs) {
        long agents = rs.stream().filter(r -> !r.s().agent().equals("none")).count();
        long unknown = rs.stream().filter(r -> r.actual().equals("unknown")).count();
        return agents == 0 ? 0 : (double) unknown / agents;
    }

    /** Whether the class is right ({@code hit}), and done told from idle too ({@code exact}). */
    static boolean hit(Replay.ScreenResult r) {
        return cls(r.s().state()).equals(cls(r.actual()));
    }

    static String table(String title, List<Replay.ScreenResult> screen, List<Replay.ScreenResult> hooks) {
        StringBuilder t = new StringBuilder("**").append(title).append("**, ").append(screen.size())
                .append(" screens\n\n");
        t.append("| state | screen only: precision | recall | with hooks: precision | recall | labelled |\n");
        t.append("|---|---|---|---|---|---|\n");
        List<Score> s = scores(screen);
        List<Score> h = scores(hooks);
        for (int i = 0; i < CLASSES.size(); i++) {
            t.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f | %d |%n", label(CLASSES.get(i)),
                    s.get(i).precision(), s.get(i).recall(), h.get(i).precision(), h.get(i).recall(),
                    s.get(i).labelled()));
        }
        t.append(String.format(Locale.ROOT, "%nNo verdict: %s screen only, %s with hooks. Done told from idle"
                + " (of the quiet screens called quiet): %s screen only, %s with hooks.%n%n", share(screen),
                share(hooks), exact(screen), exact(hooks)));
        t.append("| agent | screen only: right | no verdict | with hooks: right |\n|---|---|---|---|\n");
        Map<String, int[]> by = new TreeMap<>();
        for (int i = 0; i < screen.size(); i++) {
            int[] c = by.computeIfAbsent(screen.get(i).s().agent(), k -> new int[4]);
            c[0]++;
            c[1] += hit(screen.get(i)) ? 1 : 0;
            c[2] += screen.get(i).actual().equals("unknown") ? 1 : 0;
            c[3] += hit(hooks.get(i)) ? 1 : 0;
        }
        by.forEach((a, c) -> t.append(String.format(Locale.ROOT, "| %s | %d/%d | %d | %d/%d |%n", a, c[1], c[0], c[2],
                c[3], c[0])));
        return t.append('\n').toString();
    }

    private static String label(String cls) {
        return cls.equals("quiet") ? "done or idle" : cls;
    }

    private static String share(List<Replay.ScreenResult> rs) {
        long n = rs.stream().filter(r -> r.actual().equals("unknown")).count();
        long agents = rs.stream().filter(r -> !r.s().agent().equals("none")).count();
        return String.format(Locale.ROOT, "%d of %d agent screens (%.1f %%)", n, agents, agents == 0 ? 0 : 100.0 * n / agents);
    }

    private static String exact(List<Replay.ScreenResult> rs) {
        int quiet = 0;
        int exact = 0;
        for (Replay.ScreenResult r : rs) {
            if (cls(r.s().state()).equals("quiet") && cls(r.actual()).equals("quiet")) {
                quiet++;
                exact += r.s().state().equals(r.actual()) ? 1 : 0;
            }
        }
        return exact + "/" + quiet;
    }

    /** One line per miss: where, what it should be, what it was and which rule said so. */
    static String miss(Replay.ScreenResult r) {
        Verdict v = r.verdict();
        return r.s().id() + " (" + r.s().kind() + ", " + r.s().source() + ") expected " + r.s().state() + ", got "
                + r.actual() + (v == null || v.rule() == null ? "" : " by " + v.rule());
    }
}

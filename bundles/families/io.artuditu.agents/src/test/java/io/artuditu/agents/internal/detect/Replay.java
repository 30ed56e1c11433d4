package io.artuditu.agents.internal.detect;

import io.artuditu.vt.Terminal;
import java.util.ArrayList;
import java.util.List;

/**
 * Plays one corpus case through the real emulator, {@link ScreenRules} and a
 * {@link PaneTracker}, as the detector would: every output chunk and resize is followed by
 * an evaluation; time moves {@value #STEP_MILLIS} ms a step and by each {@code advance}.
 * Before a {@code launch} step only the tree's root (the shell) runs; from it on the whole
 * tree, and a new tracker for the agent it identifies.
 * With {@code hooks} off, hook steps and hook-only checkpoints are skipped.
 */
final class Replay {
    static final long STEP_MILLIS = 20;
    static final long START = 1_000_000;

    /** One checkpoint's outcome. */
    record Result(Corpus.Case c, int line, String expected, String actual, Verdict verdict, String screen) {
        boolean hit() {
            return expected.equals(actual);
        }
    }

    private Replay() {
    }

    static List<Result> run(Corpus.Case c, ManifestSet manifests, boolean hooks, boolean keepScreens) {
        Terminal t = Terminal.create(c.cols(), c.rows());
        boolean launches = c.steps().stream().anyMatch(s -> s.verb().equals("launch"));
        // Until the agent is launched only the shell (the tree's root) runs in the pane.
        List<io.artuditu.pty.proc.ProcessEntry> tree = launches ? c.processes().subList(0, 1) : c.processes();
        AgentManifest m = identify(manifests, tree);
        PaneTracker tracker = new PaneTracker();
        List<Result> out = new ArrayList<>();
        long now = START;
        int offset = 0;
        for (Corpus.Step s : c.steps()) {
            now += STEP_MILLIS;
            switch (s.verb()) {
                case "output" -> {
                    int n = Integer.parseInt(s.arg());
                    t.feed(c.output(), offset, n);
                    offset += n;
                    t.takeReplies();
                    if (m != null) {
                        tracker.screen(ScreenRules.evaluate(m, t, t.revision()), now);
                    }
                }
                case "resize" -> {
                    String[] cr = s.arg().split(" ");
                    t.resize(Integer.parseInt(cr[0]), Integer.parseInt(cr[1]));
                    if (m != null) {
                        tracker.screen(ScreenRules.evaluate(m, t, t.revision()), now);
                    }
                }
                case "launch" -> {
                    AgentManifest next = identify(manifests, c.processes());
                    if (next != m) {
                        m = next;
                        tracker = new PaneTracker();
                        if (m != null) {
                            tracker.screen(ScreenRules.evaluate(m, t, t.revision()), now);
                        }
                    }
                }
                case "input" -> tracker.userInput(now);
                case "hook" -> {
                    if (hooks && m != null) {
                        tracker.hook(s.arg(), m.hookStatus(s.arg()).orElse(null), now);
                    }
                }
                case "advance" -> {
                    now += Long.parseLong(s.arg());
                    tracker.tick(now);
                }
                case "expect", "expect@hooks" -> {
                    if (s.verb().equals("expect@hooks") && !hooks) {
                        continue;
                    }
                    tracker.tick(now);
                    String actual = m == null ? "none" : tracker.status().wire();
                    out.add(new Result(c, s.line(), s.arg(), actual, tracker.lastVerdict(),
                            keepScreens ? t.screenText(false) : null));
                }
                default -> throw new IllegalArgumentException(c.id() + ":" + s.line() + ": unknown step " + s.verb());
            }
        }
        if (offset != c.output().length) {
            throw new IllegalStateException(c.id() + ": steps consume " + offset + " of " + c.output().length + " bytes");
        }
        return out;
    }

    private static AgentManifest identify(ManifestSet manifests, List<io.artuditu.pty.proc.ProcessEntry> tree) {
        return manifests.identify(tree).map(ManifestSet.Identity::manifest).orElse(null);
    }

    /** Prints each checkpoint's screen of the cases named: {@code Replay claude/turn-120x40-v1 …}. */
    public static void main(String[] args) {
        ManifestSet set = ManifestSet.load(null, null);
        boolean hooks = !Boolean.getBoolean("screenOnly");
        List<Corpus.Case> all = new ArrayList<>(Corpus.load("cases").cases());
        all.addAll(Corpus.load("holdout").cases());
        for (Corpus.Case c : all) {
            for (String want : args) {
                if (c.id().equals(want) || c.id().startsWith(want)) {
                    for (Result r : run(c, set, hooks, true)) {
                        System.out.println("=== " + c.id() + ":" + r.line() + " expected " + r.expected() + " actual "
                                + r.actual() + " " + r.verdict());
                        System.out.println(r.screen());
                    }
                }
            }
        }
    }
}

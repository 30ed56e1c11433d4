package io.artuditu.agents.internal.detect;

import io.artuditu.vt.Terminal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plays one corpus case through the real emulator, {@link ScreenRules} and a
 * {@link PaneTracker}, as the detector would: every output chunk and resize is followed by
 * an evaluation; time moves {@value #STEP_MILLIS} ms a step and by each {@code advance}.
 * Before a {@code launch} step only the tree's root (the shell) runs; from it on the whole
 * tree, read against the manifest of the agent it identifies, by the pane's one tracker.
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
                        // the pane keeps its tracker across programs, as the detector does
                        // (a person who typed "claude --resume" has seen what it shows)
                        m = next;
                        if (m != null) {
                            tracker.launched(now);
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

    /** One real screen's outcome, and which source decided it ({@code hook}, {@code screen}, {@code process}). */
    record ScreenResult(ScreenCorpus.Screen s, String actual, Verdict verdict, String decidedBy, String screen) {
        boolean hit() {
            return s.state().equals(actual);
        }
    }

    /**
     * The hook event each CLI with hooks has sent last when it is in each state (what
     * {@code artu hook install} wires): with hooks on, a screen gets it first, unless its
     * file names another ({@code hook EVENT}, or {@code hook -} for none).
     */
    static final Map<String, Map<String, String>> LAST_HOOK = Map.of(
            "claude", Map.of("working", "PreToolUse", "blocked", "PermissionRequest", "done", "Stop", "idle",
                    "SessionStart"),
            "codex", Map.of("done", "agent-turn-complete"),
            "gemini", Map.of("working", "BeforeTool", "blocked", "Notification", "done", "AfterAgent", "idle",
                    "SessionStart"));

    /**
     * Draws one real screen in the real emulator as the program left it (its rows written top
     * to bottom, the first ones scrolling into the scrollback when there are more than the
     * pane holds; in the alternate screen when it says so), places the cursor, resizes, and
     * asks a new tracker: with hooks on, after the CLI's last hook event for that state.
     */
    static ScreenResult screen(ScreenCorpus.Screen s, ManifestSet manifests, boolean hooks) {
        Terminal t = Terminal.create(s.cols(), s.rows());
        StringBuilder b = new StringBuilder();
        if (s.alternate()) {
            b.append("\u001b[?1049h\u001b[H");
        }
        b.append(s.text().replace("\n", "\r\n"));
        if (s.cursor() != null) {
            b.append("\u001b[").append(s.cursor()[0]).append(';').append(s.cursor()[1]).append('H');
        }
        t.feed(b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        t.takeReplies();
        if (s.resize() != null) {
            t.resize(s.resize()[0], s.resize()[1]);
        }
        AgentManifest m = identify(manifests, s.processes());
        if (m == null) {
            return new ScreenResult(s, "none", null, "process", t.screenText(false));
        }
        PaneTracker tracker = new PaneTracker();
        long now = START;
        String event = s.hook() != null ? s.hook() : LAST_HOOK.getOrDefault(s.agent(), Map.of()).get(s.state());
        if (hooks && event != null && !event.equals("-")) {
            tracker.hook(event, m.hookStatus(event).orElse(null), now);
        }
        now += STEP_MILLIS;
        Verdict v = ScreenRules.evaluate(m, t, t.revision());
        tracker.screen(v, now);
        return new ScreenResult(s, tracker.status().wire(), v, tracker.source().wire(), t.screenText(false));
    }

    /**
     * Prints the verdict on each real screen of the tuning side whose id starts with
     * {@code prefix} ({@code Replay screens claude/}): the misses with their screens, or
     * every screen with {@code -Dall=true}. The held-out side is never printed here.
     */
    static void tuningScreens(ManifestSet set, String prefix, boolean all) {
        ScreenCorpus corpus = ScreenCorpus.load(false);
        int n = 0;
        int hits = 0;
        for (ScreenCorpus.Screen s : corpus.screens()) {
            if (!corpus.side(s).equals("tune") || !s.id().startsWith(prefix)) {
                continue;
            }
            ScreenResult r = screen(s, set, Boolean.getBoolean("hooks"));
            n++;
            hits += ScreenScores.hit(r) ? 1 : 0;
            if (all || !ScreenScores.hit(r)) {
                System.out.println("=== " + ScreenScores.miss(r) + (ScreenScores.hit(r) ? "  [hit]" : "  [MISS]") + "  "
                        + r.verdict());
                System.out.println(r.screen());
            }
        }
        System.out.println(hits + "/" + n + " right (tuning side)");
    }

    private static AgentManifest identify(ManifestSet manifests, List<io.artuditu.pty.proc.ProcessEntry> tree) {
        return manifests.identify(tree).map(ManifestSet.Identity::manifest).orElse(null);
    }

    /** Prints each checkpoint's screen of the cases named: {@code Replay claude/turn-120x40-v1 …}. */
    public static void main(String[] args) {
        ManifestSet set = ManifestSet.load(null, null);
        if (args.length > 0 && args[0].equals("screens")) {
            tuningScreens(set, args.length > 1 ? args[1] : "", Boolean.getBoolean("all"));
            return;
        }
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

package io.artuditu.agents.internal.detect;

import com.google.re2j.Matcher;
import io.artuditu.vt.Terminal;

/**
 * Evaluates a manifest's rules against a screen, reading only the regions the rules name.
 *
 * <p>The rules are tried in the manifest's evaluation order (highest priority first, then
 * file order) and the first that matches decides; a screen no rule matches gets the
 * manifest's fallback. A rule with an {@code unless} pattern found in the same region does
 * not match; a rule whose region holds none of its {@code needs} is skipped before its
 * pattern runs. Regions are read once per evaluation and shared by the rules that
 * name them (see {@link ScreenRegions} for what each region holds and its bounds). Patterns
 * are RE2, so a match costs time linear in the region's text whatever the pattern.
 *
 * <p>Stateless and thread-safe; the terminal must be held as {@link Terminal} requires.
 */
public final class ScreenRules {
    /** Longest evidence a verdict carries, in characters. */
    public static final int MAX_EVIDENCE = 120;

    private ScreenRules() {
    }

    /** Call with the terminal locked (TerminalScreens.read). */
    public static Verdict evaluate(AgentManifest m, Terminal t, long revision) {
        int window = 0;
        for (Rule r : m.rules()) {
            if (r.region().kind().counted()) {
                window = Math.max(window, r.region().rows());
            }
        }
        ScreenRegions regions = new ScreenRegions(t, window);
        for (Rule r : m.rules()) {
            String text = regions.text(r.region());
            if (text == null || !r.mayMatch(text)) {
                continue;
            }
            Matcher matcher = r.pattern().matcher(text);
            if (matcher.find() && (r.unless() == null || !r.unless().matcher(text).find())) {
                return new Verdict(r.status(), r.id(), r.region().describe(), r.priority(), r.confidence(),
                        evidence(matcher.group()), regions.rowsRead(), revision);
            }
        }
        return new Verdict(m.fallback(), null, null, 0, 0, null, regions.rowsRead(), revision);
    }

    private static String evidence(String matched) {
        String s = matched.strip();
        if (s.length() <= MAX_EVIDENCE) {
            return s;
        }
        int cut = MAX_EVIDENCE - 1;
        if (Character.isHighSurrogate(s.charAt(cut - 1))) {
            cut--;
        }
        return s.substring(0, cut) + "…";
    }
}

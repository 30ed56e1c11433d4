package io.artuditu.tui;

import java.util.ArrayList;
import java.util.List;

/**
 * Word-level change marks for a deleted line and the added line it pairs with: both split
 * into tokens (a run of letters, digits and {@code _}, a run of blanks, or one other
 * character), a longest common subsequence of the tokens, and the tokens outside it marked.
 * Bounded: lines of more than {@link #MAX_TOKENS} tokens each side, or a table above
 * {@link #MAX_CELLS}, get no marks (the whole line's colour already says it changed).
 */
final class WordDiff {
    static final int MAX_TOKENS = 400;
    static final int MAX_CELLS = 40_000;

    /** Changed character ranges {@code [start, end)} of each side; both empty when nothing is marked. */
    record Marks(List<int[]> old, List<int[]> neu) {
        static final Marks NONE = new Marks(List.of(), List.of());

        /** Whether character {@code i} of the old ({@code oldSide}) or new side is marked. */
        boolean marked(boolean oldSide, int i) {
            for (int[] r : oldSide ? old : neu) {
                if (i >= r[0] && i < r[1]) {
                    return true;
                }
            }
            return false;
        }
    }

    private WordDiff() {
    }

    static List<int[]> tokens(String s) {
        List<int[]> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            int start = i;
            char c = s.charAt(i);
            if (word(c)) {
                while (i < s.length() && word(s.charAt(i))) {
                    i++;
                }
            } else if (c == ' ' || c == '\t') {
                while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                    i++;
                }
            } else {
                i += Character.charCount(s.codePointAt(i));
            }
            out.add(new int[] {start, i});
        }
        return out;
    }

    private static boolean word(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    static Marks of(String a, String b) {
        if (a.equals(b)) {
            return Marks.NONE;
        }
        List<int[]> ta = tokens(a);
        List<int[]> tb = tokens(b);
        int n = ta.size();
        int m = tb.size();
        if (n > MAX_TOKENS || m > MAX_TOKENS || (long) n * m > MAX_CELLS) {
            return Marks.NONE;
        }
        String[] sa = new String[n];
        String[] sb = new String[m];
        for (int i = 0; i < n; i++) {
            sa[i] = a.substring(ta.get(i)[0], ta.get(i)[1]);
        }
        for (int j = 0; j < m; j++) {
            sb[j] = b.substring(tb.get(j)[0], tb.get(j)[1]);
        }
        // lcs[i][j]: the common subsequence length of sa[i..] and sb[j..]
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = sa[i].equals(sb[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        boolean[] keepA = new boolean[n];
        boolean[] keepB = new boolean[m];
        for (int i = 0, j = 0; i < n && j < m; ) {
            if (sa[i].equals(sb[j])) {
                keepA[i++] = true;
                keepB[j++] = true;
            } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
                i++;
            } else {
                j++;
            }
        }
        return new Marks(ranges(ta, keepA), ranges(tb, keepB));
    }

    /** The unkept tokens as character ranges, neighbours merged. */
    private static List<int[]> ranges(List<int[]> tokens, boolean[] keep) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (keep[i]) {
                continue;
            }
            int[] t = tokens.get(i);
            if (!out.isEmpty() && out.get(out.size() - 1)[1] == t[0]) {
                out.get(out.size() - 1)[1] = t[1];
            } else {
                out.add(new int[] {t[0], t[1]});
            }
        }
        return out;
    }
}

package io.artuditu.example.gitbar;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * What {@code git status --porcelain=v2 --branch} says about a working tree, reduced to
 * what the widget shows. Immutable.
 *
 * @param branch    the checked-out branch, or null when HEAD is detached
 * @param oid       the commit HEAD names, or null before the first commit
 * @param ahead     commits on the branch its upstream lacks (0 without an upstream)
 * @param behind    commits on the upstream the branch lacks
 * @param changed   tracked files with staged or unstaged changes (renames count once)
 * @param untracked untracked files and folders (as git lists them)
 * @param conflicts unmerged paths
 */
record GitStatus(String branch, String oid, int ahead, int behind, int changed, int untracked, int conflicts) {

    /** Changed, untracked and conflicted paths together: what makes the tree dirty. */
    int dirty() {
        return changed + untracked + conflicts;
    }

    /**
     * Parses porcelain v2 output line by line, so a tree with a million changes costs no
     * more memory than one with none. Unknown lines are skipped: git may add headers.
     */
    static GitStatus parse(BufferedReader in) throws IOException {
        String branch = null;
        String oid = null;
        int ahead = 0;
        int behind = 0;
        int changed = 0;
        int untracked = 0;
        int conflicts = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("# branch.head ")) {
                String head = line.substring("# branch.head ".length());
                branch = head.equals("(detached)") ? null : head;
            } else if (line.startsWith("# branch.oid ")) {
                String o = line.substring("# branch.oid ".length());
                oid = o.equals("(initial)") ? null : o;
            } else if (line.startsWith("# branch.ab ")) {
                String[] ab = line.substring("# branch.ab ".length()).split(" ");
                if (ab.length == 2) {
                    ahead = count(ab[0]);
                    behind = count(ab[1]);
                }
            } else if (line.startsWith("1 ") || line.startsWith("2 ")) {
                changed++;
            } else if (line.startsWith("u ")) {
                conflicts++;
            } else if (line.startsWith("? ")) {
                untracked++;
            }
        }
        return new GitStatus(branch, oid, ahead, behind, changed, untracked, conflicts);
    }

    private static int count(String signed) {
        try {
            return Math.abs(Integer.parseInt(signed));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}

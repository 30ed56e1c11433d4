package io.artuditu.example.gitbar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class GitStatusTest {
    private static GitStatus parse(String text) throws IOException {
        return GitStatus.parse(new BufferedReader(new StringReader(text)));
    }

    @Test
    void aCleanBranchWithAnUpstreamCountsAheadAndBehind() throws IOException {
        GitStatus s = parse("# branch.oid 3f1c2d4e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d\n# branch.head main\n"
                + "# branch.upstream origin/main\n# branch.ab +2 -1\n");
        assertEquals(new GitStatus("main", "3f1c2d4e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d", 2, 1, 0, 0, 0), s);
        assertEquals(0, s.dirty());
    }

    @Test
    void changedRenamedUntrackedAndUnmergedEntriesAreCountedApart() throws IOException {
        GitStatus s = parse("# branch.oid (initial)\n# branch.head work\n"
                + "1 .M N... 100644 100644 100644 a a README.md\n"
                + "2 R. N... 100644 100644 100644 a a R100 new.txt\told.txt\n"
                + "u UU N... 100644 100644 100644 100644 a b c both.txt\n"
                + "? scratch.txt\n"
                + "! ignored.log\n");
        assertEquals("work", s.branch());
        assertNull(s.oid(), "no commit yet");
        assertEquals(2, s.changed());
        assertEquals(1, s.conflicts());
        assertEquals(1, s.untracked());
        assertEquals(4, s.dirty(), "ignored files do not make a tree dirty");
    }

    @Test
    void aDetachedHeadHasNoBranch() throws IOException {
        GitStatus s = parse("# branch.oid 0123456789abcdef0123456789abcdef01234567\n# branch.head (detached)\n");
        assertNull(s.branch());
        assertEquals("@0123456", GitWidget.label(s));
    }
}

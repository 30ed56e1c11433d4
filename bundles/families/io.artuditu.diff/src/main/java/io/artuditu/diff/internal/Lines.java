package io.artuditu.diff.internal;

import java.nio.charset.StandardCharsets;
import org.eclipse.jgit.diff.RawText;

/**
 * A side's text as JGit's diff sees it, whose lines read as UTF-8 with invalid bytes replaced
 * (U+FFFD), never in a guessed fallback charset.
 */
final class Lines extends RawText {
    Lines(byte[] content) {
        super(content);
    }

    /** Line {@code i} (0-based) without its line feed, decoded. */
    String line(int i) {
        int start = lines.get(i + 1);
        int end = i + 2 < lines.size() ? lines.get(i + 2) : content.length;
        if (end > start && content[end - 1] == '\n') {
            end--;
        }
        return new String(content, start, Math.max(0, end - start), StandardCharsets.UTF_8);
    }
}

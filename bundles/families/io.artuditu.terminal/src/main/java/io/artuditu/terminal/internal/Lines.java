package io.artuditu.terminal.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;

/** Stream lines: one JSON object, UTF-8, ending in {@code \n}. */
public final class Lines {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Lines() {
    }

    /**
     * Why a client's line is text in another encoding than UTF-8, or null; checked before
     * the line is parsed. Jackson picks the encoding of bytes from the first four: a byte
     * order mark, or the NUL bytes UTF-16 and UTF-32 put around ASCII, and without either
     * reads UTF-8. A NUL byte is never part of UTF-8 JSON and the wire takes no byte order
     * mark, so refusing both leaves it nothing to guess.
     */
    public static String notUtf8(byte[] line) {
        int n = line.length;
        if (n >= 3 && (line[0] & 0xff) == 0xef && (line[1] & 0xff) == 0xbb && (line[2] & 0xff) == 0xbf) {
            return "it starts with a byte order mark";
        }
        if (n >= 2 && ((line[0] & 0xff) == 0xfe && (line[1] & 0xff) == 0xff
                || (line[0] & 0xff) == 0xff && (line[1] & 0xff) == 0xfe)) {
            return "it starts with a UTF-16 or UTF-32 byte order mark";
        }
        for (int i = 0; i < Math.min(n, 4); i++) {
            if (line[i] == 0) {
                return "it holds NUL bytes, as UTF-16 and UTF-32 text does";
            }
        }
        return null;
    }

    static byte[] of(ObjectNode o) {
        try {
            byte[] body = MAPPER.writeValueAsBytes(o);
            byte[] line = Arrays.copyOf(body, body.length + 1);
            line[body.length] = '\n';
            return line;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain nodes always serializes", e);
        }
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;

/** Stream lines: one JSON object, UTF-8, ending in {@code \n}. */
final class Lines {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Lines() {
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

package io.artuditu.uhp.api.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One published event: its name, sequence, data and its wire line
 * {@code {"event":…,"sequence":…,"data":…}\n}, serialized once. Immutable.
 */
public final class EventFrame {
    private final String event;
    private final long sequence;
    private final ObjectNode data;
    private final byte[] line;

    public EventFrame(String event, long sequence, ObjectNode data, byte[] line) {
        this.event = event;
        this.sequence = sequence;
        this.data = data.deepCopy();
        this.line = line.clone();
    }

    public String event() {
        return event;
    }

    public long sequence() {
        return sequence;
    }

    /** A copy of the event's data. */
    public ObjectNode data() {
        return data.deepCopy();
    }

    /** Whether the data holds field {@code name} with a value equal to {@code value} (numbers by value). */
    public boolean dataEquals(String name, com.fasterxml.jackson.databind.JsonNode value) {
        com.fasterxml.jackson.databind.JsonNode v = data.get(name);
        if (v == null) {
            return false;
        }
        if (v.isNumber() && value.isNumber()) {
            double a = v.doubleValue();
            double b = value.doubleValue();
            if (!Double.isFinite(a) || !Double.isFinite(b)) {
                return a == b; // no decimal holds an infinity or NaN (and NaN equals nothing)
            }
            return v.decimalValue().compareTo(value.decimalValue()) == 0;
        }
        return v.equals(value);
    }

    /** A copy of the wire line, newline included. */
    public byte[] line() {
        return line.clone();
    }

    /** The wire line's length in bytes. */
    public int size() {
        return line.length;
    }

    @Override
    public String toString() {
        return new String(line, 0, line.length - 1, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EventFrame && ((EventFrame) o).sequence == sequence && Arrays.equals(((EventFrame) o).line, line);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(sequence);
    }
}

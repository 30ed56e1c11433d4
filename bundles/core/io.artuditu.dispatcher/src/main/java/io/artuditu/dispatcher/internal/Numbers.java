package io.artuditu.dispatcher.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * What a number in a request is: its exact decimal value, however it is written
 * ({@code docs/protocol/spec-notes.md}, "Numbers").
 *
 * <ul>
 * <li>A value without a fractional part is an integer: {@code 3}, {@code 3.0}, {@code 3e0}
 * and {@code 300e-2} are all 3, {@code -0} and {@code -0.0} are 0. It becomes an int node
 * (or a long node past the int range), as Jackson makes of {@code 3}.
 * <li>Any other value stays exact, as a decimal node ({@code 0.99999999999999999999} is not
 * the integer 1 its nearest double would be).
 * <li>Out of range, and refused: a value outside {@code -2^63..2^63-1}, and a nonzero value
 * so small that its nearest double is 0 (below {@code 4.9e-324}).
 * </ul>
 *
 * <p>So a handler reads any number it is given with {@code intValue}, {@code longValue} or
 * {@code doubleValue} (within its schema's bounds) without wrapping, an infinity or a silent
 * zero, and the params schema's {@code integer} test is exact. Reading never throws for a
 * number, however long its exponent: nothing here expands {@code 1e999999999}.
 */
final class Numbers {
    /** A number outside what UHP carries; {@link #getMessage()} says which bound it crosses. */
    static final class OutOfRange extends Exception {
        private static final long serialVersionUID = 1L;

        private OutOfRange(String message) {
            super(message, null, false, false);
        }
    }

    static final OutOfRange TOO_LARGE = new OutOfRange("a number must lie within " + Long.MIN_VALUE + ".."
            + Long.MAX_VALUE);
    static final OutOfRange TOO_SMALL = new OutOfRange("a number other than 0 must be at least " + Double.MIN_VALUE
            + " in magnitude (the smallest a double holds)");

    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    /**
     * Exponents of this many digits or more (beyond leading zeros) put any nonzero mantissa
     * out of range: the parser caps a number at 1,000 characters, so the mantissa moves the
     * value by at most 10^1000 either way, while the exponent moves it by 10^1000000.
     */
    private static final int EXPONENT_DIGITS_OUT = 7;

    private Numbers() {
    }

    /** The node for the number token the parser is on. */
    static JsonNode read(JsonParser p) throws IOException, OutOfRange {
        if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
            switch (p.getNumberType()) {
                case INT:
                    return IntNode.valueOf(p.getIntValue());
                case LONG:
                    return LongNode.valueOf(p.getLongValue());
                default:
                    throw TOO_LARGE;
            }
        }
        return decimal(p.getText());
    }

    /** The node for a JSON number written with a fraction or an exponent (the grammar already checked). */
    static JsonNode decimal(String text) throws OutOfRange {
        int e = Math.max(text.indexOf('e'), text.indexOf('E'));
        int end = e < 0 ? text.length() : e;
        boolean zero = true;
        for (int i = 0; i < end && zero; i++) {
            char c = text.charAt(i);
            zero = c < '1' || c > '9';
        }
        if (zero) {
            return IntNode.valueOf(0);
        }
        if (e >= 0) {
            int i = e + 1;
            boolean negative = text.charAt(i) == '-';
            if (negative || text.charAt(i) == '+') {
                i++;
            }
            while (i < text.length() - 1 && text.charAt(i) == '0') {
                i++;
            }
            if (text.length() - i >= EXPONENT_DIGITS_OUT) {
                throw negative ? TOO_SMALL : TOO_LARGE;
            }
        }
        BigDecimal v = new BigDecimal(text);
        if (v.compareTo(LONG_MIN) < 0 || v.compareTo(LONG_MAX) > 0) {
            throw TOO_LARGE;
        }
        BigDecimal stripped = v.stripTrailingZeros();
        if (stripped.scale() <= 0) {
            long l = stripped.longValueExact();
            return l == (int) l ? IntNode.valueOf((int) l) : LongNode.valueOf(l);
        }
        if (stripped.doubleValue() == 0.0) {
            throw TOO_SMALL;
        }
        return DecimalNode.valueOf(stripped);
    }

    /**
     * Where the parser is, in the form schema violations use: {@code params.patch.layout.gap},
     * {@code params.workspaces[2]}.
     */
    static String path(JsonStreamContext context) {
        StringBuilder out = new StringBuilder();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject()) {
                out.insert(0, c.getCurrentName() == null ? "" : c.getCurrentName()).insert(0, '.');
            } else if (c.inArray()) {
                out.insert(0, "[" + c.getCurrentIndex() + "]");
            }
        }
        return out.length() > 0 && out.charAt(0) == '.' ? out.substring(1) : out.toString();
    }
}

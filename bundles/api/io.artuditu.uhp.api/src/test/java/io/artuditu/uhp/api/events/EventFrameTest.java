package io.artuditu.uhp.api.events;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class EventFrameTest {
    private static EventFrame frame(ObjectNode data) {
        return new EventFrame("t.changed", 1, data, "{}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void numbersCompareByValueWhateverTheirNode() {
        EventFrame f = frame(JsonNodeFactory.instance.objectNode().put("n", 3).put("x", 0.5).put("s", "3"));
        assertTrue(f.dataEquals("n", DoubleNode.valueOf(3.0)));
        assertTrue(f.dataEquals("n", DecimalNode.valueOf(new BigDecimal("3.000"))));
        assertTrue(f.dataEquals("x", DecimalNode.valueOf(new BigDecimal("0.5"))));
        assertFalse(f.dataEquals("n", IntNode.valueOf(4)));
        assertFalse(f.dataEquals("s", IntNode.valueOf(3)), "a string is not the number it spells");
        assertTrue(f.dataEquals("s", TextNode.valueOf("3")));
        assertFalse(f.dataEquals("missing", IntNode.valueOf(3)));
    }

    @Test
    void aNumberNoDecimalHoldsComparesWithoutThrowing() {
        EventFrame f = frame(JsonNodeFactory.instance.objectNode().put("nan", Double.NaN)
                .put("inf", Double.POSITIVE_INFINITY).put("n", 1));
        assertFalse(f.dataEquals("nan", IntNode.valueOf(1)));
        assertFalse(f.dataEquals("nan", DoubleNode.valueOf(Double.NaN)), "NaN equals nothing");
        assertFalse(f.dataEquals("inf", IntNode.valueOf(1)));
        assertTrue(f.dataEquals("inf", DoubleNode.valueOf(Double.POSITIVE_INFINITY)));
        assertFalse(f.dataEquals("n", DoubleNode.valueOf(Double.NEGATIVE_INFINITY)));
    }
}

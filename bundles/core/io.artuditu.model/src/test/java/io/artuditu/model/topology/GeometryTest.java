package io.artuditu.model.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The room rule ({@link Geometry#need}) and how a split's extent is shared with it. */
class GeometryTest {
    static final int W = Geometry.MIN_WIDTH;
    static final int H = Geometry.MIN_HEIGHT;

    static Node leaf(String id) {
        return new Node.Leaf(id);
    }

    static Node.Split split(Axis axis, double ratio, Node a, Node b) {
        return new Node.Split(axis, ratio, a, b);
    }

    @Test
    void needAddsAlongTheAxisAndTakesTheLargerAcross() {
        Node one = leaf("1");
        assertEquals(W, Geometry.need(one, Axis.HORIZONTAL));
        assertEquals(H, Geometry.need(one, Axis.VERTICAL));
        Node pair = split(Axis.HORIZONTAL, 0.5, leaf("1"), leaf("2"));
        assertEquals(2 * W, Geometry.need(pair, Axis.HORIZONTAL));
        assertEquals(H, Geometry.need(pair, Axis.VERTICAL));
        // (1 | 2 | 3) over 4: three wide, two high.
        Node t = split(Axis.VERTICAL, 0.5, split(Axis.HORIZONTAL, 0.5, leaf("1"), pair), leaf("4"));
        assertEquals(2 * W + W, Geometry.need(t, Axis.HORIZONTAL));
        assertEquals(2 * H, Geometry.need(t, Axis.VERTICAL));
        // A node object used twice counts twice (identity keys must not merge the places).
        Node shared = split(Axis.HORIZONTAL, 0.5, pair, pair);
        assertEquals(4 * W, Geometry.need(shared, Axis.HORIZONTAL));
    }

    @Test
    void needOfADeepChainNeedsNoRecursion() {
        Node n = leaf("0");
        for (int i = 1; i <= 100_000; i++) {
            n = split(Axis.VERTICAL, 0.5, n, leaf(Integer.toString(i)));
        }
        assertEquals(100_001 * H, Geometry.need(n, Axis.VERTICAL));
        assertEquals(W, Geometry.need(n, Axis.HORIZONTAL));
    }

    @Test
    void firstExtentRoundsHalfUpThenClampsToTheNeeds() {
        assertEquals(5000, Geometry.firstExtent(0.5, 10000, W, W));
        assertEquals(3334, Geometry.firstExtent(1.0 / 3, 10001, W, W), "half up");
        assertEquals(W, Geometry.firstExtent(0.0, 10000, W, W), "clamped to a's need");
        assertEquals(10000 - 3 * W, Geometry.firstExtent(1.0, 10000, W, 3 * W), "clamped to leave b's need");
        assertEquals(W, Geometry.firstExtent(0.9, 3 * W, W, 2 * W), "exactly enough: no choice");
    }

    @Test
    void firstExtentSharesAnExtentTooSmallForTheNeedsInProportion() {
        // 300 units for needs of 100 and 500: a gets 1/6, whatever the ratio.
        assertEquals(50, Geometry.firstExtent(0.0, 300, W, 5 * W));
        assertEquals(50, Geometry.firstExtent(1.0, 300, W, 5 * W));
        // At least one unit each while there are two.
        assertEquals(1, Geometry.firstExtent(0.5, 2, W, 1_000 * W));
        assertEquals(1, Geometry.firstExtent(0.5, 2, 1_000 * W, W));
        assertEquals(1, Geometry.firstExtent(0.5, 1, W, W), "one unit cannot be shared: half up");
        assertEquals(1, Geometry.firstExtent(0.5, 1, 3 * W, W));
        assertEquals(0, Geometry.firstExtent(0.5, 0, W, W));
    }

    @Test
    void clampRatioStoresTheRatioTheRectanglesShow() {
        Node.Split s = split(Axis.HORIZONTAL, 0.5, leaf("1"), split(Axis.HORIZONTAL, 0.5, leaf("2"), leaf("3")));
        assertEquals(0.5, Geometry.clampRatio(s, 0.5, 10000));
        assertEquals(0.01, Geometry.clampRatio(s, 0.0, 10000), 1e-12);
        assertEquals(0.98, Geometry.clampRatio(s, 1.0, 10000), 1e-12);
        // Too little room: the proportional share, 1/3 here, whatever was asked.
        assertEquals(1.0 / 3, Geometry.clampRatio(s, 0.9, 150), 1e-12);
        for (double asked : new double[] {0.0, 0.3, 0.77, 1.0}) {
            double r = Geometry.clampRatio(s, asked, 10000);
            // The stored ratio means what it says, and the layout is the one the asked ratio gets.
            assertEquals(Math.round(10000 * r), Geometry.firstExtent(s.withRatio(r), 10000));
            assertEquals(Geometry.firstExtent(s.withRatio(asked), 10000), Geometry.firstExtent(s.withRatio(r), 10000));
            Map<String, Rect> rects = Geometry.rects(s.withRatio(r));
            for (Rect rect : rects.values()) {
                assertTrue(rect.width() >= W, asked + ": " + rect);
            }
        }
    }
}

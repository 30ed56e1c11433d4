package io.artuditu.vt.internal;

/**
 * Scrollback: a ring of {@link HistoryLine}s under a byte budget. Appending evicts the
 * oldest lines until the new one fits, so {@link #bytes()} never exceeds the budget; a
 * single line larger than the whole budget is not kept. The ring doubles when full, which
 * stops once the budget caps the line count, so an append is amortized O(1) and O(1) in the
 * steady state.
 */
final class History {
    private final long budget;
    /** Allocated on the first push (an idle pane's scrollback holds no arrays), then doubled when full. */
    private HistoryLine[] ring = NO_LINES;
    /**
     * {@code sizes[i] == ring[i].bytes}: eviction reads the oldest line's size here, in a
     * sequentially walked array, instead of from a line object allocated long ago (a cache
     * miss per line scrolled once the budget is full).
     */
    private int[] sizes = NO_SIZES;
    private static final HistoryLine[] NO_LINES = new HistoryLine[0];
    private static final int[] NO_SIZES = new int[0];
    private int head;
    private int size;
    private long bytes;

    History(long budget) {
        this.budget = budget;
    }

    void push(HistoryLine line) {
        if (line.bytes > budget) {
            return;
        }
        while (size > 0 && bytes + line.bytes > budget) {
            dropOldest();
        }
        if (size == ring.length) {
            int capacity = Math.max(16, ring.length * 2);
            HistoryLine[] bigger = new HistoryLine[capacity];
            int[] biggerSizes = new int[capacity];
            for (int i = 0; i < size; i++) {
                bigger[i] = ring[(head + i) & (ring.length - 1)];
                biggerSizes[i] = sizes[(head + i) & (ring.length - 1)];
            }
            ring = bigger;
            sizes = biggerSizes;
            head = 0;
        }
        int at = (head + size) & (ring.length - 1);
        ring[at] = line;
        sizes[at] = line.bytes;
        size++;
        bytes += line.bytes;
    }

    private void dropOldest() {
        bytes -= sizes[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        size--;
    }

    /** Removes and returns the newest line, or null. */
    HistoryLine popNewest() {
        if (size == 0) {
            return null;
        }
        int at = (head + size - 1) & (ring.length - 1);
        HistoryLine line = ring[at];
        ring[at] = null;
        size--;
        bytes -= line.bytes;
        return line;
    }

    HistoryLine get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return ring[(head + index) & (ring.length - 1)];
    }

    int size() {
        return size;
    }

    long bytes() {
        return bytes;
    }

    void clear() {
        ring = NO_LINES;
        sizes = NO_SIZES;
        head = 0;
        size = 0;
        bytes = 0;
    }
}

package io.artuditu.pty.internal;

/**
 * The newest output bytes of one PTY, at most {@code capacity}. Starts small and doubles as
 * output arrives, so an idle shell keeps a few KiB, a busy one at most the capacity. Not
 * thread-safe: the PTY guards it with its output lock.
 */
final class OutputRing {
    private static final int INITIAL = 4096;
    private final int capacity;
    private byte[] buf = new byte[INITIAL];
    /** Index of the oldest byte. */
    private int start;
    private int size;

    OutputRing(int capacity) {
        this.capacity = capacity;
    }

    void append(byte[] b, int off, int len) {
        if (len >= capacity) {
            grow(capacity);
            System.arraycopy(b, off + len - capacity, buf, 0, capacity);
            start = 0;
            size = capacity;
            return;
        }
        if (size + len > buf.length && buf.length < capacity) {
            grow(Math.min(capacity, Math.max(buf.length * 2, Integer.highestOneBit(size + len - 1) << 1)));
        }
        int drop = size + len - buf.length;
        if (drop > 0) {
            start = (start + drop) % buf.length;
            size -= drop;
        }
        int end = (start + size) % buf.length;
        int first = Math.min(len, buf.length - end);
        System.arraycopy(b, off, buf, end, first);
        System.arraycopy(b, off + first, buf, 0, len - first);
        size += len;
    }

    private void grow(int newLength) {
        if (newLength <= buf.length) {
            return;
        }
        byte[] n = new byte[newLength];
        copyTo(n);
        buf = n;
        start = 0;
    }

    private void copyTo(byte[] dst) {
        int first = Math.min(size, buf.length - start);
        System.arraycopy(buf, start, dst, 0, first);
        System.arraycopy(buf, 0, dst, first, size - first);
    }

    /** The retained bytes, oldest first. */
    byte[] toArray() {
        byte[] out = new byte[size];
        copyTo(out);
        return out;
    }

    int size() {
        return size;
    }

}

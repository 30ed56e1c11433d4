package io.artuditu.vt.internal;

import io.artuditu.vt.Hyperlink;
import java.util.HashMap;
import java.util.Map;

/**
 * The hyperlinks cells may refer to. A cell stores a link's serial (an {@code int}, 0 for
 * none); the table keeps the {@link #CAPACITY} most recently opened links, in a ring indexed
 * by serial, so a lookup is one array read and a check that the slot still holds that serial.
 * Opening a link that is still live (same URI and id) returns its serial; opening a new one
 * evicts the link opened {@code CAPACITY} new links earlier, and cells still referring to it
 * then read as unlinked. Serials wrap after 2^31 opens.
 *
 * <p>The ring's two arrays (about 2 KiB) are allocated by the first link opened: most panes
 * never print one, and eagerly they were about a tenth of an idle pane's heap
 * ({@code bench/results/20261203-pane-memory-shared-reader/per-pane.txt}).
 */
final class LinkTable {
    static final int CAPACITY = 256;

    /** Null until the first {@link #open}. */
    private Hyperlink[] links;
    private int[] serials;
    private final Map<Hyperlink, Integer> live = new HashMap<>();
    private int next = 1;

    int open(Hyperlink link) {
        Integer known = live.get(link);
        if (known != null) {
            return known;
        }
        if (links == null) {
            links = new Hyperlink[CAPACITY];
            serials = new int[CAPACITY];
        }
        int serial = next;
        next = next == Integer.MAX_VALUE ? 1 : next + 1;
        int slot = serial & (CAPACITY - 1);
        if (links[slot] != null) {
            live.remove(links[slot]);
        }
        links[slot] = link;
        serials[slot] = serial;
        live.put(link, serial);
        return serial;
    }

    /** The link with this serial, or null when it is 0 or was evicted. */
    Hyperlink get(int serial) {
        int slot = serial & (CAPACITY - 1);
        return serial != 0 && links != null && serials[slot] == serial ? links[slot] : null;
    }

    /** Whether the ring's arrays exist yet (tests). */
    boolean allocated() {
        return links != null;
    }

    int size() {
        return live.size();
    }
}

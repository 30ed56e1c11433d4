package io.artuditu.tui;

import java.util.ArrayList;
import java.util.List;

/** The short messages stacked above the bottom-right corner: at most {@value #MAX} at once, each for {@value #SHOW_MS} ms. */
final class Toasts {
    /** Toasts shown at once, and how long each stays. */
    static final int MAX = 4;
    static final long SHOW_MS = 4000;

    private final List<App.Toast> shown = new ArrayList<>();
    private final List<Long> expiry = new ArrayList<>();

    void add(String text, String level) {
        shown.add(new App.Toast(text.replace('\n', ' '), level));
        expiry.add(System.currentTimeMillis() + SHOW_MS);
        while (shown.size() > MAX) {
            shown.remove(0);
            expiry.remove(0);
        }
    }

    List<App.Toast> shown() {
        return shown;
    }

    boolean isEmpty() {
        return shown.isEmpty();
    }

    /** The earlier of {@code d} and the next expiry. */
    long deadline(long d) {
        for (long t : expiry) {
            d = Math.min(d, t);
        }
        return d;
    }

    /** Removes the toasts whose time is up; whether any was. */
    boolean expire(long now) {
        boolean any = false;
        for (int i = expiry.size() - 1; i >= 0; i--) {
            if (expiry.get(i) <= now) {
                expiry.remove(i);
                shown.remove(i);
                any = true;
            }
        }
        return any;
    }
}

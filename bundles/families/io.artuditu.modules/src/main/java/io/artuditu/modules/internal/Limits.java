package io.artuditu.modules.internal;

import java.nio.charset.StandardCharsets;

/** The spec's limits for the bar, docks and notifications, and ours where it is silent. */
final class Limits {
    /** Segments in a widget's content or compact content (spec). */
    static final int BAR_SEGMENTS = 16;
    /** Display columns of a widget's content (spec). */
    static final int BAR_COLUMNS = 256;
    /** Live widgets per module (spec). */
    static final int BAR_WIDGETS_PER_MODULE = 16;
    /** Live widgets in the server (spec). */
    static final int BAR_WIDGETS = 64;
    /** Widget, dock and notification updates per module per second (spec: 30 for widgets; ours for the rest). */
    static final int UPDATES_PER_SECOND = 30;
    /** Bytes of a text or value field (spec). */
    static final int FIELD_BYTES = 256;
    /** Notifications queued (spec). */
    static final int NOTIFICATIONS = 32;
    /** Notification TTL clamp (spec), and the default when none is given (ours). */
    static final int TTL_MIN_MS = 500;
    static final int TTL_MAX_MS = 60_000;
    static final int TTL_DEFAULT_MS = 4_000;
    /** Rows of one dock (ours). */
    static final int DOCK_ROWS = 200;
    /** Entries of one row's menu (ours). */
    static final int MENU_ENTRIES = 32;
    /** Mounted docks in the server (ours). */
    static final int DOCKS = 32;

    private Limits() {
    }

    static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** C0 controls, DEL and C1 controls: nothing that could move a cursor or start a sequence. */
    static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                return true;
            }
        }
        return false;
    }
}

package io.artuditu.terminal.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code render_performance} counters of {@code pane.list}: what made screens change,
 * what woke the {@code terminal-notify} and {@code terminal-events} loops, and the frames
 * computed for attached, observing and controlling clients. One instance per
 * {@link Screens}, shared by every screen and stream of this bundle; counting is a
 * {@link LongAdder} increment, safe and cheap on any thread. A count is 64 bits and starts
 * at 0 when the bundle starts; one that wrapped past 2^63 − 1 (centuries away) reads as that
 * maximum. Nothing here names a pane, a client or any text.
 */
public final class RenderCounters {
    /** Each counter; its wire name is its name in lower case. {@code docs/protocol/panes.md} says what moves each. */
    public enum Count {
        /** A chunk of PTY output fed to a screen. */
        RENDER_OUTPUT,
        /** A screen resized to a new size. */
        RENDER_RESIZE,
        /** A viewer moved a screen's viewport into or out of its scrollback. */
        RENDER_SCROLL,
        /** A title set or cleared through the API. */
        RENDER_TITLE,
        /** A screen's PTY output ended. */
        RENDER_EXIT,
        /** {@code terminal-notify} woke from idle because a screen changed. */
        WAKE_NOTIFY_CHANGE,
        /** {@code terminal-notify}'s coalescing window ended with changes already waiting. */
        WAKE_NOTIFY_WINDOW,
        /**
         * {@code terminal-notify} cut its coalescing window short: a screen typed into since its
         * last notification changed (a key's echo), and was fired at once.
         */
        WAKE_NOTIFY_INPUT,
        /** {@code terminal-events} ran the check a screen change queued. */
        WAKE_EVENTS_CHANGE,
        /** {@code terminal-events} ran a due output or bell timer. */
        WAKE_EVENTS_TIMER,
        /** {@code terminal-events} ran a terminal's exit. */
        WAKE_EVENTS_EXIT,
        /** An {@code attach.pane} frame computed (a cell diff against what the client has). */
        PROJECTIONS_ATTACH,
        /** An observe or control {@code terminal_update} computed. */
        PROJECTIONS_STREAM,
        /** A projection that found something new and was sent. */
        PROJECTIONS_CHANGED,
        /** A projection that found the client already up to date; nothing was sent. */
        PROJECTIONS_UNCHANGED,
        /**
         * A screen change that found its stream's next frame already pending (one frame being
         * written, one marked: the two-frame queue full), so it was folded into that frame.
         */
        FRAMES_COALESCED;

        /** The counter's name on the wire. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final LongAdder[] counts = new LongAdder[Count.values().length];

    public RenderCounters() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void add(Count c) {
        counts[c.ordinal()].increment();
    }

    /** One projection of {@code kind} ({@link Count#PROJECTIONS_ATTACH} or {@link Count#PROJECTIONS_STREAM}). */
    public void projected(Count kind, boolean changed) {
        add(kind);
        add(changed ? Count.PROJECTIONS_CHANGED : Count.PROJECTIONS_UNCHANGED);
    }

    public long get(Count c) {
        long n = counts[c.ordinal()].sum();
        return n < 0 ? Long.MAX_VALUE : n;
    }

    /** Every counter by wire name, in declaration order. */
    public Map<String, Long> values() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Count c : Count.values()) {
            m.put(c.wire(), get(c));
        }
        return m;
    }
}

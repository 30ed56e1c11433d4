package io.artuditu.agents.internal.detect;

/**
 * One pane's agent state from its three sources, with one precedence: a live lease
 * ({@code agent.report}) decides; else fresh hook evidence decides; else the screen.
 *
 * <p>The screen cannot tell "at the prompt, nothing asked yet" from "at the prompt after a
 * turn": a screen or hook verdict of {@code idle} reads as {@code done} once the agent has
 * worked (or been blocked) since the user last typed into the pane (seen by a hook, a lease
 * or a screen rule; the manifest's fallback for a screen no rule matches does not count),
 * and stays {@code done}
 * however long it is left on screen. The other way round, a {@code done} screen verdict (a
 * rule that sees a turn's end, still on screen) reads as {@code idle} once the user has
 * typed (or the agent was {@linkplain #launched launched} in the pane) and the agent has
 * not worked since. A keystroke from the user thus ends {@code done}
 * (it is {@code idle} again), and it drops hook evidence of {@code blocked}, {@code done} or
 * {@code idle} that came before it: the user answered or moved on, so that evidence is
 * history, and the screen decides until the next hook (evidence of {@code working} stays,
 * and yields to the next picture that contradicts it, such as the prompt after an
 * interrupt). Only evidence newer than the keystroke counts as work after it (the
 * picture on screen when the user pressed Esc still shows the spinner; if the next one
 * shows the prompt, the agent is idle, not done).
 *
 * <p>Hook evidence of {@code working} holds until a screen rule contradicts it about a
 * picture drawn after the hook, or, for a picture from before it, until
 * {@link #HOOK_FRESH_MILLIS} have passed; while no rule matches it holds; hook evidence
 * of {@code blocked}, {@code done} or {@code idle} holds until the screen shows work after it
 * (it never expires by time alone: a turn that ended stays ended).
 *
 * <p>Not thread-safe: the agents loop owns every tracker. Times are passed in.
 */
public final class PaneTracker {
    /** How long hook evidence of {@code working} outranks a contradicting screen from before it. */
    public static final long HOOK_FRESH_MILLIS = 15_000;

    /** What decided the current status. */
    public enum Source { SCREEN, HOOK, REPORT, PROCESS;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private Verdict screen;
    /** When the screen's revision last changed (a verdict about a new picture). */
    private long screenAtRevision = -1;
    /**
     * The order evidence arrived in, one count per screen picture, hook event and keystroke:
     * "newer than" compares these, never clock times, which two events can share.
     */
    private long order;
    private long screenOrder;
    private long hookOrder;
    private long inputOrder = -1;
    private Status hookStatus;
    private String hookEvent;
    private long hookAt;
    /** Whether the last hook evidence still counts (user input after it drops it). */
    private boolean hookLive;
    private Status leaseStatus;
    /** The agent worked or was blocked since the user last typed. */
    private boolean worked;
    /** The user typed since the agent last worked. */
    private boolean typed;
    /** When the user last typed. */
    private Status status = Status.UNKNOWN;
    private Source source = Source.PROCESS;
    private boolean attention;
    private long since;
    /** The latest time a settle ran at, so a passed deadline is not reported again. */
    private long lastNow = Long.MIN_VALUE;

    /** A new screen verdict; returns whether the status changed. */
    public boolean screen(Verdict v, long now) {
        screen = v;
        if (v != null && v.revision() != screenAtRevision) {
            screenAtRevision = v.revision();
            screenOrder = ++order;
        }
        return settle(now);
    }

    /** Hook evidence (a mapped status; null for an event that means nothing by itself). */
    public boolean hook(String event, Status s, long now) {
        hookEvent = event;
        if (s != null) {
            hookStatus = s;
            hookAt = now;
            hookOrder = ++order;
            hookLive = true;
        }
        return settle(now);
    }

    /** A lease's status, or null when no lease holds. */
    public boolean lease(Status s, long now) {
        leaseStatus = s;
        return settle(now);
    }

    /** The user typed into the pane; returns whether the status changed. */
    public boolean userInput(long now) {
        attention = false;
        worked = false;
        typed = true;
        // A question is answered, a finished turn is history: such evidence ends here. Work
        // goes on until a newer picture says otherwise (a key that opens a view hides the
        // spinner, and the turn still runs).
        if (hookStatus != Status.WORKING) {
            hookLive = false;
        }
        inputOrder = ++order;
        return settle(now);
    }

    /**
     * An agent started in a pane the detector had seen without one (typed at the shell, or
     * started by {@code agent.start}/{@code agent.resume}): what its first screens show (a
     * resumed session's last answer) was asked for, not a turn that ended unseen, so it
     * counts as the person's input: a {@code done} the screen shows reads as {@code idle} until
     * the agent works. Hook evidence stays (a hook can arrive before the process scan has
     * seen the agent start, and a hook's {@code done} is a turn that ended).
     */
    public boolean launched(long now) {
        attention = false;
        worked = false;
        typed = true;
        inputOrder = ++order;
        return settle(now);
    }

    /** The user looked at the pane: it no longer asks for attention. */
    public void focused() {
        attention = false;
    }

    /** Re-evaluates at {@code now} (a hook going stale); returns whether the status changed. */
    public boolean tick(long now) {
        return settle(now);
    }

    /**
     * When hook evidence of {@code working} stops outranking the screen by time, so the
     * caller should {@link #tick} then; 0 when nothing is due (also once a settle at or after
     * that time has run, so a passed deadline is never handed out twice).
     */
    public long nextDeadline() {
        if (hookLive && hookStatus == Status.WORKING) {
            long due = hookAt + HOOK_FRESH_MILLIS;
            return lastNow >= due ? 0 : due;
        }
        return 0;
    }

    public Status status() {
        return status;
    }

    public Source source() {
        return source;
    }

    /** Whether the agent finished or asks something and the user has not typed or looked since. */
    public boolean attention() {
        return attention;
    }

    public long since() {
        return since;
    }

    public Verdict lastVerdict() {
        return screen;
    }

    public String lastHookEvent() {
        return hookEvent;
    }

    /** The last hook evidence's status, null before any; {@link #hookFresh} says whether it still counts. */
    public Status hookStatus() {
        return hookStatus;
    }

    public long hookAt() {
        return hookAt;
    }

    /**
     * Whether hook evidence decides now. {@code working} holds while the screen agrees or
     * says nothing (no rule matched); a rule's contrary verdict ends it once that verdict
     * is about a picture drawn after the hook, or in any case {@link #HOOK_FRESH_MILLIS}
     * after the hook (a turn that fails or is cut short fires no hook, so the screen must
     * win, and a picture from before the hook must not); {@code blocked},
     * {@code done} and {@code idle} hold until the screen changes to show work after them
     * (a question is answered, a new turn starts), however long that takes, or until the
     * user types.
     */
    public boolean hookFresh(long now) {
        if (hookStatus == null || !hookLive) {
            return false;
        }
        boolean screenSays = screen != null && screen.rule() != null;
        if (hookStatus == Status.WORKING) {
            boolean contradicts = screenSays && screen.status() != Status.WORKING;
            return !(contradicts && (screenOrder > hookOrder || now - hookAt >= HOOK_FRESH_MILLIS));
        }
        boolean newerWork = screenSays && screenOrder > hookOrder
                && (screen.status() == Status.WORKING || hookStatus != Status.BLOCKED && screen.status() == Status.BLOCKED);
        return !newerWork;
    }

    private static boolean busy(Status s) {
        return s == Status.WORKING || s == Status.BLOCKED;
    }

    /**
     * Whether a hook or the screen shows work (or a question) newer than {@code t}, whichever
     * source decides the status: the picture on screen when the user pressed Esc still shows
     * the spinner, and is no work after that key. A fallback verdict (no rule matched) is a
     * guess, and a guess is no evidence of work.
     */
    private boolean workSince(long t) {
        boolean hookWork = hookLive && busy(hookStatus) && hookOrder > t;
        boolean screenWork = screen != null && screen.rule() != null && busy(screen.status()) && screenOrder > t;
        return hookWork || screenWork;
    }

    private boolean settle(long now) {
        lastNow = Math.max(lastNow, now);
        Status next;
        Source from;
        if (leaseStatus != null) {
            next = leaseStatus;
            from = Source.REPORT;
        } else if (hookFresh(now)) {
            next = hookStatus;
            from = Source.HOOK;
        } else if (screen != null) {
            next = screen.status();
            // a verdict no rule made is the manifest's fallback: recognised, no evidence yet
            from = screen.rule() != null ? Source.SCREEN : Source.PROCESS;
        } else {
            next = Status.UNKNOWN;
            from = Source.PROCESS;
        }
        if (from == Source.REPORT && busy(next) || workSince(inputOrder)) {
            worked = true;
            typed = false;
        }
        if (from != Source.REPORT) {
            if (next == Status.IDLE && worked) {
                next = Status.DONE;
            } else if (next == Status.DONE && typed && !worked && from == Source.SCREEN) {
                next = Status.IDLE;
            }
        }
        source = from;
        if (next == status) {
            return false;
        }
        if (next == Status.DONE || next == Status.BLOCKED) {
            attention = true;
        } else if (next == Status.WORKING) {
            attention = false;
        }
        status = next;
        since = now;
        return true;
    }
}

package io.artuditu.agents.internal.detect;

/**
 * One pane's agent state from its three sources, with one precedence: a live lease
 * ({@code agent.report}) decides; else fresh hook evidence decides; else the screen.
 *
 * <p>The screen cannot tell "at the prompt, nothing asked yet" from "at the prompt after a
 * turn": a screen verdict of {@code idle} reads as {@code done} once the agent has worked
 * (or been blocked) since the user last typed into the pane, and stays {@code done} however
 * long it is left on screen. A keystroke from the user ends {@code done} (it is
 * {@code idle} again) and drops hook evidence of {@code blocked}: the user is answering,
 * and the next evidence decides.
 *
 * <p>Hook evidence is fresh for {@link #HOOK_FRESH_MILLIS} after it arrived, and for as long
 * as no newer screen verdict contradicts it after that; {@code done} and {@code idle} from a
 * hook never expire by time alone (a turn that ended stays ended).
 *
 * <p>Not thread-safe: the agents loop owns every tracker. Times are passed in.
 */
public final class PaneTracker {
    /** How long hook evidence outranks a contradicting screen. */
    public static final long HOOK_FRESH_MILLIS = 15_000;

    /** What decided the current status. */
    public enum Source { SCREEN, HOOK, REPORT, PROCESS;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private Verdict screen;
    private Status hookStatus;
    private String hookEvent;
    private long hookAt;
    private Status leaseStatus;
    private boolean worked;
    private Status status = Status.UNKNOWN;
    private Source source = Source.PROCESS;
    private boolean attention;
    private long since;

    /** A new screen verdict; returns whether the status changed. */
    public boolean screen(Verdict v, long now) {
        screen = v;
        return settle(now);
    }

    /** Hook evidence (a mapped status; null for an event that means nothing by itself). */
    public boolean hook(String event, Status s, long now) {
        hookEvent = event;
        if (s != null) {
            hookStatus = s;
            hookAt = now;
        }
        return settle(now);
    }

    /** A lease's status, or null when no lease holds. */
    public boolean lease(Status s, long now) {
        leaseStatus = s;
        return settle(now);
    }

    /** The user typed into the pane. */
    public boolean userInput(long now) {
        attention = false;
        worked = false;
        if (hookStatus == Status.BLOCKED || hookStatus == Status.DONE) {
            hookStatus = null;
        }
        if (status == Status.DONE || status == Status.BLOCKED) {
            // the user answered or moved on: until evidence says otherwise the agent is at its prompt
            Status before = status;
            status = Status.IDLE;
            since = now;
            settle(now);
            return status != before;
        }
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

    /** When hook evidence stops being fresh, or 0 when nothing is due. */
    public long nextDeadline() {
        if (hookStatus == Status.WORKING) {
            return hookAt + HOOK_FRESH_MILLIS;
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

    public Status hookStatus() {
        return hookStatus;
    }

    public long hookAt() {
        return hookAt;
    }

    /**
     * Whether hook evidence decides now. {@code working} is fresh for
     * {@link #HOOK_FRESH_MILLIS}, and after that while the screen agrees or says nothing
     * (an interrupted turn fires no hook, so the screen must win in the end); {@code blocked},
     * {@code done} and {@code idle} hold until the screen changes to show work after them
     * (a question is answered, a new turn starts), however long that takes.
     */
    public boolean hookFresh(long now) {
        if (hookStatus == null) {
            return false;
        }
        boolean screenSays = screen != null && screen.rule() != null;
        if (hookStatus == Status.WORKING) {
            return now - hookAt < HOOK_FRESH_MILLIS || !screenSays || screen.status() == Status.WORKING;
        }
        boolean newerWork = screenSays && screenAt > hookAt
                && (screen.status() == Status.WORKING || hookStatus != Status.BLOCKED && screen.status() == Status.BLOCKED);
        return !newerWork;
    }

    private long screenAt;

    private boolean settle(long now) {
        Status next;
        Source from;
        if (screen != null && (screenAtRevision != screen.revision())) {
            screenAtRevision = screen.revision();
            screenAt = now;
        }
        if (leaseStatus != null) {
            next = leaseStatus;
            from = Source.REPORT;
        } else if (hookFresh(now)) {
            next = hookStatus;
            from = Source.HOOK;
        } else if (screen != null) {
            next = screen.status();
            from = Source.SCREEN;
        } else {
            next = Status.UNKNOWN;
            from = Source.PROCESS;
        }
        if (next == Status.WORKING || next == Status.BLOCKED) {
            worked = true;
        }
        if (next == Status.IDLE && worked && from != Source.REPORT) {
            next = Status.DONE;
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

    private long screenAtRevision = -1;
}

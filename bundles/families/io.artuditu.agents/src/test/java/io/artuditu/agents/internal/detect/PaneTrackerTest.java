package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.agents.internal.detect.PaneTracker.Source;
import org.junit.jupiter.api.Test;

/** The precedence of lease, hook and screen, and how idle becomes done and back. */
class PaneTrackerTest {
    final PaneTracker t = new PaneTracker();
    long revision;

    /** A screen verdict matched by a rule, about a new picture. */
    Verdict seen(Status s) {
        return new Verdict(s, "rule-" + s.wire(), "last_rows:4", 50, 0.9, "evidence", 4, ++revision);
    }

    /** A screen no rule matched: the manifest's fallback. */
    Verdict fallback(Status s) {
        return new Verdict(s, null, null, 0, 0, null, 4, ++revision);
    }

    @Test
    void aTurnEndsDoneAndStaysDoneForAnyTime() {
        t.screen(seen(Status.IDLE), 1_000);
        assertEquals(Status.IDLE, t.status());
        assertEquals(Source.SCREEN, t.source());
        t.userInput(2_000);
        t.screen(seen(Status.WORKING), 2_100);
        assertEquals(Status.WORKING, t.status());
        assertTrue(t.screen(seen(Status.IDLE), 9_000));
        assertEquals(Status.DONE, t.status());
        assertTrue(t.attention());
        assertEquals(9_000, t.since());
        assertFalse(t.tick(9_000 + 86_400_000L));
        assertEquals(Status.DONE, t.status());
        t.focused();
        assertFalse(t.attention());
        assertEquals(Status.DONE, t.status(), "looking is not typing");
    }

    @Test
    void typingEndsDone() {
        t.screen(seen(Status.WORKING), 1_000);
        t.screen(seen(Status.IDLE), 2_000);
        assertEquals(Status.DONE, t.status());
        assertTrue(t.userInput(3_000));
        assertEquals(Status.IDLE, t.status());
        assertFalse(t.attention());
        t.screen(seen(Status.IDLE), 3_100);
        assertEquals(Status.IDLE, t.status(), "the same prompt with the user's text in it");
    }

    @Test
    void aDoneRuleStillOnScreenReadsIdleOnceTheUserTyped() {
        t.screen(seen(Status.WORKING), 1_000);
        t.screen(seen(Status.DONE), 2_000);
        assertEquals(Status.DONE, t.status());
        t.userInput(3_000);
        t.screen(seen(Status.DONE), 3_100);
        assertEquals(Status.IDLE, t.status());
    }

    @Test
    void anInterruptSeenOnTheOldPictureIsIdleNotDone() {
        t.screen(seen(Status.WORKING), 1_000);
        t.userInput(2_000);
        assertEquals(Status.WORKING, t.status(), "the spinner is still on screen");
        t.screen(seen(Status.IDLE), 2_050);
        assertEquals(Status.IDLE, t.status(), "no work was seen after the keystroke");
    }

    @Test
    void answeringAQuestionKeepsBlockedUntilThePictureChanges() {
        t.screen(seen(Status.BLOCKED), 1_000);
        assertTrue(t.attention());
        t.userInput(2_000);
        assertEquals(Status.BLOCKED, t.status());
        assertFalse(t.attention(), "the user is answering");
        t.screen(seen(Status.WORKING), 2_050);
        t.screen(seen(Status.IDLE), 5_000);
        assertEquals(Status.DONE, t.status());
    }

    @Test
    void aFallbackGuessIsNoEvidenceOfWork() {
        t.screen(fallback(Status.WORKING), 1_000);
        assertEquals(Status.WORKING, t.status());
        t.screen(seen(Status.IDLE), 2_000);
        assertEquals(Status.IDLE, t.status(), "a start-up screen no rule knew, then the prompt");
    }

    @Test
    void workingFromAHookHoldsWhileTheScreenSaysNothingOrAgrees() {
        t.screen(seen(Status.IDLE), 1_000);
        t.hook("PreToolUse", Status.WORKING, 2_000);
        assertEquals(Status.WORKING, t.status());
        assertEquals(Source.HOOK, t.source());
        t.screen(fallback(Status.UNKNOWN), 3_000);
        assertEquals(Status.WORKING, t.status());
        t.tick(60_000);
        assertEquals(Status.WORKING, t.status(), "the screen still says nothing");
        assertEquals(0, t.nextDeadline(), "once past, a deadline is not handed out again");
    }

    @Test
    void workingFromAHookYieldsToANewerPictureThatContradictsIt() {
        t.screen(seen(Status.WORKING), 1_000);
        t.hook("UserPromptSubmit", Status.WORKING, 1_500);
        t.screen(seen(Status.IDLE), 4_000);
        assertEquals(Status.DONE, t.status(), "a turn that failed fires no hook");
        assertEquals(Source.SCREEN, t.source());
    }

    @Test
    void workingFromAHookOutranksAnOlderPictureForFifteenSeconds() {
        t.screen(seen(Status.IDLE), 1_000);
        t.hook("UserPromptSubmit", Status.WORKING, 2_000);
        assertEquals(2_000 + PaneTracker.HOOK_FRESH_MILLIS, t.nextDeadline());
        t.tick(2_000 + PaneTracker.HOOK_FRESH_MILLIS - 1);
        assertEquals(Status.WORKING, t.status());
        assertTrue(t.tick(2_000 + PaneTracker.HOOK_FRESH_MILLIS));
        assertEquals(Status.DONE, t.status(), "the idle picture from before the hook wins in the end");
        assertEquals(0, t.nextDeadline());
    }

    @Test
    void blockedAndDoneFromHooksHoldUntilTheScreenShowsWork() {
        t.screen(seen(Status.WORKING), 1_000);
        t.hook("Notification", Status.BLOCKED, 1_100);
        assertEquals(Status.BLOCKED, t.status());
        t.screen(seen(Status.IDLE), 1_200);
        t.tick(10_000_000);
        assertEquals(Status.BLOCKED, t.status(), "a question is not answered by time");
        t.screen(seen(Status.WORKING), 10_000_100);
        assertEquals(Status.WORKING, t.status());
        Verdict before = seen(Status.BLOCKED);
        t.screen(before, 10_000_150);
        t.hook("Stop", Status.DONE, 10_000_200);
        t.screen(before, 10_000_200);
        assertEquals(Status.DONE, t.status(), "the picture from before the hook, read again, is not newer");
        t.screen(seen(Status.BLOCKED), 10_000_200);
        assertEquals(Status.BLOCKED, t.status(), "a newer permission prompt outranks done, even in the same millisecond");
    }

    @Test
    void workInTheSameMillisecondAsAKeystrokeCountsWhenItCameAfter() {
        t.screen(seen(Status.IDLE), 1_000);
        t.userInput(2_000);
        t.screen(seen(Status.WORKING), 2_000);
        assertEquals(Status.WORKING, t.status());
        t.screen(seen(Status.IDLE), 2_200);
        assertEquals(Status.DONE, t.status(), "the turn the keystroke started ended: done, though both came in one millisecond");
    }

    @Test
    void userInputDropsEarlierHooksOfBlockedDoneAndIdle() {
        t.screen(seen(Status.WORKING), 1_000);
        t.hook("Notification", Status.BLOCKED, 2_000);
        t.screen(fallback(Status.UNKNOWN), 2_100);
        assertEquals(Status.BLOCKED, t.status());
        t.userInput(2_500);
        assertFalse(t.hookFresh(2_500));
        assertEquals(Status.UNKNOWN, t.status(), "the screen decides again");
        assertEquals("Notification", t.lastHookEvent());
        assertEquals(Status.BLOCKED, t.hookStatus(), "kept for agent.explain");
        t.hook("PostToolUse", Status.WORKING, 2_600);
        assertEquals(Status.WORKING, t.status());
    }

    @Test
    void workingFromAHookOutlivesAKeyThatHidesTheSpinner() {
        t.screen(seen(Status.WORKING), 1_000);
        t.hook("PreToolUse", Status.WORKING, 1_500);
        t.userInput(2_000);
        t.screen(fallback(Status.UNKNOWN), 2_050);
        assertEquals(Status.WORKING, t.status(), "a transcript view: no rule matches, the turn runs on");
        t.screen(seen(Status.IDLE), 9_000);
        assertEquals(Status.IDLE, t.status(), "the prompt came back: newer than the hook, and no work since the key");
    }

    @Test
    void anEventThatMeansNothingChangesNothing() {
        t.screen(seen(Status.IDLE), 1_000);
        assertFalse(t.hook("Unmapped", null, 2_000));
        assertEquals("Unmapped", t.lastHookEvent());
        assertEquals(Source.SCREEN, t.source());
    }

    @Test
    void aLeaseDecidesAndItsIdleStaysIdle() {
        t.screen(seen(Status.WORKING), 1_000);
        t.hook("Stop", Status.DONE, 1_500);
        t.lease(Status.IDLE, 2_000);
        assertEquals(Status.IDLE, t.status());
        assertEquals(Source.REPORT, t.source());
        t.lease(null, 3_000);
        assertEquals(Status.DONE, t.status());
        assertEquals(Source.HOOK, t.source());
    }

    @Test
    void nothingSeenYetIsUnknownFromTheProcess() {
        assertEquals(Status.UNKNOWN, t.status());
        assertEquals(Source.PROCESS, t.source());
        assertFalse(t.tick(5_000));
        assertEquals("process", t.source().wire());
    }

    /** A finished turn on screen is done; the same screen right after a launch (a resumed session) is idle. */
    @Test
    void aFinishedTurnIsDoneUnlessTheAgentWasJustLaunched() {
        t.screen(seen(Status.DONE), 1_000);
        assertEquals(Status.DONE, t.status(), "an agent found mid-session, its last turn unseen");
        assertTrue(t.attention());

        PaneTracker resumed = new PaneTracker();
        resumed.launched(2_000);
        resumed.screen(seen(Status.DONE), 2_100);
        assertEquals(Status.IDLE, resumed.status(), "the person asked for what it shows");
        assertFalse(resumed.attention());
        resumed.screen(seen(Status.WORKING), 3_000);
        resumed.screen(seen(Status.DONE), 4_000);
        assertEquals(Status.DONE, resumed.status(), "a turn after the launch ends done");

        PaneTracker hooked = new PaneTracker();
        hooked.hook("agent-turn-complete", Status.DONE, 5_000);
        hooked.launched(5_100);
        assertEquals(Status.DONE, hooked.status(), "a hook's done before the scan saw the start stays done");
    }
}

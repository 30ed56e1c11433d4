package io.artuditu.terminal.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.artuditu.pty.Pty;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.pty.internal.Host;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The total scrollback budget is shared among live screens as they come and go. */
class ScreensBudgetTest {
    @TempDir
    Path home;

    @Test
    void aNewScreenGetsWhatTheLiveOnesLeaveAndAnExitedOneGivesItsShareBack() throws Exception {
        try (Host host = new Host(home.resolve("native"))) {
            Screens screens = new Screens(host);
            try {
                long per = 200L << 10;
                screens.historyBudget(per);
                screens.totalHistoryBudget(500L << 10);
                Pty a = spawn(host);
                Pty b = spawn(host);
                Pty c = spawn(host);
                Pty d = spawn(host);
                assertEquals(per, budget(screens, a));
                assertEquals(per, budget(screens, b));
                assertEquals(100L << 10, budget(screens, c), "what the total leaves");
                assertEquals(Screens.MIN_HISTORY_BUDGET, budget(screens, d), "never below the minimum");
                a.terminate(0);
                a.exit().get(10, TimeUnit.SECONDS);
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (screens.screen(a.id()).isPresent() && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
                // live: 200 + 100 + 64 KiB of 500 KiB, so 136 KiB are left
                Pty e = spawn(host);
                assertEquals((500L << 10) - per - (100L << 10) - Screens.MIN_HISTORY_BUDGET, budget(screens, e));
                for (Pty p : List.of(b, c, d, e)) {
                    p.terminate(0);
                }
            } finally {
                screens.deactivate();
            }
        }
    }

    static Pty spawn(Host host) throws Exception {
        return host.spawn(new SpawnRequest(List.of("sleep", "30"), Path.of("/"), Map.of(), 40, 10), null);
    }

    static long budget(Screens screens, Pty p) {
        return screens.screen(p.id()).orElseThrow().historyBudget();
    }
}

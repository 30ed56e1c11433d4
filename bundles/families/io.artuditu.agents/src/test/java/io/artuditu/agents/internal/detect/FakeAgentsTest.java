package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.artuditu.vt.Terminal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fake agents ({@code src/test/resources/fake-agents/bin}) are recognised by the built-in
 * manifests as the real ones would be: idle, working, blocked on "approve", done; and they
 * take the session id from their arguments as the real CLIs do. Run here over pipes (the
 * agents then read plain bytes); the integration tests run them in real PTYs.
 */
@Timeout(120)
class FakeAgentsTest {
    static final Path BIN = Path.of("src/test/resources/fake-agents/bin");
    static final long WAIT_MS = 20_000;

    static boolean python() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The fake agent's screen, fed from its output on a reader thread. */
    static final class Pane implements AutoCloseable {
        final Terminal t = Terminal.create(100, 30);
        final Process p;
        final OutputStream in;
        final PaneTracker tracker = new PaneTracker();
        final AgentManifest m;
        final Thread reader;

        Pane(AgentManifest m, List<String> command, Path sessionFile) throws IOException {
            this.m = m;
            ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
            b.environment().put("COLUMNS", "100");
            b.environment().put("LINES", "30");
            b.environment().put("FAKE_AGENT_WORK_MS", "2000");
            b.environment().put("FAKE_AGENT_SESSION_FILE", sessionFile.toString());
            p = b.start();
            in = p.getOutputStream();
            reader = new Thread(() -> {
                byte[] buf = new byte[16384];
                try (InputStream out = p.getInputStream()) {
                    for (int n = out.read(buf); n > 0; n = out.read(buf)) {
                        synchronized (t) {
                            t.feed(buf, 0, n);
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "fake-agent-reader");
            reader.start();
        }

        void type(String keys) throws IOException {
            synchronized (t) {
                tracker.userInput(System.currentTimeMillis());
            }
            in.write(keys.getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** Evaluates the screen every 20 ms until the tracker says {@code want}. */
        void await(Status want) throws InterruptedException {
            long end = System.currentTimeMillis() + WAIT_MS;
            while (System.currentTimeMillis() < end) {
                synchronized (t) {
                    tracker.screen(ScreenRules.evaluate(m, t, t.revision()), System.currentTimeMillis());
                    if (tracker.status() == want) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
            synchronized (t) {
                throw new AssertionError(m.name() + ": no " + want.wire() + " within " + WAIT_MS + " ms; status "
                        + tracker.status().wire() + ", last verdict " + tracker.lastVerdict() + "\n" + t.screenText(false));
            }
        }

        String screen() {
            synchronized (t) {
                return t.screenText(false);
            }
        }

        @Override
        public void close() throws InterruptedException {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            reader.join(5_000);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "claude   | --session-id s-123            | s-123",
        "codex    | resume r-9                    | r-9",
        "gemini   | --resume g-1                  | g-1",
        "aider    | --model sonnet                |",
        "opencode | --session o-1                 | o-1",
        "goose    | session --name n-1 --resume   | n-1",
    })
    void aFakeAgentIsSeenIdleWorkingBlockedAndDone(String kind, String args, String session, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assumeTrue(python(), "python3 is needed for the fake agents");
        AgentManifest m = ManifestSet.load(null, null).get(kind).orElseThrow();
        List<String> command = new ArrayList<>(List.of("python3", BIN.resolve(kind).toString()));
        command.addAll(List.of(args.trim().split(" +")));
        Path sessionFile = dir.resolve("session");
        try (Pane pane = new Pane(m, command, sessionFile)) {
            pane.await(Status.IDLE);
            String id = Files.readString(sessionFile).strip();
            if (session != null) {
                assertEquals(session, id);
            }
            assertTrue(pane.screen().contains("session: " + id), pane.screen());

            pane.type("hello there\r");
            pane.await(Status.WORKING);
            pane.await(Status.DONE);

            pane.type("please approve this\r");
            pane.await(Status.WORKING);
            pane.await(Status.BLOCKED);
            pane.type("1");
            pane.await(Status.WORKING);
            pane.await(Status.DONE);

            pane.type("/exit\r");
            assertTrue(pane.p.waitFor(20, TimeUnit.SECONDS), "the fake agent ends on /exit");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--resume s-1 --fork-session | (forked from s-1)",
        "--resume s-1                | s-1 (resumed)",
    })
    void claudeForksAndResumesByItsArguments(String args, String shown, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assumeTrue(python(), "python3 is needed for the fake agents");
        AgentManifest m = ManifestSet.load(null, null).get("claude").orElseThrow();
        List<String> command = new ArrayList<>(List.of("python3", BIN.resolve("claude").toString()));
        command.addAll(List.of(args.trim().split(" +")));
        try (Pane pane = new Pane(m, command, dir.resolve("session"))) {
            pane.await(Status.IDLE);
            String id = Files.readString(dir.resolve("session")).strip();
            assertTrue(pane.screen().contains("session: " + (shown.startsWith("(") ? id + " " + shown : shown)),
                    pane.screen());
            if (shown.startsWith("(")) {
                assertTrue(!id.equals("s-1"), "a fork is a new session");
            }
        }
    }
}

package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code artu hook}: the requests it sends (to a stand-in server: the agents family that
 * answers them for real is built beside this), and that it exits 0 with nothing on stdout
 * whatever goes wrong. The stand-in is a fake for what the real server would answer; the
 * socket, the process and its stdin are real.
 */
class HookTest {
    private static final String STOP = "{\"session_id\":\"0b6c3f0e-1d2e-4c8a\",\"transcript_path\":\"/t/x.jsonl\","
            + "\"cwd\":\"/home/u/p\",\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}";

    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private FakeServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private Map<String, String> env(String pane) {
        Map<String, String> env = new HashMap<>();
        env.put("ARTUDITU_SOCKET_PATH", dir.resolve("s.sock").toString());
        env.put("ARTUDITU_HOME", dir.toString());
        if (pane != null) {
            env.put("ARTUDITU_PANE_ID", pane);
        }
        return env;
    }

    private int hook(Map<String, String> env, InputStream stdin, String... args) {
        return new Hook(env, stdin, new PrintStream(err, true, StandardCharsets.UTF_8), 300, 500).run(null, List.of(args));
    }

    private static InputStream stdin(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aClaudeHookReportsTheSessionThenTheEventWithThePaneFromTheEnvironment() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        assertEquals(0, hook(env("7"), stdin(STOP + "\n"), "claude", "Stop"));
        assertEquals(List.of(
                "{\"id\":\"1\",\"method\":\"pane.report_session\",\"params\":{\"pane\":\"7\",\"agent\":\"claude\","
                        + "\"session_id\":\"0b6c3f0e-1d2e-4c8a\",\"cwd\":\"/home/u/p\"}}",
                "{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"7\",\"agent\":\"claude\","
                        + "\"event\":\"Stop\",\"session_id\":\"0b6c3f0e-1d2e-4c8a\"}}"),
                server.requests(2));
    }

    @Test
    void aNotificationCarriesItsMessageCutToTheContractsLimitAndTheTokenAsAuth() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        Map<String, String> env = env("3");
        env.put("ARTUDITU_TOKEN", "tok-1");
        String message = "Claude needs your permission to use Bash " + "x".repeat(300);
        assertEquals(0, hook(env, stdin("{\"session_id\":\"s1\",\"hook_event_name\":\"Notification\",\"message\":"
                + MiniJson.quote(message) + "}"), "claude", "Notification"));
        List<String> r = server.requests(2);
        assertTrue(r.get(0).contains("\"auth\":\"tok-1\""), r.get(0));
        Map<String, String> params = MiniJson.members(MiniJson.members(r.get(1)).get("params"));
        assertEquals("\"Notification\"", params.get("event"), "no notification_type: the bare event");
        assertEquals(message.substring(0, Hook.MAX_MESSAGE_CHARS), MiniJson.stringValue(params.get("message")));
    }

    @Test
    void aNotificationOfAKnownKindIsReportedAsEventColonKind() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        assertEquals(0, hook(env("3"), stdin("{\"session_id\":\"s1\",\"hook_event_name\":\"Notification\","
                + "\"message\":\"Claude is waiting for your input\",\"notification_type\":\"idle_prompt\"}"), "claude", "Notification"));
        assertEquals("{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"3\",\"agent\":\"claude\","
                + "\"event\":\"Notification:idle_prompt\",\"message\":\"Claude is waiting for your input\",\"session_id\":\"s1\"}}",
                server.requests(2).get(1));
    }

    /** What Gemini CLI writes to a BeforeTool hook's stdin (JSON.stringify: one line, no newline, then EOF). */
    private static final String GEMINI_BEFORE_TOOL = "{\"session_id\":\"5c4f3e2d-8a1b-4c7d-9e0f-1a2b3c4d5e6f\","
            + "\"transcript_path\":\"/home/u/.gemini/tmp/ab12/chats/session-2026-12-07T17-00-5c4f3e2d.json\","
            + "\"cwd\":\"/home/u/p\",\"hook_event_name\":\"BeforeTool\",\"timestamp\":\"2026-12-07T17:01:02.345Z\","
            + "\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"npm test\",\"description\":\"Run the tests\"}}";

    @Test
    void aGeminiHookReportsTheSessionThenTheEvent() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        assertEquals(0, hook(env("5"), stdin(GEMINI_BEFORE_TOOL), "gemini", "BeforeTool"));
        assertEquals(List.of(
                "{\"id\":\"1\",\"method\":\"pane.report_session\",\"params\":{\"pane\":\"5\",\"agent\":\"gemini\","
                        + "\"session_id\":\"5c4f3e2d-8a1b-4c7d-9e0f-1a2b3c4d5e6f\",\"cwd\":\"/home/u/p\"}}",
                "{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"5\",\"agent\":\"gemini\","
                        + "\"event\":\"BeforeTool\",\"session_id\":\"5c4f3e2d-8a1b-4c7d-9e0f-1a2b3c4d5e6f\"}}"),
                server.requests(2));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aGeminiToolPermissionIsReportedAsNotificationColonToolPermissionWithItsMessage() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        String notification = "{\"session_id\":\"5c4f3e2d\",\"transcript_path\":\"/t.json\",\"cwd\":\"/home/u/p\","
                + "\"hook_event_name\":\"Notification\",\"timestamp\":\"2026-12-07T17:01:03.000Z\","
                + "\"notification_type\":\"ToolPermission\",\"message\":\"Tool run_shell_command requires execution confirmation\","
                + "\"details\":{\"type\":\"exec\",\"title\":\"Confirm Shell Command\",\"command\":\"rm -rf build\",\"rootCommand\":\"rm\"}}";
        assertEquals(0, hook(env("5"), stdin(notification), "gemini", "Notification"));
        assertEquals("{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"5\",\"agent\":\"gemini\","
                + "\"event\":\"Notification:ToolPermission\",\"message\":\"Tool run_shell_command requires execution confirmation\","
                + "\"session_id\":\"5c4f3e2d\"}}", server.requests(2).get(1));
    }

    @Test
    void codexNotifyTakesItsJsonFromTheLastArgumentAndReportsItsType() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        String payload = "{\"type\":\"agent-turn-complete\",\"thread-id\":\"b5f6c1a0-thread\",\"turn-id\":\"12\","
                + "\"cwd\":\"/w\",\"input-messages\":[\"fix it\"],\"last-assistant-message\":\"Fixed the test.\"}";
        // stdin that never ends: with the JSON as an argument it is not read at all
        PipedInputStream never = new PipedInputStream(new PipedOutputStream());
        assertEquals(0, hook(env("12"), never, "codex", "notify", payload));
        assertEquals(List.of(
                "{\"id\":\"1\",\"method\":\"pane.report_session\",\"params\":{\"pane\":\"12\",\"agent\":\"codex\","
                        + "\"session_id\":\"b5f6c1a0-thread\",\"cwd\":\"/w\"}}",
                "{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"12\",\"agent\":\"codex\","
                        + "\"event\":\"agent-turn-complete\",\"message\":\"Fixed the test.\",\"session_id\":\"b5f6c1a0-thread\"}}"),
                server.requests(2));
    }

    @Test
    void malformedInputStillReportsTheEventWithoutASession() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        assertEquals(0, hook(env("1"), stdin("{\"session_id\":\"abc\", oops"), "claude", "PreToolUse"));
        assertEquals(List.of("{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"1\",\"agent\":\"claude\","
                + "\"event\":\"PreToolUse\"}}"), server.requests(1));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aSessionIdOutsideTheContractsFormIsLeftOut() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        assertEquals(0, hook(env("1"), stdin("{\"session_id\":\"../etc\"}"), "claude", "Stop"));
        assertEquals(List.of("{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"1\",\"agent\":\"claude\","
                + "\"event\":\"Stop\"}}"), server.requests(1));
    }

    @Test
    void stdinThatNeverClosesIsGivenUpAtTheDeadlineAndTheEventStillGoes() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        PipedOutputStream writer = new PipedOutputStream();
        PipedInputStream open = new PipedInputStream(writer);
        writer.write("{\"session_id\":\"half".getBytes(StandardCharsets.UTF_8));
        assertEquals(0, hook(env("1"), open, "claude", "Stop"));
        assertEquals(List.of("{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"1\",\"agent\":\"claude\","
                + "\"event\":\"Stop\"}}"), server.requests(1));
        writer.close();
    }

    @Test
    void oneJsonObjectIsEnoughTheWriterNeedNotCloseStdin() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        PipedOutputStream writer = new PipedOutputStream();
        PipedInputStream open = new PipedInputStream(writer);
        writer.write(STOP.getBytes(StandardCharsets.UTF_8));
        assertEquals(0, new Hook(env("1"), open, new PrintStream(err, true, StandardCharsets.UTF_8), 60_000, 500)
                .run(null, List.of("claude", "Stop")));
        assertEquals(2, server.requests(2).size());
        writer.close();
    }

    @Test
    void outsideAPaneNothingIsReadOrSent() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        InputStream untouchable = new InputStream() {
            @Override
            public int read() {
                throw new AssertionError("stdin was read outside a pane");
            }
        };
        assertEquals(0, hook(env(null), untouchable, "claude", "Stop"));
        assertEquals(0, server.connections());
    }

    @Test
    void errorsTheServerAnswersAndServersThatNeverAnswerStillExit0() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"),
                "{\"id\":\"1\",\"error\":{\"code\":\"unknown_method\",\"message\":\"unknown method: pane.report_session\"}}");
        assertEquals(0, hook(env("1"), stdin(STOP), "claude", "Stop"));
        assertEquals(2, server.requests(2).size(), "an error reply to the session does not stop the event");
        server.close();
        server = new FakeServer(dir.resolve("s.sock"), null); // accepts, reads, never answers
        assertEquals(0, hook(env("1"), stdin(STOP), "claude", "Stop"));
        assertEquals(1, server.requests(1).size(), "after the budget is spent nothing more is tried");
        assertTrue(!Thread.currentThread().isInterrupted(), "the watchdog's interrupt stays inside the hook");
    }

    @Test
    void withNoServerItExits0() {
        assertEquals(0, hook(env("1"), stdin(STOP), "claude", "Stop"));
        assertEquals(0, hook(env("1"), stdin(STOP), "claude"), "a hook missing its event is not the agent's problem either");
        assertEquals("", err.toString(StandardCharsets.UTF_8), "nothing on stderr without ARTUDITU_HOOK_DEBUG=1");
        Map<String, String> debug = env("1");
        debug.put("ARTUDITU_HOOK_DEBUG", "1");
        assertEquals(0, hook(debug, stdin(STOP), "claude", "Stop"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("artu hook: pane.report_session: no answer"), err.toString());
    }

    @Test
    void artuRunsTheHookBeforeAnythingThatNeedsTheCommandIndex() throws Exception {
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, new Artu(env("4"), o, e).run(new String[] {"hook", "codex", "notify", "{\"type\":\"agent-turn-complete\"}"}));
        assertEquals(List.of("{\"id\":\"1\",\"method\":\"pane.report_event\",\"params\":{\"pane\":\"4\",\"agent\":\"codex\","
                + "\"event\":\"agent-turn-complete\"}}"), server.requests(1));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertEquals(Artu.USAGE, new Artu(env("4"), o, e).run(new String[] {"hook"}));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertEquals(Artu.OK, new Artu(env("4"), o, e).run(new String[] {"help", "hook"}));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("hook install claude|codex|gemini"), out.toString());
    }

    // --- the whole process: exit status and stdout as the agent sees them ---------------------

    /**
     * {@code java … Artu hook …} as a process, stdin from {@code input} (or left open and
     * silent when null). Every case must end on its own: stdin is given up after 2 s and the
     * network after 500 ms, so the 20 s here only guards against a hang (timings are in
     * bench/hook.py).
     */
    private static int[] process(Map<String, String> env, String input, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "io.artuditu.cli.Artu",
                "hook"));
        Collections.addAll(cmd, args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("ARTUDITU_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (input != null) {
            p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
        }
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "artu hook did not end");
        byte[] stdout = p.getInputStream().readAllBytes();
        byte[] stderr = p.getErrorStream().readAllBytes();
        p.getOutputStream().close();
        return new int[] {p.exitValue(), stdout.length, stderr.length};
    }

    @Test
    void asAProcessItExits0WithNothingOnStdoutWhateverItMeets() throws Exception {
        // no server at the socket path
        assertEquals(List.of(0, 0), List.of(box(process(env("1"), STOP, "claude", "UserPromptSubmit"))));
        // malformed stdin
        assertEquals(List.of(0, 0), List.of(box(process(env("1"), "not json at all {", "claude", "SessionStart"))));
        // stdin never closed, nothing written
        assertEquals(List.of(0, 0), List.of(box(process(env("1"), null, "claude", "Stop"))));
        // no pane
        assertEquals(List.of(0, 0), List.of(box(process(env(null), STOP, "claude", "Stop"))));
        // Gemini CLI parses a hook's stdout (else its stderr) as JSON: both must stay empty
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}");
        int[] gemini = process(env("1"), GEMINI_BEFORE_TOOL, "gemini", "BeforeTool");
        assertEquals(List.of(0, 0, 0), List.of(gemini[0], gemini[1], gemini[2]), "exit status, stdout and stderr bytes");
        assertEquals(2, server.requests(2).size());
        server.close();
        // a server that answers with an error
        server = new FakeServer(dir.resolve("s.sock"), "{\"id\":\"1\",\"error\":{\"code\":\"not_found\",\"message\":\"no pane 1\"}}");
        assertEquals(List.of(0, 0), List.of(box(process(env("1"), STOP, "claude", "Stop"))));
        assertEquals(2, server.requests(2).size());
    }

    private static Integer[] box(int[] a) {
        return new Integer[] {a[0], a[1]};
    }

    /** A stand-in server on a real Unix socket: records each request line, answers each with {@code reply} (null: never). */
    static final class FakeServer implements AutoCloseable {
        private final ServerSocketChannel channel;
        private final Path path;
        private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
        private final List<SocketChannel> open = Collections.synchronizedList(new ArrayList<>());
        private final Thread thread;
        private volatile int connections;

        FakeServer(Path path, String reply) throws IOException {
            this.path = path;
            Files.deleteIfExists(path);
            channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            channel.bind(UnixDomainSocketAddress.of(path));
            thread = new Thread(() -> {
                try {
                    while (true) {
                        SocketChannel c = channel.accept();
                        connections++;
                        String line = readLine(c);
                        synchronized (requests) {
                            requests.add(line);
                            requests.notifyAll();
                        }
                        if (reply == null) {
                            open.add(c);
                            continue;
                        }
                        try (c) {
                            ByteBuffer b = ByteBuffer.wrap((reply + "\n").getBytes(StandardCharsets.UTF_8));
                            while (b.hasRemaining()) {
                                c.write(b);
                            }
                        }
                    }
                } catch (IOException e) {
                    // closed
                }
            }, "fake-uhp-server");
            thread.setDaemon(true);
            thread.start();
        }

        private static String readLine(SocketChannel c) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            ByteBuffer b = ByteBuffer.allocate(1);
            while (c.read(b) > 0) {
                if (b.get(0) == '\n') {
                    break;
                }
                line.write(b.get(0));
                b.clear();
            }
            return line.toString(StandardCharsets.UTF_8);
        }

        /** The first {@code n} requests, waiting up to 10 s for them; then no more may come within 200 ms. */
        List<String> requests(int n) throws InterruptedException {
            long end = System.currentTimeMillis() + 10_000;
            synchronized (requests) {
                while (requests.size() < n && System.currentTimeMillis() < end) {
                    requests.wait(50);
                }
            }
            Thread.sleep(200);
            return List.copyOf(requests);
        }

        int connections() throws InterruptedException {
            Thread.sleep(200);
            return connections;
        }

        @Override
        public void close() throws IOException {
            channel.close();
            for (SocketChannel c : open) {
                c.close();
            }
            Files.deleteIfExists(path);
        }
    }
}

package io.artuditu.cli;

import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpClientException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code artu hook AGENT EVENT [PAYLOAD]}: what an agent's own hook configuration runs on
 * each of its events (docs/agents/hooks.md). It reads the hook's JSON (the PAYLOAD argument,
 * as codex's {@code notify} passes it, else standard input, as Claude Code and Gemini CLI
 * do), then tells the pane's server: {@code pane.report_session} when the JSON names a
 * session, then {@code pane.report_event}.
 *
 * <p>It runs inside the agent's turn, and the agent reads what it does: Claude Code adds a
 * hook's stdout to the model's context for some events and treats exit status 2 as "block
 * this tool". So this command never prints to stdout, always exits 0, and is bounded in
 * time whatever happens around it: standard input is read for at most {@link #STDIN_MILLIS}
 * (and {@link #MAX_INPUT_BYTES}), and both requests share one {@link #NETWORK_MILLIS}
 * budget, enforced by a watchdog that interrupts the channel. Outside a pane
 * ({@code ARTUDITU_PANE_ID} unset) it does nothing. Problems go to stderr only with
 * {@code ARTUDITU_HOOK_DEBUG=1}.
 *
 * <p>On the one-shot path: no Jackson, no contract, no command index; the shared
 * {@link UhpClient} (JDK channels only) and {@link MiniJson}.
 */
final class Hook {
    static final int MAX_INPUT_BYTES = 1 << 20;
    static final long STDIN_MILLIS = 2_000;
    static final long NETWORK_MILLIS = 500;
    static final int MAX_REPLY_BYTES = 64 << 10;
    /** The contract's limits (agents.json): longer values are cut or left out, never sent to be refused. */
    static final int MAX_MESSAGE_CHARS = 256;
    static final int MAX_CWD_CHARS = 4096;
    static final int MAX_SESSION_CHARS = 128;
    static final int MAX_NAME_CHARS = 64;
    static final int MAX_PANE_CHARS = 20;

    private final Map<String, String> env;
    private final InputStream stdin;
    private final PrintStream debug;
    private final long stdinMillis;
    private final long networkMillis;

    /**
     * @param stdin the hook's standard input, or null when it is a terminal or nothing (then
     *     only a PAYLOAD argument is read)
     * @param err where problems go when {@code ARTUDITU_HOOK_DEBUG=1}
     */
    Hook(Map<String, String> env, InputStream stdin, PrintStream err) {
        this(env, stdin, err, STDIN_MILLIS, NETWORK_MILLIS);
    }

    Hook(Map<String, String> env, InputStream stdin, PrintStream err, long stdinMillis, long networkMillis) {
        this.env = env;
        this.stdin = stdin;
        this.debug = "1".equals(env.get("ARTUDITU_HOOK_DEBUG")) ? err : null;
        this.stdinMillis = stdinMillis;
        this.networkMillis = networkMillis;
    }

    /** {@code args}: AGENT EVENT [PAYLOAD], the words after {@code hook}. Always 0. */
    int run(String session, List<String> args) {
        try {
            report(session, args);
        } catch (Throwable t) { // the agent's turn must not see this command fail, whatever it is
            log("failed: " + t);
        }
        return Artu.OK;
    }

    private void report(String session, List<String> args) {
        String pane = env.get("ARTUDITU_PANE_ID");
        if (pane == null || pane.isEmpty()) {
            log("not in an Artuditu pane (ARTUDITU_PANE_ID is unset): nothing sent");
            return;
        }
        if (args.size() < 2) {
            log("usage: artu hook AGENT EVENT [JSON]");
            return;
        }
        String agent = args.get(0);
        String event = args.get(1);
        if (!agentName(agent) || !eventName(event) || pane.length() > MAX_PANE_CHARS) {
            log("not a valid agent, event or pane: " + agent + " " + event + " (pane " + pane + "): nothing sent");
            return;
        }
        String text = args.size() > 2 ? args.get(args.size() - 1) : stdin == null ? null : readStdin();
        Map<String, String> payload = Map.of();
        if (text != null && !text.isBlank()) {
            try {
                payload = MiniJson.members(text);
            } catch (RuntimeException e) {
                log("the hook's input is not a JSON object (" + e.getMessage() + "): reporting the event without it");
            }
        }
        // codex's notify program is one command for every kind of notification; the payload names it
        String type = string(payload, "type");
        if (event.equals("notify") && type != null && eventName(type)) {
            event = type;
        }
        // Claude Code's and Gemini CLI's Notification says which kind it is: a manifest may map
        // Notification:idle_prompt apart from a permission prompt, or Gemini's
        // Notification:ToolPermission (else Notification decides)
        String kind = string(payload, "notification_type");
        if (kind != null && eventName(event + ":" + kind)) {
            event = event + ":" + kind;
        }
        String sessionId = first(payload, "session_id", "thread-id", "thread_id");
        if (sessionId != null && !sessionId(sessionId)) {
            log("session id left out (not of the contract's form): " + sessionId);
            sessionId = null;
        }
        String cwd = string(payload, "cwd");
        if (cwd != null && (cwd.isEmpty() || cwd.length() > MAX_CWD_CHARS)) {
            cwd = null;
        }
        String message = cut(first(payload, "message", "last-assistant-message"), MAX_MESSAGE_CHARS);

        StringBuilder common = new StringBuilder("{\"pane\":").append(MiniJson.quote(pane))
                .append(",\"agent\":").append(MiniJson.quote(agent));
        StringBuilder ev = new StringBuilder(common).append(",\"event\":").append(MiniJson.quote(event));
        if (message != null && !message.isEmpty()) {
            ev.append(",\"message\":").append(MiniJson.quote(message));
        }
        if (sessionId != null) {
            ev.append(",\"session_id\":").append(MiniJson.quote(sessionId));
        }
        ev.append('}');

        SocketLocation location;
        try {
            location = SocketLocation.forClient(env, session);
        } catch (IllegalArgumentException e) {
            log(e.getMessage());
            return;
        }
        UhpClient client = UhpClient.of(location).withToken(env.get("ARTUDITU_TOKEN")).withMaxLineBytes(MAX_REPLY_BYTES);
        Watchdog watchdog = new Watchdog(Thread.currentThread(), System.nanoTime() + networkMillis * 1_000_000L);
        watchdog.start();
        try {
            if (sessionId != null) {
                StringBuilder s = new StringBuilder(common).append(",\"session_id\":").append(MiniJson.quote(sessionId));
                if (cwd != null) {
                    s.append(",\"cwd\":").append(MiniJson.quote(cwd));
                }
                if (!send(client, "pane.report_session", s.append('}').toString())) {
                    return;
                }
            }
            send(client, "pane.report_event", ev.toString());
        } finally {
            watchdog.cancel();
            Thread.interrupted(); // an interrupt that came before the cancel is not the caller's
        }
    }

    /** One request; false when the server could not be reached or did not answer in time (stop there). */
    private boolean send(UhpClient client, String method, String params) {
        try {
            String r = client.call(method, params);
            if (debug != null) {
                log(method + " " + params + " -> " + r);
            }
            return true;
        } catch (UhpClientException.TooLong | UhpClientException.ClosedEarly e) {
            log(method + ": " + e.getMessage());
            return true; // the server took the request; only its answer was unusable
        } catch (IOException e) {
            log(method + ": no answer from " + client.location().logical() + " (" + e + "; the budget is " + networkMillis
                    + " ms)");
            return false;
        }
    }

    /**
     * Standard input up to EOF, the end of its first JSON object (Claude Code writes one
     * object; the pipe need not be closed for us to go on) or the deadline, whichever comes
     * first; null when it holds more than {@link #MAX_INPUT_BYTES}. A reader thread does the
     * reading: a blocking read of a pipe cannot be given a timeout, and a hook whose stdin
     * never closes must not hold the agent.
     */
    private String readStdin() {
        StdinReader r = new StdinReader(stdin);
        r.start();
        long deadline = System.nanoTime() + stdinMillis * 1_000_000L;
        String text = r.await(deadline);
        if (text == null) {
            log("stdin held more than " + MAX_INPUT_BYTES + " bytes: reporting the event without it");
        }
        return text;
    }

    private static final class StdinReader extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        private boolean finished;
        private boolean tooLarge;
        private int depth;
        private boolean started;
        private boolean inString;
        private boolean escaped;

        StdinReader(InputStream in) {
            super("artu-hook-stdin");
            this.in = in;
            setDaemon(true);
        }

        @Override
        public void run() {
            byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = in.read(buf)) > 0) {
                    synchronized (this) {
                        if (bytes.size() + n > MAX_INPUT_BYTES) {
                            tooLarge = true;
                            break;
                        }
                        bytes.write(buf, 0, n);
                        if (objectEnds(buf, n)) {
                            break;
                        }
                    }
                }
            } catch (IOException e) {
                // what was read so far is all there is
            } finally {
                synchronized (this) {
                    finished = true;
                    notifyAll();
                }
            }
        }

        /** Follows the JSON's nesting through this chunk: true once the first value closed. */
        private boolean objectEnds(byte[] b, int n) {
            for (int k = 0; k < n; k++) {
                byte c = b[k];
                if (inString) {
                    if (escaped) {
                        escaped = false;
                    } else if (c == '\\') {
                        escaped = true;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    depth++;
                    started = true;
                } else if ((c == '}' || c == ']') && --depth <= 0 && started) {
                    return true;
                }
            }
            return false;
        }

        synchronized String await(long deadlineNanos) {
            long left;
            while (!finished && (left = deadlineNanos - System.nanoTime()) > 0) {
                try {
                    wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return tooLarge ? null : bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * Interrupts the reporting thread at the deadline, which closes the channel it is blocked
     * on (connect, write or read). {@link #cancel} under the same lock as the interrupt: once
     * it returns, no interrupt can follow.
     */
    private static final class Watchdog extends Thread {
        private final Thread target;
        private final long deadlineNanos;
        private boolean cancelled;

        Watchdog(Thread target, long deadlineNanos) {
            super("artu-hook-watchdog");
            this.target = target;
            this.deadlineNanos = deadlineNanos;
            setDaemon(true);
        }

        @Override
        public synchronized void run() {
            long left;
            while (!cancelled) {
                left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    target.interrupt();
                    return;
                }
                try {
                    wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        synchronized void cancel() {
            cancelled = true;
            notifyAll();
        }
    }

    private static String string(Map<String, String> payload, String key) {
        try {
            return MiniJson.stringValue(payload.get(key));
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String first(Map<String, String> payload, String... keys) {
        for (String k : keys) {
            String v = string(payload, k);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** At most {@code max} UTF-16 units, never half a surrogate pair (so also at most {@code max} code points). */
    static String cut(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, end);
    }

    /** {@code ^[a-z0-9][a-z0-9._-]*$}, at most 64: checked by hand, a regex costs more than the rest here. */
    static boolean agentName(String s) {
        if (s.isEmpty() || s.length() > MAX_NAME_CHARS || !lowerOrDigit(s.charAt(0))) {
            return false;
        }
        for (int k = 1; k < s.length(); k++) {
            char c = s.charAt(k);
            if (!lowerOrDigit(c) && c != '.' && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    /** {@code ^[A-Za-z0-9][A-Za-z0-9._:-]*$}, at most 64. */
    static boolean eventName(String s) {
        return token(s, MAX_NAME_CHARS);
    }

    /** {@code ^[A-Za-z0-9][A-Za-z0-9._:-]*$}, at most 128. */
    static boolean sessionId(String s) {
        return token(s, MAX_SESSION_CHARS);
    }

    private static boolean token(String s, int max) {
        if (s.isEmpty() || s.length() > max || !alnum(s.charAt(0))) {
            return false;
        }
        for (int k = 1; k < s.length(); k++) {
            char c = s.charAt(k);
            if (!alnum(c) && c != '.' && c != '_' && c != ':' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean lowerOrDigit(char c) {
        return c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
    }

    private static boolean alnum(char c) {
        return lowerOrDigit(c) || c >= 'A' && c <= 'Z';
    }

    private void log(String message) {
        if (debug != null) {
            debug.println("artu hook: " + message);
        }
    }
}

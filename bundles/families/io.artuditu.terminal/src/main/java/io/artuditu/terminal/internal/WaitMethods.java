package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.vt.Match;
import io.artuditu.vt.Terminal;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * terminal.backend.wait_change and wait_output: the request thread parks on a
 * {@link Wakeup} and looks again only after the screen changed, so an idle terminal costs
 * nothing. A terminal that exits ends the wait with its exit status; a client that leaves
 * ends it at once.
 */
final class WaitMethods {
    static final int DEFAULT_TIMEOUT_S = 30;
    /** A search may hold the screen lock at most this share of the time while output floods. */
    static final int SEARCH_SPACING_FACTOR = 4;

    private final Terminals terminals;

    WaitMethods(Terminals terminals) {
        this.terminals = terminals;
    }

    private static long deadline(Call call) {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(call.params().path("timeout_s").asLong(DEFAULT_TIMEOUT_S));
    }

    ObjectNode waitChange(Call call) {
        Screen s = terminals.live(call);
        long after = call.params().get("after_revision").longValue();
        long deadline = deadline(call);
        try (Wakeup w = Wakeup.on(s)) {
            call.connection().onClose(w::cancel);
            while (s.revision() <= after && !exited(s)) {
                if (!w.await(deadline)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long revision = s.revision();
        ObjectNode r = call.newObject().put("type", "terminal_change").put("terminal_id", s.terminalId())
                .put("matched", revision > after).put("revision", revision);
        return exitEvidence(r, s);
    }

    ObjectNode waitOutput(Call call) {
        Screen s = terminals.live(call);
        String text = call.params().get("text").textValue();
        if (text.isEmpty()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "text is empty", java.util.Map.of("field", "text"));
        }
        JsonNode afterParam = call.params().get("after_revision");
        long after = afterParam == null ? -1 : afterParam.longValue();
        boolean caseSensitive = call.params().path("case_sensitive").asBoolean(true);
        long deadline = deadline(call);
        Found found = null;
        try (Wakeup w = Wakeup.on(s)) {
            call.connection().onClose(w::cancel);
            while (true) {
                boolean exited = exited(s); // read before the search: an exit's last output is then included
                long t0 = System.nanoTime();
                found = s.read(t -> search(t, s.revision(), after, text, caseSensitive));
                long t1 = System.nanoTime();
                if (found.match() != null || exited || t1 >= deadline || !w.await(deadline)) {
                    break;
                }
                // Under a flood every wake would search: space searches by a multiple of their
                // cost, so waiters hold the screen lock a bounded share of the time.
                long spacing = (t1 - t0) * SEARCH_SPACING_FACTOR - (System.nanoTime() - t1);
                if (spacing > 0 && !sleepUntil(w, Math.min(System.nanoTime() + spacing, deadline))) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long revision = found == null ? s.revision() : found.revision();
        ObjectNode r = call.newObject().put("type", "terminal_output_match").put("terminal_id", s.terminalId())
                .put("matched", found != null && found.match() != null).put("revision", revision);
        if (found != null && found.match() != null) {
            Match m = found.match();
            r.putObject("match").put("line", m.line()).put("col", m.col()).put("end_line", m.endLine())
                    .put("end_col", m.endCol());
        } else {
            r.putNull("match");
        }
        r.put("matches", found == null ? 0 : found.count());
        return exitEvidence(r, s);
    }

    /** The newest occurrence and the count, searched only in a state newer than {@code after}. */
    record Found(long revision, Match match, int count) {
    }

    static Found search(Terminal t, long revision, long after, String text, boolean caseSensitive) {
        if (revision <= after) {
            return new Found(revision, null, 0);
        }
        List<Match> all = t.search(text, caseSensitive, Terminal.MAX_MATCHES);
        return new Found(revision, all.isEmpty() ? null : all.get(all.size() - 1), all.size());
    }

    /** Sleeps until {@code until}, waking early only for a cancel; false when cancelled. */
    private static boolean sleepUntil(Wakeup w, long until) throws InterruptedException {
        long left = until - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
        return !w.cancelled();
    }

    private static boolean exited(Screen s) {
        return s.pty().exitStatus().isPresent();
    }

    private ObjectNode exitEvidence(ObjectNode r, Screen s) {
        OptionalInt st = s.pty().exitStatus();
        r.put("exited", st.isPresent());
        if (st.isPresent()) {
            r.put("exit_status", st.getAsInt());
        } else {
            r.putNull("exit_status");
        }
        return r;
    }
}

package io.artuditu.terminal.internal;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyInputException;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.vt.Input;
import io.artuditu.vt.Key;
import io.artuditu.vt.Keys;
import io.artuditu.vt.Mode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns the input actions (type literal text, submit text, send a key) into one queued PTY
 * write each, for the methods and for control lines alike. Encoding follows the program's
 * modes, read under the screen's lock; the write itself never blocks. Every refusal is a
 * {@link UhpException}: too much text or a bad key {@code invalid_request}, a full input
 * queue {@code invalid_request} with reason {@code input_backlog}, an exited program
 * {@code not_found} with evidence.
 */
final class InputWriter {
    /** Most UTF-8 bytes of text one call may carry. */
    static final int MAX_TEXT_BYTES = 65_536;
    static final int MAX_REPEAT = 100;
    private static final byte[] ENTER = {'\r'};

    /** What one action queued. */
    record Written(int bytes, int pendingBytes, long revision, boolean bracketed) {
    }

    private final Terminals terminals;

    InputWriter(Terminals terminals) {
        this.terminals = terminals;
    }

    Written typeLiteral(Screen s, String text) {
        byte[] b = checked(text, "text");
        if (b.length == 0) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "text is empty", Map.of("field", "text"));
        }
        return write(s, b, false);
    }

    Written submit(Screen s, String text) {
        checked(text, "text");
        boolean[] bracketed = new boolean[1];
        byte[] paste = s.read(t -> {
            bracketed[0] = t.mode(Mode.BRACKETED_PASTE);
            return Input.paste(text, t);
        });
        byte[] all = new byte[paste.length + ENTER.length];
        System.arraycopy(paste, 0, all, 0, paste.length);
        System.arraycopy(ENTER, 0, all, paste.length, ENTER.length);
        return write(s, all, bracketed[0]);
    }

    Written sendKey(Screen s, String spec, int repeat) {
        if (repeat < 1 || repeat > MAX_REPEAT) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "repeat must be 1.." + MAX_REPEAT,
                    Map.of("field", "repeat", "min", 1, "max", MAX_REPEAT));
        }
        Key key;
        try {
            key = Keys.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "invalid key '" + clip(spec) + "': " + e.getMessage(),
                    Map.of("field", "key", "key", clip(spec)));
        }
        Key parsed = key;
        byte[] one = s.read(t -> Keys.encode(parsed, t));
        byte[] all = new byte[one.length * repeat];
        for (int i = 0; i < repeat; i++) {
            System.arraycopy(one, 0, all, i * one.length, one.length);
        }
        return write(s, all, false);
    }

    private static byte[] checked(String text, String field) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_TEXT_BYTES) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, field + " is " + b.length + " bytes of UTF-8; at most "
                    + MAX_TEXT_BYTES + " per call", Map.of("field", field, "bytes", b.length, "limit", MAX_TEXT_BYTES));
        }
        return b;
    }

    private Written write(Screen s, byte[] bytes, boolean bracketed) {
        long revision = s.revision();
        Pty pty = s.pty();
        try {
            s.input(bytes);
        } catch (PtyInputException e) {
            if (e.reason() == PtyInputException.Reason.EXITED) {
                throw terminals.exitedDuringCall(s);
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("reason", "input_backlog");
            d.put("terminal_id", s.terminalId());
            d.put("pending_bytes", e.pending());
            d.put("limit", Pty.MAX_PENDING_INPUT);
            throw new UhpException(ErrorCode.INVALID_REQUEST, "the program is not reading its input: "
                    + e.pending() + " bytes are queued and the limit is " + Pty.MAX_PENDING_INPUT + "; nothing was queued", d);
        }
        return new Written(bytes.length, pty.pendingInput(), revision, bracketed);
    }

    static String clip(String s) {
        return s.length() > Keys.MAX_SPEC ? s.substring(0, Keys.MAX_SPEC) + "…" : s;
    }
}

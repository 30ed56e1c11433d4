package io.artuditu.vt.internal;

import java.util.Objects;

/**
 * The byte-level state machine, after the DEC/VT500 parser model: each (state, byte) pair
 * looks up one table entry giving the action to run and the next state; leaving and entering
 * a state run that state's exit and entry actions. UTF-8 is decoded in the ground state only;
 * the 8-bit C1 controls are not recognised (they are UTF-8 continuation bytes).
 *
 * <p>Bounds: at most {@link #MAX_PARAMS} parameters (more are dropped), each clamped to
 * {@link #MAX_PARAM_VALUE}; one intermediate byte and one private prefix (a sequence with
 * more is ignored); OSC strings up to the configured length (a longer one is discarded byte by
 * byte as it arrives, then ignored); DCS and SOS/PM/APC payloads are consumed and not kept.
 *
 * <p>Printable ASCII in the ground state is handed to {@link Emulator#printAscii} as a run,
 * without a table lookup per byte.
 */
final class Parser {
    static final int MAX_PARAMS = 32;
    static final int MAX_PARAM_VALUE = 65535;

    static final int GROUND = 0;
    static final int ESCAPE = 1;
    static final int ESCAPE_INTERMEDIATE = 2;
    static final int CSI_ENTRY = 3;
    static final int CSI_PARAM = 4;
    static final int CSI_INTERMEDIATE = 5;
    static final int CSI_IGNORE = 6;
    static final int DCS_ENTRY = 7;
    static final int DCS_PARAM = 8;
    static final int DCS_INTERMEDIATE = 9;
    static final int DCS_PASSTHROUGH = 10;
    static final int DCS_IGNORE = 11;
    static final int OSC_STRING = 12;
    static final int SOS_PM_APC_STRING = 13;
    private static final int STATES = 14;

    private static final int NONE = 0;
    private static final int PRINT = 1;
    private static final int EXECUTE = 2;
    private static final int COLLECT = 3;
    private static final int PARAM = 4;
    private static final int ESC_DISPATCH = 5;
    private static final int CSI_DISPATCH = 6;
    private static final int PUT = 7;
    private static final int OSC_PUT = 8;

    /** {@code (action << 4) | nextState} for {@code (state << 8) | byte}. */
    private static final byte[] TABLE = new byte[STATES * 256];

    static {
        for (int s = 0; s < STATES; s++) {
            on(s, 0x00, 0xFF, NONE, s);
        }
        // C0 controls run in every state but the string states.
        for (int s : new int[] {GROUND, ESCAPE, ESCAPE_INTERMEDIATE, CSI_ENTRY, CSI_PARAM, CSI_INTERMEDIATE, CSI_IGNORE}) {
            on(s, 0x00, 0x17, EXECUTE, s);
            on(s, 0x19, 0x19, EXECUTE, s);
            on(s, 0x1C, 0x1F, EXECUTE, s);
        }
        on(GROUND, 0x20, 0x7E, PRINT, GROUND);
        on(GROUND, 0x80, 0xFF, PRINT, GROUND);

        on(ESCAPE, 0x20, 0x2F, COLLECT, ESCAPE_INTERMEDIATE);
        on(ESCAPE, 0x30, 0x7E, ESC_DISPATCH, GROUND);
        on(ESCAPE, 'P', 'P', NONE, DCS_ENTRY);
        on(ESCAPE, '[', '[', NONE, CSI_ENTRY);
        on(ESCAPE, ']', ']', NONE, OSC_STRING);
        on(ESCAPE, 'X', 'X', NONE, SOS_PM_APC_STRING);
        on(ESCAPE, '^', '^', NONE, SOS_PM_APC_STRING);
        on(ESCAPE, '_', '_', NONE, SOS_PM_APC_STRING);

        on(ESCAPE_INTERMEDIATE, 0x20, 0x2F, COLLECT, ESCAPE_INTERMEDIATE);
        on(ESCAPE_INTERMEDIATE, 0x30, 0x7E, ESC_DISPATCH, GROUND);

        on(CSI_ENTRY, 0x20, 0x2F, COLLECT, CSI_INTERMEDIATE);
        on(CSI_ENTRY, 0x30, 0x3B, PARAM, CSI_PARAM);
        on(CSI_ENTRY, 0x3C, 0x3F, COLLECT, CSI_PARAM);
        on(CSI_ENTRY, 0x40, 0x7E, CSI_DISPATCH, GROUND);

        on(CSI_PARAM, 0x20, 0x2F, COLLECT, CSI_INTERMEDIATE);
        on(CSI_PARAM, 0x30, 0x3B, PARAM, CSI_PARAM);
        on(CSI_PARAM, 0x3C, 0x3F, NONE, CSI_IGNORE);
        on(CSI_PARAM, 0x40, 0x7E, CSI_DISPATCH, GROUND);

        on(CSI_INTERMEDIATE, 0x20, 0x2F, COLLECT, CSI_INTERMEDIATE);
        on(CSI_INTERMEDIATE, 0x30, 0x3F, NONE, CSI_IGNORE);
        on(CSI_INTERMEDIATE, 0x40, 0x7E, CSI_DISPATCH, GROUND);

        on(CSI_IGNORE, 0x40, 0x7E, NONE, GROUND);

        on(DCS_ENTRY, 0x20, 0x2F, COLLECT, DCS_INTERMEDIATE);
        on(DCS_ENTRY, 0x30, 0x3B, PARAM, DCS_PARAM);
        on(DCS_ENTRY, 0x3C, 0x3F, COLLECT, DCS_PARAM);
        on(DCS_ENTRY, 0x40, 0x7E, NONE, DCS_PASSTHROUGH);

        on(DCS_PARAM, 0x20, 0x2F, COLLECT, DCS_INTERMEDIATE);
        on(DCS_PARAM, 0x30, 0x3B, PARAM, DCS_PARAM);
        on(DCS_PARAM, 0x3C, 0x3F, NONE, DCS_IGNORE);
        on(DCS_PARAM, 0x40, 0x7E, NONE, DCS_PASSTHROUGH);

        on(DCS_INTERMEDIATE, 0x20, 0x2F, COLLECT, DCS_INTERMEDIATE);
        on(DCS_INTERMEDIATE, 0x30, 0x3F, NONE, DCS_IGNORE);
        on(DCS_INTERMEDIATE, 0x40, 0x7E, NONE, DCS_PASSTHROUGH);

        on(DCS_PASSTHROUGH, 0x00, 0x17, PUT, DCS_PASSTHROUGH);
        on(DCS_PASSTHROUGH, 0x19, 0x19, PUT, DCS_PASSTHROUGH);
        on(DCS_PASSTHROUGH, 0x1C, 0x7E, PUT, DCS_PASSTHROUGH);
        on(DCS_PASSTHROUGH, 0x80, 0xFF, PUT, DCS_PASSTHROUGH);

        on(OSC_STRING, 0x20, 0xFF, OSC_PUT, OSC_STRING);
        on(OSC_STRING, 0x7F, 0x7F, NONE, OSC_STRING);
        on(OSC_STRING, 0x07, 0x07, NONE, GROUND);

        // Anywhere: CAN and SUB cancel, ESC starts over (and ends a string: ESC \ is ST).
        for (int s = 0; s < STATES; s++) {
            on(s, 0x18, 0x18, s <= CSI_IGNORE ? EXECUTE : NONE, GROUND);
            on(s, 0x1A, 0x1A, s <= CSI_IGNORE ? EXECUTE : NONE, GROUND);
            on(s, 0x1B, 0x1B, NONE, ESCAPE);
        }
    }

    private static void on(int state, int from, int to, int action, int next) {
        for (int b = from; b <= to; b++) {
            TABLE[(state << 8) | b] = (byte) ((action << 4) | next);
        }
    }

    private final Emulator emu;
    private final int maxString;
    /** The longer bound for an OSC 52 string when clipboard writes are allowed. */
    private final int maxClipboardString;
    /** The bound for the OSC string being read: maxString until it proves to be an OSC 52. */
    private int stringLimit;

    int state = GROUND;

    private int utfNeed;
    private int utfCp;
    private int utfMin;

    final int[] params = new int[MAX_PARAMS];
    int paramCount;
    /** Bit i: parameter i followed a ':' (a sub-parameter of the one before). */
    long subMask;
    private int current;
    private boolean paramSeen;
    private boolean nextIsSub;
    /** The private prefix ('<', '=', '>', '?') or 0. */
    int prefix;
    /** The intermediate byte (0x20–0x2F) or 0. */
    int intermediate;
    private boolean malformed;

    private byte[] string = new byte[64];
    private int stringLen;
    private boolean stringOverflow;

    Parser(Emulator emu, int maxString, int maxClipboardString) {
        this.emu = emu;
        this.maxString = maxString;
        this.maxClipboardString = maxClipboardString;
    }

    void feed(byte[] buf, int off, int len) {
        Objects.checkFromIndexSize(off, len, buf.length);
        int end = off + len;
        int i = off;
        while (i < end) {
            int c = buf[i] & 0xFF;
            if (state == GROUND) {
                if (utfNeed == 0) {
                    if (c >= 0x20 && c < 0x7F) {
                        i = emu.printAscii(buf, i, end);
                        continue;
                    }
                    if (c >= 0x80) {
                        i++;
                        utfStart(c);
                        continue;
                    }
                } else {
                    if ((c & 0xC0) == 0x80) {
                        i++;
                        utfContinue(c);
                        continue;
                    }
                    // Truncated sequence: one replacement, then this byte on its own.
                    utfNeed = 0;
                    emu.print(0xFFFD);
                    continue;
                }
            }
            i++;
            int t = TABLE[(state << 8) | c];
            int next = t & 0x0F;
            int action = (t >>> 4) & 0x0F;
            if (next != state || c == 0x1B) {
                leave(state, c);
                act(action, c);
                state = next;
                enter(next);
            } else {
                act(action, c);
            }
        }
    }

    private void utfStart(int c) {
        if (c >= 0xC2 && c <= 0xDF) {
            utfNeed = 1;
            utfCp = c & 0x1F;
            utfMin = 0x80;
        } else if (c >= 0xE0 && c <= 0xEF) {
            utfNeed = 2;
            utfCp = c & 0x0F;
            utfMin = 0x800;
        } else if (c >= 0xF0 && c <= 0xF4) {
            utfNeed = 3;
            utfCp = c & 0x07;
            utfMin = 0x10000;
        } else {
            emu.print(0xFFFD);
        }
    }

    private void utfContinue(int c) {
        utfCp = (utfCp << 6) | (c & 0x3F);
        if (--utfNeed == 0) {
            int cp = utfCp;
            boolean bad = cp < utfMin || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF);
            emu.print(bad ? 0xFFFD : cp);
        }
    }

    private void leave(int from, int c) {
        if (from == OSC_STRING && (c == 0x07 || c == 0x1B) && !stringOverflow) {
            emu.osc(string, stringLen);
        }
        if (from == OSC_STRING && string.length > 256) {
            // Keep the idle footprint small after a long title.
            string = new byte[64];
        }
    }

    private void enter(int to) {
        switch (to) {
            case ESCAPE:
            case CSI_ENTRY:
            case DCS_ENTRY:
                paramCount = 0;
                subMask = 0;
                current = 0;
                paramSeen = false;
                nextIsSub = false;
                prefix = 0;
                intermediate = 0;
                malformed = false;
                break;
            case OSC_STRING:
                stringLen = 0;
                stringOverflow = false;
                stringLimit = maxString;
                break;
            default:
                break;
        }
    }

    private void act(int action, int c) {
        switch (action) {
            case NONE:
            case PUT:
                break;
            case PRINT:
                emu.print(c);
                break;
            case EXECUTE:
                emu.execute(c);
                break;
            case COLLECT:
                if (c >= 0x3C) {
                    prefix = c;
                } else if (intermediate == 0) {
                    intermediate = c;
                } else {
                    malformed = true;
                }
                break;
            case PARAM:
                param(c);
                break;
            case ESC_DISPATCH:
                if (!malformed) {
                    emu.escDispatch(intermediate, c);
                }
                break;
            case CSI_DISPATCH:
                if (paramSeen) {
                    pushParam();
                }
                if (!malformed) {
                    emu.csiDispatch(this, c);
                }
                break;
            case OSC_PUT:
                if (stringLen < stringLimit) {
                    if (stringLen == string.length) {
                        string = java.util.Arrays.copyOf(string, Math.min(stringLimit, string.length * 2));
                    }
                    string[stringLen++] = (byte) c;
                    if (stringLen == 3 && string[0] == '5' && string[1] == '2' && string[2] == ';') {
                        stringLimit = maxClipboardString;
                    }
                } else {
                    stringOverflow = true;
                }
                break;
            default:
                throw new AssertionError(action);
        }
    }

    private void param(int c) {
        paramSeen = true;
        if (c == ';' || c == ':') {
            pushParam();
            nextIsSub = c == ':';
            return;
        }
        current = Math.min(current * 10 + (c - '0'), MAX_PARAM_VALUE);
    }

    private void pushParam() {
        if (paramCount < MAX_PARAMS) {
            if (nextIsSub) {
                subMask |= 1L << paramCount;
            }
            params[paramCount++] = current;
        }
        current = 0;
        nextIsSub = false;
    }

    /** Bytes this parser holds on the input's account (for the bounded-memory test). */
    int retainedBytes() {
        return string.length + params.length * 4;
    }
}

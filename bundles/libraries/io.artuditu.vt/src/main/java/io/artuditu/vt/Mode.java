package io.artuditu.vt;

/** Terminal modes a client needs to encode keys, paste and mouse input for the program. */
public enum Mode {
    /** DECCKM (?1): cursor keys send {@code ESC O} sequences. */
    APPLICATION_CURSOR_KEYS,
    /** DECKPAM / DECKPNM ({@code ESC =} / {@code ESC >}). */
    APPLICATION_KEYPAD,
    /** DECOM (?6): cursor addressing relative to the scroll region. */
    ORIGIN,
    /** DECAWM (?7). On by default. */
    AUTOWRAP,
    /** IRM (4): printing shifts the rest of the line right. */
    INSERT,
    /** LNM (20): line feed also returns the carriage. */
    NEWLINE,
    /** DECTCEM (?25). On by default. */
    CURSOR_VISIBLE,
    /** ?47, ?1047 or ?1049 is set: the alternate screen is shown. */
    ALTERNATE_SCREEN,
    /** ?2004. */
    BRACKETED_PASTE,
    /** ?1004: report focus in and out. */
    FOCUS_EVENTS,
    /** ?1000: report button presses and releases. */
    MOUSE_BUTTONS,
    /** ?1002: also report motion while a button is held. */
    MOUSE_DRAG,
    /** ?1003: report all motion. */
    MOUSE_ANY,
    /** ?1006: SGR-style mouse reports. */
    MOUSE_SGR,
    /** DECSCNM (?5): reverse video for the whole screen. */
    REVERSE_VIDEO
}

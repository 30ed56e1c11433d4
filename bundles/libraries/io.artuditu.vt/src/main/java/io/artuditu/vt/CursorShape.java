package io.artuditu.vt;

/** The cursor shape a program asked for with DECSCUSR ({@code CSI Ps SP q}). */
public enum CursorShape {
    /** Ps 0 or never set: the client's own default. */
    DEFAULT,
    BLINKING_BLOCK,
    STEADY_BLOCK,
    BLINKING_UNDERLINE,
    STEADY_UNDERLINE,
    BLINKING_BAR,
    STEADY_BAR
}

package io.artuditu.sdk;

import java.util.Locale;

/** The six bar tones; the theme decides their colours. */
public enum Tone {
    NORMAL, MUTED, ACCENT, SUCCESS, WARNING, ERROR;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}

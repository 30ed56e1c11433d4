package io.artuditu.vt;

import java.util.Objects;

/**
 * One key press: a key and the modifiers held with it. Usually made by {@link Keys#parse} and
 * turned into bytes by {@link Keys#encode}.
 *
 * @param name the key: a named key in lower case ({@code "enter"}, {@code "up"},
 *     {@code "page_down"}, {@code "f5"}, {@code "space"}, ...; the list is in
 *     {@code docs/vt.md}, "Input encoding") or one character ({@code "a"}, {@code "A"},
 *     {@code "é"}, {@code "+"}). The constructor accepts named keys in any case,
 *     {@code "escape"} for {@code "esc"} and {@code " "} for {@code "space"}, and stores the
 *     canonical name.
 * @param ctrl Control held
 * @param alt Alt (Meta) held
 * @param shift Shift held
 */
public record Key(String name, boolean ctrl, boolean alt, boolean shift) {

    /**
     * Checks the name and stores its canonical form.
     *
     * @throws IllegalArgumentException for an unknown name, or a character that is a control
     *     character or an unpaired surrogate
     */
    public Key {
        Objects.requireNonNull(name, "name");
        if (name.equals(" ")) {
            name = "space";
        } else if (name.codePointCount(0, name.length()) == 1) {
            int cp = name.codePointAt(0);
            if (Character.isISOControl(cp) || Character.getType(cp) == Character.SURROGATE) {
                throw new IllegalArgumentException(String.format(
                        "key U+%04X is a control character or a lone surrogate; use a key name such as \"enter\"", cp));
            }
        } else {
            KeyName k = KeyName.of(name);
            if (k == null) {
                throw new IllegalArgumentException("unknown key '" + name + "'");
            }
            name = k.spec();
        }
    }

    /**
     * The character the key types before modifiers apply: the code point of a character key,
     * {@code ' '} for space, -1 for the other named keys.
     */
    public int codepoint() {
        if (name.equals("space")) {
            return ' ';
        }
        return name.codePointCount(0, name.length()) == 1 ? name.codePointAt(0) : -1;
    }

    /** The spec {@link Keys#parse} reads back as this key: "ctrl+alt+shift+" as held, then the name. */
    public String spec() {
        return (ctrl ? "ctrl+" : "") + (alt ? "alt+" : "") + (shift ? "shift+" : "") + name;
    }

    KeyName named() {
        return name.codePointCount(0, name.length()) == 1 ? null : KeyName.of(name);
    }
}

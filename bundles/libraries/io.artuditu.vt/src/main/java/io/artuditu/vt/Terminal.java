package io.artuditu.vt;

import io.artuditu.vt.internal.Emulator;
import java.util.BitSet;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * One terminal's state: the screen a program drew by writing to its PTY, its scrollback,
 * cursor, title and input modes.
 *
 * <p><b>Threading.</b> Not thread-safe. One thread owns a terminal and makes every call,
 * {@link #feed} and reads alike; a reader on another thread must hold the same lock as the
 * feeder. Nothing blocks and no thread is started.
 *
 * <p><b>Trust.</b> The bytes fed are untrusted program output. Every buffer the terminal
 * keeps on their account is bounded by {@link Limits} or by fixed limits listed in
 * {@code docs/vt.md}; malformed input is ignored or replaced, never thrown.
 *
 * <p>Rows and columns are 0-based here, unlike the 1-based escape sequences.
 *
 * <p>Implemented by this bundle only ({@link #create}); callers never implement it, so a new
 * method is a minor change of the package.
 */
@ProviderType
public interface Terminal {

    /** A terminal of {@code cols} × {@code rows} cells (each clamped to 1–4096). */
    static Terminal create(int cols, int rows, Limits limits) {
        return new Emulator(cols, rows, limits);
    }

    static Terminal create(int cols, int rows) {
        return new Emulator(cols, rows, Limits.DEFAULT);
    }

    /** Parses and applies {@code len} bytes; sequences and UTF-8 may be split across calls. */
    void feed(byte[] buf, int off, int len);

    default void feed(byte[] buf) {
        feed(buf, 0, buf.length);
    }

    /**
     * Changes the size. On the primary screen, lines that wrapped are re-wrapped to the new
     * width (scrollback included) and the cursor keeps its place in the text; rows lost go
     * into the scrollback and rows gained come back from it. The alternate screen is cut or
     * padded. See {@code docs/vt.md}, "Resize".
     */
    void resize(int cols, int rows);

    int cols();

    int rows();

    Limits limits();

    // --- screen ---

    /** The visible screen, one line per row joined by {@code \n}, trailing blanks trimmed. */
    String screenText(boolean withSgr);

    /** One visible row as text, trailing blanks trimmed. */
    String rowText(int row, boolean withSgr);

    /** The cell's base code point, 0 for an empty cell or the right half of a wide character. */
    int codepoint(int row, int col);

    /** The cell's text with its combining marks; " " when empty, "" for a wide character's right half. */
    String grapheme(int row, int col);

    /** 2 for a wide character's left half, 0 for its right half, otherwise 1. */
    int width(int row, int col);

    /** The cell's rendition, decoded with {@link Style}. */
    long style(int row, int col);

    /**
     * The cell's underline colour (SGR 58) in the form of {@link Style#fg}: a palette index
     * or RGB, or {@link Style#COLOR_DEFAULT} (0) when the underline takes the text's colour.
     * Kept whether or not the cell is underlined, as the program set it.
     */
    int underlineColor(int row, int col);

    /** Whether the row continues on the next one because the text wrapped there. */
    boolean wrapped(int row);

    // --- cursor, title, modes ---

    int cursorRow();

    int cursorCol();

    boolean cursorVisible();

    CursorShape cursorShape();

    /** The title set by OSC 0 or OSC 2; "" until one is set. */
    String title();

    boolean mode(Mode mode);

    /** Whether any mouse tracking mode (1000, 1002, 1003) is on. */
    boolean wantsMouse();

    // --- replies ---

    /**
     * Bytes the terminal owes the program (answers to status and attribute queries), in
     * order, to be written to the PTY; the queue is emptied. Empty when there are none.
     */
    byte[] takeReplies();

    // --- change tracking ---

    /** Grows by at least one after every {@link #feed} or {@link #resize} that changed anything visible. */
    long revision();

    /** Rows whose content changed after {@code revision}; all rows for a revision older than the last resize. */
    BitSet rowsChangedSince(long revision);

    // --- scrollback ---

    /** Lines in the scrollback, oldest first. */
    int historySize();

    /** One scrollback line (0 is the oldest) as text, trailing blanks trimmed. */
    String historyText(int index, boolean withSgr);

    /**
     * Scrollback lines {@code from} (inclusive) to {@code to} (exclusive) as text, one line
     * each joined by {@code \n}, trailing blanks trimmed; with {@code withSgr} each line
     * carries the SGR sequences of its renditions and ends reset.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= from <= to <= historySize()}
     */
    String historyText(int from, int to, boolean withSgr);

    /** Most matches {@link #search} returns, whatever the caller asks for. */
    int MAX_MATCHES = 10_000;

    /**
     * Finds {@code needle} as plain text (no patterns) in the scrollback and then the screen,
     * in order, without overlaps. Rows joined by a wrap are searched as one line, so a match
     * may cross the wrap. Without {@code caseSensitive} letters are compared case-folded one
     * UTF-16 unit at a time. At most {@code min(maxMatches, MAX_MATCHES)} matches are
     * returned; an empty needle matches nothing.
     */
    List<Match> search(String needle, boolean caseSensitive, int maxMatches);

    /** Whether the scrollback line continues on the next one because the text wrapped. */
    boolean historyWrapped(int index);

    /** Bytes the scrollback retains, counted exactly as {@code docs/vt.md} describes; at most {@link Limits#historyBytes()}. */
    long historyBytes();

    // --- shell integration and other OSC commands (docs/vt.md, "OSC and shell integration") ---

    /** The directory the shell last reported with OSC 7, or null until it reports one. */
    WorkingDirectory workingDirectory();

    /** The hyperlink (OSC 8) of a visible cell, or null. */
    Hyperlink link(int row, int col);

    /** The hyperlink of a scrollback cell, or null (also once the link was evicted from the table). */
    Hyperlink historyLink(int index, int col);

    /** The {@link ShellMarks} bits (OSC 133) on a visible row; 0 for none. */
    int rowMarks(int row);

    /** The exit status recorded with a FINISHED mark on a visible row, else {@link ShellMarks#NO_STATUS}. */
    int rowExitStatus(int row);

    /** The {@link ShellMarks} bits on a scrollback line. */
    int historyMarks(int index);

    /** The exit status recorded with a FINISHED mark on a scrollback line, else {@link ShellMarks#NO_STATUS}. */
    int historyExitStatus(int index);

    /** The status of the last {@code OSC 133;D}, or {@link ShellMarks#NO_STATUS} when it had none or none came yet. */
    int lastExitStatus();

    /** How many {@code OSC 133;D} marks were seen; grows by one per finished command. */
    long commandsFinished();

    /**
     * How many bells (BEL, 0x07) the program rang: every BEL the parser executes, in text
     * or inside a control sequence, but not the BEL that ends an OSC string. Only grows;
     * a reset (RIS) does not clear it. A bell changes nothing visible, so it does not move
     * {@link #revision()}.
     */
    long bells();

    /**
     * Notifications (OSC 9, OSC 777) asked for since the last call, oldest first; the list is
     * the caller's. At most 32 are kept between calls; older ones are dropped first.
     */
    List<Notification> takeNotifications();

    /**
     * The newest clipboard write (OSC 52) not yet taken, or null. Always null while
     * {@link Limits#clipboardBytes()} is 0; a newer write replaces one not taken.
     */
    ClipboardWrite takeClipboardWrite();
}

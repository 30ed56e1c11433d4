package io.artuditu.terminal.internal.attach;

import io.artuditu.terminal.internal.Screens;
import io.artuditu.terminal.internal.attach.FrameEncoder.Frame;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One attach-stream frame for one attached client, as {@code AttachStream}'s writer makes it:
 * {@link FrameEncoder#next} on the pane's terminal (the diff from what the client last got,
 * read from the emulator) and {@link ServerLines#frame} (the {@code {"frame":…}\n} JSON line),
 * in memory. The terminal is a real 200×50 {@link Terminal} with a pane's default limits
 * ({@link Screens#DEFAULT_HISTORY_BUDGET} of scrollback), its screen filled with coloured text: every row 200 columns of
 * words in 256-colour, truecolour, bold, italic and underlined renditions with a few
 * backgrounds, like highlighted source or {@code ls --color} output.
 *
 * <p>{@code frame}:
 * <ul>
 *   <li>{@code full}: the frame after attach or resize ({@code encoder.reset()} first): all
 *       10,000 cells (every one is coloured text), 467,445 bytes per line.</li>
 *   <li>{@code line}: the diff after the last row was redrawn in place ({@code \r} and 200
 *       new coloured columns, a progress or status line): one 200-cell run, 9,207 and
 *       9,412 bytes per line (the two redraws alternate).</li>
 *   <li>{@code char}: the diff after one character was typed at a shell prompt (its echo);
 *       every other op is the echo of a backspace erasing it. One cell and the cursor,
 *       89 bytes per line.</li>
 * </ul>
 *
 * <p>For {@code line} and {@code char} the change is fed to the terminal before each op, not
 * measured (the PTY reader's work, not the writer's); that per-invocation helper adds a few
 * tens of ns of timer overhead to their scores. Not included: taking the screen's lock, the
 * render counters and the socket write ({@code StreamSink.write}) that follow in the writer.
 *
 * <pre>java -jar bench/target/benchmarks.jar FrameEncoderBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseSerialGC"})
public class FrameEncoderBenchmark {
    static final int COLS = 200;
    static final int ROWS = 50;
    private static final String PROMPT = "\r\033[K\033[1;32mdev@artuditu\033[0m:\033[1;34m~/src/artuditu\033[0m$ ";

    @Param({"full", "line", "char"})
    public String frame;

    private Terminal term;
    private FrameEncoder encoder;
    /** The two alternating changes fed before each {@code line} or {@code char} op. */
    private byte[][] changes;
    private int next;

    @Setup
    public void setUp() {
        term = Terminal.create(COLS, ROWS, new Limits(Screens.DEFAULT_HISTORY_BUDGET, 4096));
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < ROWS; r++) {
            sb.append(r == 0 ? "" : "\r\n").append(row(r));
        }
        feed(sb.toString());
        switch (frame) {
            case "full" -> changes = null;
            case "line" -> changes = new byte[][] {bytes("\r" + row(1000)), bytes("\r" + row(1001))};
            case "char" -> {
                feed(PROMPT);
                changes = new byte[][] {bytes("x"), bytes("\b \b")};
            }
            default -> throw new IllegalArgumentException(frame);
        }
        encoder = new FrameEncoder();
        byte[] first = encode();
        if (changes != null) {
            for (int i = 0; i < 4; i++) {
                change();
                byte[] diff = encode();
                String s = new String(diff, StandardCharsets.UTF_8);
                if (!s.startsWith("{\"frame\":{\"full\":false,") || diff.length >= first.length / 10) {
                    throw new IllegalStateException("not a small diff: " + diff.length + " bytes");
                }
            }
        }
    }

    /** Feeds the next change (not measured); nothing for {@code full}. */
    @Setup(Level.Invocation)
    public void change() {
        if (changes != null) {
            term.feed(changes[next]);
            next ^= 1;
        }
    }

    @Benchmark
    public byte[] encode() {
        if (changes == null) {
            encoder.reset();
        }
        Frame f = encoder.next(term, 0, true);
        return ServerLines.frame(f);
    }

    /** 200 columns of coloured words; {@code n} picks the words and colours. */
    static String row(int n) {
        String[] words = {"public", "static", "final", "int", "return", "value", "->", "String", "new", "List<Run>",
                "if", "(x", "!=", "null)", "{", "}", "//", "note:", "frame", "cells", "42", "0x1F", "\"text\"", ";"};
        StringBuilder sb = new StringBuilder();
        int col = 0;
        int k = n * 7;
        while (col < COLS) {
            String w = words[k % words.length];
            String sgr = switch (k % 6) {
                case 0 -> "\033[38;5;" + (16 + (k * 37) % 216) + "m";
                case 1 -> "\033[38;2;" + (k * 53) % 256 + ";" + (k * 91) % 256 + ";" + (k * 17) % 256 + "m";
                case 2 -> "\033[1;34m";
                case 3 -> "\033[3;32;48;5;236m";
                case 4 -> "\033[4;91m";
                default -> "\033[0;33m";
            };
            String text = (w + " ").substring(0, Math.min(w.length() + 1, COLS - col));
            sb.append(sgr).append(text).append("\033[0m");
            col += text.length();
            k++;
        }
        return sb.toString();
    }

    private void feed(String s) {
        term.feed(bytes(s));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

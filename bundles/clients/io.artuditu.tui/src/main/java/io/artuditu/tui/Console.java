package io.artuditu.tui;

import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import org.jline.nativ.OSInfo;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.impl.jni.JniTerminalProvider;
import org.jline.terminal.spi.Pty;
import org.jline.terminal.spi.SystemStream;
import org.jline.utils.Signals;

/**
 * The terminal the workbench runs in, through JLine's native layer: its termios (raw mode
 * and back), its size and SIGWINCH. Standard input and output are used directly. This skips
 * JLine's {@code TerminalBuilder} (provider discovery, terminfo, stream wrappers), which cost
 * a few hundred milliseconds of every start here, for nothing the workbench uses.
 *
 * <p>JLine's native library is unpacked once into {@code <home>/native/jline-<version>/}
 * instead of a new file under {@code /tmp} per run.
 */
final class Console implements App.Outer {
    private final Pty pty;
    private final Attributes saved;
    private final InputStream in = new FileInputStream(FileDescriptor.in);
    private final OutputStream out = new FileOutputStream(FileDescriptor.out);
    private final Map<String, String> env;
    private volatile boolean stopping;

    private Console(Pty pty, Attributes saved, Map<String, String> env) {
        this.pty = pty;
        this.saved = saved;
        this.env = env;
    }

    /** The controlling terminal, not yet raw; null when standard input or output is not a terminal. */
    static Console open(Path home, Map<String, String> env) throws IOException {
        nativeLibrary(home);
        if (org.jline.nativ.CLibrary.isatty(0) == 0 || org.jline.nativ.CLibrary.isatty(1) == 0) {
            return null;
        }
        Pty pty = new JniTerminalProvider().current(SystemStream.Output);
        return new Console(pty, pty.getAttr(), env);
    }

    /** Raw mode, until {@link #restore()}. */
    void raw() throws IOException {
        Attributes raw = new Attributes(saved);
        // keys reach the workbench as bytes: no line editing, echo, signals or flow control
        raw.setLocalFlags(EnumSet.of(Attributes.LocalFlag.ICANON, Attributes.LocalFlag.ECHO,
                Attributes.LocalFlag.IEXTEN, Attributes.LocalFlag.ISIG), false);
        raw.setInputFlags(EnumSet.of(Attributes.InputFlag.IXON, Attributes.InputFlag.ICRNL,
                Attributes.InputFlag.INLCR, Attributes.InputFlag.ISTRIP, Attributes.InputFlag.BRKINT), false);
        raw.setControlChar(Attributes.ControlChar.VMIN, 1);
        raw.setControlChar(Attributes.ControlChar.VTIME, 0);
        pty.setAttr(raw);
    }

    /** Points JLine at its library under the home, unpacking it there the first time. */
    private static void nativeLibrary(Path home) throws IOException {
        String version = org.jline.nativ.JLineNativeLoader.getVersion();
        Path dir = home.resolve("native").resolve("jline-" + version);
        Path lib = dir.resolve("libjlinenative.so");
        if (!Files.isRegularFile(lib)) {
            String resource = "/org/jline/nativ/" + OSInfo.getNativeLibFolderPathForCurrentOS() + "/libjlinenative.so";
            try (InputStream r = Console.class.getResourceAsStream(resource)) {
                if (r == null) {
                    return; // not a platform JLine ships: let it find its own way
                }
                Files.createDirectories(dir);
                AtomicFiles.removeLeftovers(lib); // what a start cut short in the middle of this write left
                byte[] bytes = r.readAllBytes();
                // A TUI starting at the same moment may take this write's temporary file for a
                // leftover and remove it; it writes the same library, else this one tries again.
                for (int attempt = 1; !Files.isRegularFile(lib); attempt++) {
                    try {
                        AtomicFiles.write(lib, bytes);
                    } catch (IOException e) {
                        if (attempt == 3) {
                            throw e;
                        }
                    }
                }
            }
        }
        System.setProperty("library.jline.path", dir.toString());
        System.setProperty("library.jline.name", "libjlinenative.so");
    }

    void restore() {
        try {
            pty.setAttr(saved);
        } catch (IOException e) {
            // the terminal is gone: nothing to restore
        }
    }

    @Override
    public int cols() {
        Size s = size();
        return s != null && s.getColumns() > 0 ? s.getColumns() : 80;
    }

    @Override
    public int rows() {
        Size s = size();
        return s != null && s.getRows() > 0 ? s.getRows() : 24;
    }

    private Size size() {
        try {
            return pty.getSize();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * True colour when {@code COLORTERM} says so, 256 colours for a {@code TERM} that names
     * them ({@code *-256color}, {@code *-direct}), else 16.
     */
    @Override
    public int colorDepth() {
        String ct = env.getOrDefault("COLORTERM", "");
        if (ct.equalsIgnoreCase("truecolor") || ct.equalsIgnoreCase("24bit")) {
            return AnsiWriter.TRUECOLOR;
        }
        String term = env.getOrDefault("TERM", "");
        if (term.endsWith("-direct")) {
            return AnsiWriter.TRUECOLOR;
        }
        return term.contains("256") ? AnsiWriter.COLORS_256 : AnsiWriter.COLORS_16;
    }

    @Override
    public void onResize(Runnable r) {
        Signals.register("WINCH", r);
    }

    /**
     * The terminal hung up (its window closed, ssh dropped): there is nothing to restore or
     * draw, so the process ends at once, without the orderly exit's work (a first run's
     * class-data archive would otherwise be written for seconds by a process nobody sees).
     * The server notices the closed streams and keeps every pane running.
     */
    void haltOnHangup() {
        Signals.register("HUP", () -> Runtime.getRuntime().halt(129));
    }

    /**
     * Waits for input in slices of 100 ms ({@code poll}) and reads only what is there, so once
     * {@link #stopReading()} is called the reader returns within a slice without having taken
     * anything: keys typed after a detach belong to the shell that gets the terminal back.
     */
    @Override
    public int read(byte[] buf) throws IOException {
        while (!stopping) {
            int ready = org.jline.nativ.CLibrary.pollForInput(0, 100);
            if (stopping) {
                break;
            }
            if (ready > 0) {
                return in.read(buf);
            }
            if (ready < 0) {
                throw new IOException("poll on the terminal failed");
            }
        }
        return STOPPED;
    }

    @Override
    public void stopReading() {
        stopping = true;
    }

    @Override
    public synchronized void write(String s) {
        try {
            out.write(s.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // the terminal went away; the input side notices and quits
        }
    }
}

package io.artuditu.pty.internal.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds a proc-like directory: {@code <pid>/stat} files and, when asked, {@code exe} links. */
final class FakeProc {
    final Path root;

    FakeProc(Path root) {
        this.root = root;
    }

    /** Adds a process whose stat line says {@code comm} and {@code ppid}. */
    Path add(long pid, long ppid, String comm) throws IOException {
        Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
        String line = pid + " (" + comm + ") S " + ppid + " " + pid + " " + pid
                + " 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 100 0 0 18446744073709551615\n";
        Files.write(dir.resolve("stat"), line.getBytes(StandardCharsets.UTF_8));
        return dir;
    }

    /** Adds a process whose {@code cmdline} holds {@code argv}, each argument NUL-terminated. */
    Path addWithArgs(long pid, long ppid, String comm, String... argv) throws IOException {
        Path dir = add(pid, ppid, comm);
        StringBuilder b = new StringBuilder();
        for (String a : argv) {
            b.append(a).append('\0');
        }
        Files.write(dir.resolve("cmdline"), b.toString().getBytes(StandardCharsets.UTF_8));
        return dir;
    }

    /** Adds a process and an {@code exe} link to {@code target} (which need not exist). */
    Path add(long pid, long ppid, String comm, String exeTarget) throws IOException {
        Path dir = add(pid, ppid, comm);
        Files.createSymbolicLink(dir.resolve("exe"), Path.of(exeTarget));
        return dir;
    }
}

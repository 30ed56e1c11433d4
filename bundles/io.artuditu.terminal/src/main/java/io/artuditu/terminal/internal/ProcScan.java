package io.artuditu.terminal.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The interim {@link ProcessSource}: one pass over {@code /proc/<pid>/stat} per call, on the
 * caller's thread (about 1 ms per 100 processes). Reads only {@code stat} (pid, comm, ppid),
 * never {@code cmdline} or {@code environ}. TODO(merge): replaced by the shared ProcessScan
 * (see {@link ProcessSource}).
 */
final class ProcScan implements ProcessSource {
    private final Path proc;

    ProcScan(Path proc) {
        this.proc = proc;
    }

    ProcScan() {
        this(Path.of("/proc"));
    }

    private record Stat(long pid, long ppid, String comm) {
    }

    @Override
    public Tree tree(long rootPid) {
        long started = System.currentTimeMillis();
        Map<Long, Stat> all = new HashMap<>();
        Map<Long, List<Long>> children = new HashMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc)) {
            for (Path d : dirs) {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                Stat st = read(d.resolve("stat"));
                if (st != null) {
                    all.put(st.pid, st);
                    children.computeIfAbsent(st.ppid, k -> new ArrayList<>()).add(st.pid);
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Tree(false, started, List.of());
        }
        Stat root = all.get(rootPid);
        if (root == null) {
            return new Tree(false, started, List.of());
        }
        List<Entry> out = new ArrayList<>();
        out.add(new Entry(root.pid, root.ppid, root.comm, 0));
        ArrayDeque<Entry> queue = new ArrayDeque<>(out);
        while (!queue.isEmpty() && out.size() <= MAX_DESCENDANTS) {
            Entry e = queue.poll();
            if (e.depth() >= MAX_DEPTH) {
                continue;
            }
            List<Long> kids = new ArrayList<>(children.getOrDefault(e.pid(), List.of()));
            kids.sort(null);
            for (long k : kids) {
                if (out.size() > MAX_DESCENDANTS) {
                    break;
                }
                Stat c = all.get(k);
                Entry ce = new Entry(c.pid, c.ppid, c.comm, e.depth() + 1);
                out.add(ce);
                queue.add(ce);
            }
        }
        return new Tree(true, started, List.copyOf(out));
    }

    /** pid, comm (between the first '(' and the last ')') and ppid of one stat file; null when gone. */
    private static Stat read(Path stat) {
        String s;
        try {
            s = new String(Files.readAllBytes(stat), StandardCharsets.UTF_8); // malformed bytes become U+FFFD
        } catch (IOException | RuntimeException e) {
            return null; // exited during the scan, or not readable
        }
        int open = s.indexOf('(');
        int close = s.lastIndexOf(')');
        if (open < 0 || close < open || close + 4 > s.length()) {
            return null;
        }
        String[] rest = s.substring(close + 2).split(" ", 3);
        if (rest.length < 2) {
            return null;
        }
        try {
            long pid = Long.parseLong(s.substring(0, open).trim());
            long ppid = Long.parseLong(rest[1]);
            return new Stat(pid, ppid, clean(s.substring(open + 1, close)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String clean(String comm) {
        StringBuilder b = new StringBuilder(comm.length());
        comm.codePoints().forEach(c -> b.appendCodePoint(c < 0x20 || c == 0x7f ? '?' : c));
        return b.toString();
    }
}

package io.artuditu.terminal.internal.pane;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The stop-gap {@link ProcessSource}: one pass over {@code /proc/<pid>/stat} on the calling
 * thread. It reads nothing else ({@code comm} is the name {@code stat} carries in parentheses),
 * so no argument vector or environment is ever read.
 */
final class ProcFs implements ProcessSource {
    private final Path proc;

    ProcFs() {
        this(Path.of("/proc"));
    }

    ProcFs(Path proc) {
        this.proc = proc;
    }

    @Override
    public Tree tree(long rootPid) {
        long sampled = System.currentTimeMillis();
        Map<Long, Entry> all = new HashMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, p -> isPid(p.getFileName().toString()))) {
            for (Path dir : dirs) {
                Entry e = readStat(dir.resolve("stat"));
                if (e != null) {
                    all.put(e.pid(), e);
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Tree(false, sampled, null, List.of());
        }
        Entry root = all.get(rootPid);
        if (root == null) {
            return new Tree(false, sampled, null, List.of());
        }
        Map<Long, List<Entry>> children = new HashMap<>();
        for (Entry e : new TreeMap<>(all).values()) {
            children.computeIfAbsent(e.ppid(), k -> new ArrayList<>()).add(e);
        }
        List<Entry> out = new ArrayList<>();
        Deque<long[]> queue = new ArrayDeque<>(); // {pid, depth}
        queue.add(new long[] {rootPid, 0});
        while (!queue.isEmpty() && out.size() < MAX_DESCENDANTS) {
            long[] next = queue.poll();
            if (next[1] >= MAX_DEPTH) {
                continue;
            }
            for (Entry c : children.getOrDefault(next[0], List.of())) {
                if (c.pid() == rootPid || out.size() >= MAX_DESCENDANTS) {
                    continue;
                }
                out.add(c);
                queue.add(new long[] {c.pid(), next[1] + 1});
            }
        }
        return new Tree(true, sampled, root, out);
    }

    private static boolean isPid(String name) {
        if (name.isEmpty() || name.length() > 18) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code pid (comm) state ppid …}; comm may itself hold ')' and spaces, so the last ')' ends it. */
    static Entry readStat(Path stat) {
        String s;
        try {
            s = new String(Files.readAllBytes(stat), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return null; // exited between the listing and the read
        }
        return parseStat(s);
    }

    static Entry parseStat(String s) {
        int open = s.indexOf(" (");
        int close = s.lastIndexOf(')');
        if (open < 0 || close < open) {
            return null;
        }
        String[] rest = s.substring(close + 1).trim().split(" ");
        if (rest.length < 2) {
            return null;
        }
        try {
            long pid = Long.parseLong(s.substring(0, open));
            long ppid = Long.parseLong(rest[1]);
            return new Entry(pid, ppid, printable(s.substring(open + 2, close)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String printable(String name) {
        StringBuilder b = new StringBuilder(name.length());
        name.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return b.toString();
    }
}

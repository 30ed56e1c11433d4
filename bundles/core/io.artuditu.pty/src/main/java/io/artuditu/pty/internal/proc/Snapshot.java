package io.artuditu.pty.internal.proc;

import io.artuditu.pty.proc.ProcessEntry;
import io.artuditu.pty.proc.ProcessTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of one scan, immutable: every process by pid and the children of each, so a
 * tree is built in time proportional to its own size, not the host's. The trees built from
 * it are kept (at most {@value #MAX_TREES}), so asking again about a pane before the next
 * scan costs a map lookup; the next scan re-audits exactly those roots.
 */
final class Snapshot {
    /** Most trees one snapshot keeps; past it a tree is built on every ask. */
    static final int MAX_TREES = 4096;

    /** One process as read from stat (and, for an interpreter, the script it runs, else null). */
    record Proc(long pid, long ppid, String name, String script) {
        Proc(long pid, long ppid, String name) {
            this(pid, ppid, name, null);
        }
    }

    /** Before the first scan. */
    static final Snapshot NONE = unavailable(0);

    final boolean available;
    final long sampledAtMillis;
    private final Map<Long, Proc> byPid;
    private final Map<Long, List<Proc>> children;
    /** The trees built from this scan, by root pid (only roots it found). */
    private final Map<Long, ProcessTree> trees = new java.util.concurrent.ConcurrentHashMap<>();

    private Snapshot(boolean available, long sampledAtMillis, Map<Long, Proc> byPid, Map<Long, List<Proc>> children) {
        this.available = available;
        this.sampledAtMillis = sampledAtMillis;
        this.byPid = byPid;
        this.children = children;
    }

    static Snapshot unavailable(long sampledAtMillis) {
        return new Snapshot(false, sampledAtMillis, Map.of(), Map.of());
    }

    static Snapshot of(long sampledAtMillis, Collection<Proc> procs) {
        Map<Long, Proc> byPid = new HashMap<>(procs.size() * 2);
        Map<Long, List<Proc>> children = new HashMap<>();
        for (Proc p : procs) {
            byPid.put(p.pid(), p);
            children.computeIfAbsent(p.ppid(), k -> new ArrayList<>(2)).add(p);
        }
        for (List<Proc> siblings : children.values()) {
            siblings.sort(Comparator.comparingLong(Proc::pid));
        }
        return new Snapshot(true, sampledAtMillis, byPid, children);
    }

    int size() {
        return byPid.size();
    }

    /**
     * The tree under {@code rootPid}, built once per snapshot; {@code extracted} runs when it
     * had to be built (the root is in this scan and no earlier ask built it).
     */
    ProcessTree tree(long rootPid, Runnable extracted) {
        ProcessTree t = trees.get(rootPid);
        if (t != null) {
            return t;
        }
        t = tree(rootPid);
        if (t.scan() == ProcessTree.Status.OK) {
            extracted.run();
            if (trees.size() < MAX_TREES) {
                trees.putIfAbsent(rootPid, t);
            }
        }
        return t;
    }

    /**
     * Re-checks, against this scan, every root {@code previous} built a tree for, keeping
     * the new trees. Returns how many changed: a root that vanished, or whose root entry
     * or descendants (pid, parent, name, depth, script) differ from what {@code previous} answered.
     */
    int audit(Snapshot previous, Runnable extracted) {
        int changed = 0;
        for (Map.Entry<Long, ProcessTree> e : previous.trees.entrySet()) {
            ProcessTree before = e.getValue();
            ProcessTree now = tree(e.getKey(), extracted);
            if (now.scan() != before.scan() || !java.util.Objects.equals(now.root(), before.root())
                    || !now.descendants().equals(before.descendants())) {
                changed++;
            }
        }
        return changed;
    }

    /** The tree under {@code rootPid}, breadth first and bounded; see {@link ProcessTree}. */
    ProcessTree tree(long rootPid) {
        Proc root = byPid.get(rootPid);
        if (!available || root == null) {
            return ProcessTree.unavailable(sampledAtMillis);
        }
        ProcessEntry rootEntry = new ProcessEntry(root.pid(), root.ppid(), root.name(), 0, root.script());
        List<ProcessEntry> out = new ArrayList<>();
        ArrayDeque<ProcessEntry> queue = new ArrayDeque<>();
        queue.add(rootEntry);
        while (!queue.isEmpty() && out.size() < ProcessTree.MAX_DESCENDANTS) {
            ProcessEntry parent = queue.poll();
            if (parent.depth() >= ProcessTree.MAX_DEPTH) {
                continue;
            }
            for (Proc child : children.getOrDefault(parent.pid(), List.of())) {
                // Each pid has one parent, so only a loop back to the root (a scan that raced
                // pid reuse) could repeat an entry.
                if (child.pid() == rootPid) {
                    continue;
                }
                if (out.size() == ProcessTree.MAX_DESCENDANTS) {
                    break;
                }
                ProcessEntry e = new ProcessEntry(child.pid(), child.ppid(), child.name(), parent.depth() + 1,
                        child.script());
                out.add(e);
                queue.add(e);
            }
        }
        return new ProcessTree(ProcessTree.Status.OK, sampledAtMillis, rootEntry, out);
    }
}

package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.pty.proc.ProcessEntry;
import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.pty.proc.ProcessTree;
import io.artuditu.uhp.api.Call;

/**
 * terminal.backend.processes: the root process and its descendants by name, never argv,
 * from the shared {@link ProcessScan}. The cached scan answers at once; only when it cannot
 * say (no scan yet, or a root newer than the last scan) does the call wait, at most
 * {@value #FRESH_WAIT_MS} ms, for a scan that starts after it.
 */
final class ProcessesMethod {
    static final long FRESH_WAIT_MS = 1_000;

    private final Terminals terminals;
    private final ProcessScan scan;

    ProcessesMethod(Terminals terminals, ProcessScan scan) {
        this.terminals = terminals;
        this.scan = scan;
    }

    ObjectNode processes(Call call) {
        Screen s = terminals.live(call);
        long pid = s.pty().pid();
        ProcessTree tree = scan.tree(pid);
        if (tree.scan() == ProcessTree.Status.UNAVAILABLE) {
            tree = scan.awaitFresh(pid, 0, FRESH_WAIT_MS);
        }
        boolean ok = tree.scan() == ProcessTree.Status.OK;
        ObjectNode r = call.newObject().put("type", "terminal_processes").put("terminal_id", s.terminalId())
                .put("pid", pid).put("scan", ok ? "ok" : "unavailable").put("sampled_at_ms", tree.sampledAtMillis());
        ArrayNode list = r.putArray("processes");
        if (ok) {
            add(list, tree.root());
            tree.descendants().forEach(e -> add(list, e));
        }
        return r;
    }

    private static void add(ArrayNode list, ProcessEntry e) {
        list.addObject().put("pid", e.pid()).put("ppid", e.ppid()).put("name", e.name()).put("depth", e.depth());
    }
}

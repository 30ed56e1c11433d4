package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;

/** terminal.backend.processes: the root process and its descendants by name, never argv. */
final class ProcessesMethod {
    private final Terminals terminals;
    private final ProcessSource source;

    ProcessesMethod(Terminals terminals, ProcessSource source) {
        this.terminals = terminals;
        this.source = source;
    }

    ObjectNode processes(Call call) {
        Screen s = terminals.live(call);
        long pid = s.pty().pid();
        ProcessSource.Tree tree = source.tree(pid);
        ObjectNode r = call.newObject().put("type", "terminal_processes").put("terminal_id", s.terminalId())
                .put("pid", pid).put("scan", tree.ok() ? "ok" : "unavailable")
                .put("sampled_at_ms", tree.sampledAtMillis());
        ArrayNode list = r.putArray("processes");
        for (ProcessSource.Entry e : tree.entries()) {
            list.addObject().put("pid", e.pid()).put("ppid", e.ppid()).put("name", e.name()).put("depth", e.depth());
        }
        return r;
    }
}

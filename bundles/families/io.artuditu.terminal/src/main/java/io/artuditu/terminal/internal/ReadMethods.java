package io.artuditu.terminal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.pty.Pty;
import io.artuditu.uhp.api.Call;
import io.artuditu.vt.Mode;
import io.artuditu.vt.ShellMarks;
import io.artuditu.vt.WorkingDirectory;
import java.util.Optional;

/**
 * The read methods that answer from state without text: terminal.backend.inventory,
 * snapshot and validate. Each reads one screen under its lock once, so the fields of one
 * answer belong to one revision.
 */
final class ReadMethods {
    private final Terminals terminals;

    ReadMethods(Terminals terminals) {
        this.terminals = terminals;
    }

    ObjectNode inventory(Call call) {
        long sequence = terminals.sequence(); // before the state: replaying after it misses nothing
        ObjectNode r = call.newObject().put("type", "terminal_inventory").put("sequence", sequence);
        ArrayNode rows = r.putArray("terminals");
        for (Screen s : terminals.screens().all()) {
            Pty pty = s.pty();
            ObjectNode row = rows.addObject().put("terminal_id", s.terminalId());
            row.put("pane", terminals.paneOf(pty));
            row.put("workspace_id", terminals.workspaceOf(pty));
            row.put("pid", pty.pid()).put("command", Terminals.commandName(pty));
            s.read(t -> row.put("cols", t.cols()).put("rows", t.rows()).put("title", s.title())
                    .put("revision", s.revision()));
            row.put("alive", pty.isAlive());
        }
        return r;
    }

    ObjectNode snapshot(Call call) {
        long sequence = terminals.sequence();
        Screen s = terminals.live(call);
        Pty pty = s.pty();
        ObjectNode r = call.newObject().put("type", "terminal_snapshot").put("terminal_id", s.terminalId());
        r.put("pane", terminals.paneOf(pty)).put("workspace_id", terminals.workspaceOf(pty));
        r.put("pid", pty.pid()).put("alive", pty.isAlive());
        s.read(t -> {
            r.put("cols", t.cols()).put("rows", t.rows());
            r.putArray("cursor").add(t.cursorCol()).add(t.cursorRow());
            r.put("cursor_visible", t.cursorVisible());
            r.put("title", s.title()).put("title_override", s.titleOverride() != null);
            r.put("revision", s.revision());
            r.put("alternate_screen", t.mode(Mode.ALTERNATE_SCREEN)).put("wants_mouse", t.wantsMouse())
                    .put("bracketed_paste", t.mode(Mode.BRACKETED_PASTE));
            r.put("history_rows", t.historySize()).put("scroll_offset", s.scrollOffset());
            int last = t.lastExitStatus();
            if (last == ShellMarks.NO_STATUS) {
                r.putNull("last_exit_status");
            } else {
                r.put("last_exit_status", last);
            }
            r.put("commands_finished", t.commandsFinished());
            WorkingDirectory cwd = t.workingDirectory();
            if (cwd == null) {
                r.putNull("cwd");
            } else {
                r.putObject("cwd").put("host", cwd.host()).put("path", cwd.path());
            }
            return null;
        });
        r.put("sequence", sequence);
        return r;
    }

    /**
     * Not live is an answer here, not an error: a harness asks "may I still act on this
     * identity?", and "no, it exited with 0" is the expected answer to that question.
     */
    ObjectNode validate(Call call) {
        String id = call.params().get("terminal_id").textValue();
        JsonNode expected = call.params().get("revision");
        ObjectNode r = call.newObject().put("type", "terminal_validation").put("terminal_id", id);
        Optional<Screen> live = terminals.screens().screen(id);
        if (live.isEmpty()) {
            r.put("valid", false).put("alive", false).putNull("revision");
            Optional<Screens.Exited> gone = terminals.screens().exited(id);
            if (gone.isPresent()) {
                r.put("reason", "exited").put("exit_status", gone.get().status())
                        .put("exited_at_ms", gone.get().exitedMillis());
            } else {
                r.put("reason", "unknown");
            }
            return r;
        }
        Screen s = live.get();
        long revision = s.revision();
        boolean alive = s.pty().isAlive();
        boolean same = expected == null || expected.longValue() == revision;
        r.put("valid", alive && same).put("alive", alive).put("revision", revision);
        if (!alive) {
            r.put("reason", "exited");
            s.pty().exitStatus().ifPresent(st -> r.put("exit_status", st));
        } else if (!same) {
            r.put("reason", "revision_changed");
        }
        return r;
    }
}

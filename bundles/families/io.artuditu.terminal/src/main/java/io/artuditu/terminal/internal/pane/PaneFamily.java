package io.artuditu.terminal.internal.pane;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Targets;
import io.artuditu.pty.PtyInputException;
import io.artuditu.pty.proc.ProcessEntry;
import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.pty.proc.ProcessTree;
import io.artuditu.terminal.internal.Screen;
import io.artuditu.terminal.internal.Screens;
import io.artuditu.terminal.internal.Utf8;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.vt.Key;
import io.artuditu.vt.Keys;
import io.artuditu.vt.Mode;
import io.artuditu.vt.TerminalMetrics;
import io.artuditu.vt.WorkingDirectory;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * The pane I/O methods: {@code pane.run}, {@code pane.send_input}, {@code pane.read},
 * {@code pane.status}, {@code pane.processes}. A call names a pane by id or means the focused
 * one; the pane is resolved once, by the shared {@link Targets} rule, with evidence when
 * it is gone. See
 * {@code docs/protocol/panes.md}.
 */
@Component(service = UhpFamily.class)
public final class PaneFamily implements UhpFamily {
    /** Literal text per call, in UTF-8 bytes. */
    static final int MAX_TEXT_BYTES = 65_536;
    /** Key specs per call. */
    static final int MAX_KEYS = 64;
    /** Lines per read. */
    static final int MAX_LINES = 10_000;
    /** Text per read, in UTF-8 bytes. */
    static final int MAX_READ_BYTES = 4 << 20;

    private final Workspaces workspaces;
    private final Screens screens;
    private final ProcessScan processes;
    private final PaneRun run;
    private final FamilyContract contract;

    @Activate
    public PaneFamily(@Reference Workspaces workspaces, @Reference Screens screens, @Reference ProcessScan processes) {
        this.workspaces = workspaces;
        this.screens = screens;
        this.processes = processes;
        this.run = new PaneRun(this);
        this.contract = FamilyContract.load(PaneFamily.class, "protocol/uhp/v1/pane-io.json")
                .route("pane.run", run::run)
                .route("pane.send_input", this::sendInput)
                .route("pane.read", this::read)
                .route("pane.status", this::status)
                .route("pane.processes", this::processes)
                .bind();
    }

    @Deactivate
    void deactivate() throws Exception {
        run.close();
    }

    @Override
    public String family() {
        return "panes";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    // --- target resolution and failure evidence ---

    /** A live pane and its screen. */
    record Target(PaneInfo pane, Screen screen) {
        String id() {
            return pane.id();
        }
    }

    /**
     * The live pane the call names, as the dispatcher resolved its declared target, with its
     * screen; a pane that has gone since is {@code not_found} with what is known of its exit.
     */
    Target target(Call call) {
        String id = call.target(io.artuditu.model.topology.Target.class).pane();
        PaneInfo info = workspaces.pane(id).orElseThrow(() -> gone(id));
        Screen s = screens.screen(info.terminalId()).orElseThrow(() -> gone(info.id(), info.terminalId()));
        return new Target(info, s);
    }

    /** A pane the model no longer (or never) had: its exit when it left with its process, else "unknown". */
    UhpException gone(String paneId) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("pane", paneId);
        workspaces.exited(paneId).ifPresentOrElse(e -> d.putAll(e.evidence()), () -> d.put("state", "unknown"));
        return UhpException.notFound("pane", paneId, "pane", "exited".equals(d.get("state"))
                ? "pane " + paneId + " exited with status " + d.get("exit_status") : "no such pane: " + paneId, d);
    }

    /** A pane still in the model whose process has just exited. */
    UhpException gone(String paneId, String terminalId) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("pane", paneId);
        d.putAll(screens.evidence(terminalId));
        return UhpException.notFound("pane", paneId, "pane", "exited".equals(d.get("state"))
                ? "pane " + paneId + " exited with status " + d.get("exit_status") : "pane " + paneId + " has no terminal", d);
    }

    /** Queues input for the pane's process; refusals become the documented errors. */
    void write(Target t, byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        try {
            t.screen().input(bytes);
        } catch (PtyInputException e) {
            if (e.reason() == PtyInputException.Reason.EXITED) {
                throw gone(t.id(), t.pane().terminalId());
            }
            throw new UhpException(ErrorCode.INVALID_REQUEST,
                    "pane " + t.id() + " is not reading its input: " + e.pending() + " bytes are already queued",
                    Map.of("reason", "input_backlog", "pending_bytes", e.pending(), "limit", io.artuditu.pty.Pty.MAX_PENDING_INPUT));
        }
    }

    static UhpException invalid(String message, Map<String, Object> details) {
        return new UhpException(ErrorCode.INVALID_REQUEST, message, details);
    }

    static void checkText(String field, String text) {
        int bytes = Utf8.length(text);
        if (bytes > MAX_TEXT_BYTES) {
            throw invalid(field + " is " + bytes + " bytes of UTF-8; at most " + MAX_TEXT_BYTES + " are allowed",
                    Map.of("field", field, "bytes", bytes, "limit", MAX_TEXT_BYTES));
        }
    }

    ObjectNode head(Call call, String type, Target t) {
        return call.newObject().put("type", type).put("pane", t.id()).put("terminal_id", t.pane().terminalId());
    }

    // --- pane.send_input ---

    ObjectNode sendInput(Call call) {
        JsonNode textNode = call.params().get("text");
        JsonNode keysNode = call.params().get("keys");
        if (textNode == null && keysNode == null) {
            throw invalid("give text, keys or both", Map.of("field", "text"));
        }
        // The whole request is checked before anything is written.
        String text = textNode == null ? "" : textNode.textValue();
        checkText("text", text);
        List<Key> keys = new ArrayList<>();
        if (keysNode != null) {
            if (keysNode.size() > MAX_KEYS) {
                throw invalid("at most " + MAX_KEYS + " keys per call", Map.of("field", "keys", "limit", MAX_KEYS));
            }
            for (int i = 0; i < keysNode.size(); i++) {
                String spec = keysNode.get(i).textValue();
                try {
                    keys.add(Keys.parse(spec));
                } catch (IllegalArgumentException e) {
                    throw invalid("keys[" + i + "]: " + e.getMessage(), Map.of("field", "keys", "index", i, "key", spec));
                }
            }
        }
        Target t = target(call);
        byte[] bytes = t.screen().read(term -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            for (Key k : keys) {
                out.writeBytes(Keys.encode(k, term)); // in the modes the program has set right now
            }
            return out.toByteArray();
        });
        write(t, bytes);
        return head(call, "pane_input", t).put("bytes", bytes.length);
    }

    // --- pane.read ---

    ObjectNode read(Call call) {
        String source = call.params().path("source").asText("screen");
        JsonNode startNode = call.params().get("start");
        JsonNode linesNode = call.params().get("lines");
        boolean styled = call.params().path("styled").asBoolean(false);
        Target t = target(call);
        ObjectNode r = head(call, "pane_read", t).put("source", source);
        t.screen().read(term -> {
            int history = term.historySize();
            int total = switch (source) {
                case "history" -> history;
                case "all" -> history + term.rows();
                default -> term.rows();
            };
            int offset = source.equals("screen") ? history : 0; // into CommandMarks' line numbering
            ReadRange range = ReadRange.of(total, startNode == null ? null : startNode.intValue(),
                    linesNode == null ? null : linesNode.intValue(), MAX_LINES);
            StringBuilder text = new StringBuilder();
            long bytes = 0;
            int n = 0;
            boolean cut = range.truncated();
            for (int i = range.first(); i < range.first() + range.count(); i++) {
                String line = CommandMarks.text(term, offset + i, styled);
                int add = Utf8.length(line) + (n > 0 ? 1 : 0);
                if (bytes + add > MAX_READ_BYTES) {
                    cut = true;
                    break;
                }
                if (n > 0) {
                    text.append('\n');
                }
                text.append(line);
                bytes += add;
                n++;
            }
            r.put("text", text.toString()).put("first_line", range.first()).put("line_count", n)
                    .put("history_rows", history).put("truncated", cut);
            return null;
        });
        return r.put("revision", t.screen().revision());
    }

    // --- pane.status ---

    ObjectNode status(Call call) {
        Target t = target(call);
        PaneInfo p = t.pane();
        Screen s = t.screen();
        ObjectNode r = head(call, "pane_status", t).put("workspace_id", p.workspaceId()).put("pid", p.pid())
                .put("alive", s.pty().isAlive());
        s.read(term -> {
            r.put("cols", term.cols()).put("rows", term.rows()).put("title", term.title());
            WorkingDirectory wd = term.workingDirectory();
            r.put("cwd", wd != null ? wd.path() : p.cwd().toString());
            r.put("command", baseName(p.command().isEmpty() ? "" : p.command().get(0)));
            r.put("revision", s.revision());
            r.putObject("cursor").put("row", term.cursorRow()).put("col", term.cursorCol())
                    .put("visible", term.cursorVisible());
            r.put("alternate_screen", term.mode(Mode.ALTERNATE_SCREEN)).put("wants_mouse", term.wantsMouse());
            if (p.shell() == null) {
                r.putNull("shell_integration").putNull("shell_state");
            } else {
                r.put("shell_integration", p.shell()).put("shell_state", switch (CommandMarks.state(term)) {
                    case NO_MARKS -> "starting";
                    case AT_PROMPT -> "prompt";
                    case RUNNING -> "running";
                });
            }
            TerminalMetrics.History h = s.history();
            r.put("scroll_offset", h.scrollOffset()).put("history_rows", h.rows())
                    .put("history_budget_bytes", h.budgetBytes()).put("history_bytes", h.bytes())
                    .put("history_exact", h.exact());
            return null;
        });
        return r;
    }

    static String baseName(String program) {
        int slash = program.lastIndexOf('/');
        return slash < 0 ? program : program.substring(slash + 1);
    }

    // --- pane.processes ---

    /** Longest a call waits for a scan when the cached one cannot say. */
    static final long FRESH_SCAN_WAIT_MS = 1_000;

    ObjectNode processes(Call call) {
        Target t = target(call);
        long pid = t.pane().pid();
        ProcessTree tree = processes.tree(pid);
        if (tree.scan() == ProcessTree.Status.UNAVAILABLE) {
            // No scan yet, or the root is newer than the last one: wait (bounded) for one.
            tree = processes.awaitFresh(pid, 0, FRESH_SCAN_WAIT_MS);
        }
        ObjectNode r = head(call, "pane_processes", t)
                .put("scan", tree.scan() == ProcessTree.Status.OK ? "ok" : "unavailable")
                .put("sampled_at_ms", tree.sampledAtMillis());
        if (tree.root() == null) {
            r.putNull("root");
        } else {
            r.putObject("root").put("pid", tree.root().pid()).put("name", tree.root().name());
        }
        ArrayNode list = r.putArray("processes");
        for (ProcessEntry e : tree.descendants()) {
            list.addObject().put("pid", e.pid()).put("ppid", e.ppid()).put("name", e.name());
        }
        return r;
    }
}

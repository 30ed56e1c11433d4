package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.tui.DiffData.FileEntry;
import io.artuditu.tui.DiffData.Hunk;
import io.artuditu.tui.DiffData.Note;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.client.UhpClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code artu diff view [--path P] [--layer L] [--view auto|split|stack]}: the native DIFF
 * view, a full-screen program in a pane (the diff family's {@code diff.open} starts it there).
 * A UHP client over {@code $ARTUDITU_SOCKET_PATH} like any other: {@code diff.list} for the
 * CHANGES list, {@code diff.get {include_patch:true}} and {@code diff.note.list} for the
 * selected file, the note and git write methods for its keys, and one event stream for
 * {@code diff.changed}, {@code diff.note.changed} and this pane's {@code diff.view.navigate}.
 *
 * <p>Threads as in the workbench ({@link App}): this one is the UI thread and owns the
 * {@link DiffModel}; the input reader, the event stream and one request worker post work to
 * it through a bounded queue. Keys: {@link #KEYS} (docs/review.md).
 */
public final class DiffView {
    static final String USAGE = "usage: artu diff view [--path P] [--layer staged|worktree|untracked|conflict]"
            + " [--view auto|split|stack]";
    /** Work posted to the UI thread. */
    static final int QUEUE = 1024;
    /** Requests waiting for the worker; more are dropped with a message (a key held down). */
    static final int WORK = 32;
    static final long ESC_MS = 50;
    static final List<String> EVENTS = List.of("diff.changed", "diff.note.changed", "diff.view.navigate");

    /** The keys and what they do, for the help overlay and the docs. */
    static final List<String> KEYS = List.of(
            "j k ↓ ↑      next / previous line          J K ] [   next / previous hunk",
            "n N Tab S-Tab next / previous file         m M       next / previous note",
            "g G Home End  first / last line            PgDn PgUp a screen down / up",
            "h l ← →       old / new side (split)       v         start / end a selection",
            "a             add a note (line or selection; start the text with issue: question: suggestion: praise:)",
            "r             resolve the note under the cursor (reopen a resolved one)",
            "s             stage the hunk under the cursor (staged layer: unstage it; untracked: the whole file)",
            "S             send every open note to this workspace's agent (a chooser when there are several)",
            "t             view: auto → split → stack      R  refresh      q  quit      ?  these keys");

    private final JsonUhp uhp;
    private final String pane;
    final DiffModel model = new DiffModel();
    private final DiffRender render = new DiffRender();
    private final String layerFilter;
    private final String firstPath;
    private final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(QUEUE);
    private final ThreadPoolExecutor worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(WORK), r -> App.daemon(r, "diff-view-worker"), new ThreadPoolExecutor.DiscardPolicy());
    private final AtomicBoolean listQueued = new AtomicBoolean();
    private volatile boolean running = true;
    /** The workspace this pane is in (from the snapshot), passed to every request; null outside a pane. */
    private volatile String workspaceId;
    private String status = "";
    private Prompt prompt;
    /** The agents S offers when there are several; null when no chooser is open. */
    private List<JsonNode> chooser;
    private boolean help;
    private boolean missing;

    DiffView(JsonUhp uhp, String pane, String path, String layer, String view) {
        this.uhp = uhp;
        this.pane = pane;
        this.firstPath = path;
        this.layerFilter = layer;
        model.view = view;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv()));
    }

    /** {@code args} after {@code artu diff view}. Exit 0 on q, 2 on usage, 3 when no server answers. */
    public static int run(String[] argv, Map<String, String> env) {
        String path = null;
        String layer = null;
        String view = "auto";
        String session = null;
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        if (!args.isEmpty() && args.get(0).equals("view")) {
            args.remove(0);
        }
        while (!args.isEmpty()) {
            String a = args.remove(0);
            String v = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
            String flag = v == null ? a : a.substring(0, a.indexOf('='));
            if (flag.equals("--help") || flag.equals("-h")) {
                System.out.println(USAGE);
                return 0;
            }
            if (!List.of("--path", "--layer", "--view", "--session").contains(flag)) {
                System.err.println("artu: unexpected argument: " + a + "\n" + USAGE);
                return 2;
            }
            if (v == null) {
                if (args.isEmpty()) {
                    System.err.println("artu: " + flag + " needs a value\n" + USAGE);
                    return 2;
                }
                v = args.remove(0);
            }
            switch (flag) {
                case "--path" -> path = v;
                case "--layer" -> layer = v;
                case "--view" -> view = v;
                case "--session" -> session = v;
                default -> {
                    System.err.println("artu: unexpected argument: " + a + "\n" + USAGE);
                    return 2;
                }
            }
        }
        if (!List.of("auto", "split", "stack").contains(view)
                || layer != null && !List.of("staged", "worktree", "untracked", "conflict").contains(layer)) {
            System.err.println(USAGE);
            return 2;
        }
        SocketLocation loc;
        try {
            loc = SocketLocation.forClient(env, session);
        } catch (IllegalArgumentException e) {
            System.err.println("artu: " + e.getMessage());
            return 2;
        }
        JsonUhp uhp = new JsonUhp(UhpClient.of(loc).withToken(env.get("ARTUDITU_TOKEN")));
        Console console;
        try {
            console = Console.open(SocketLocation.home(env), env);
        } catch (IOException | LinkageError e) {
            System.err.println("artu: cannot open the terminal: " + e.getMessage());
            return 2;
        }
        if (console == null) {
            System.err.println("artu: the DIFF view needs a terminal (stdin and stdout a tty)");
            return 2;
        }
        try {
            uhp.call("ping", JsonUhp.params());
        } catch (IOException e) {
            System.err.println("artu: no server is answering on " + loc.logical());
            return 3;
        }
        DiffView v = new DiffView(uhp, env.get("ARTUDITU_PANE_ID"), path, layer, view);
        try {
            console.raw();
            console.haltOnHangup();
            console.write("\033[?1049h\033[?25l");
            v.loop(console);
        } catch (IOException e) {
            System.err.println("artu: " + e.getMessage());
            return 1;
        } finally {
            console.write("\033[0m\033[?25h\033[?1049l");
            console.restore();
        }
        return 0;
    }

    // ---- the UI thread ----

    private void loop(Console console) throws IOException {
        AnsiWriter writer = new AnsiWriter(console.colorDepth());
        AtomicBoolean resized = new AtomicBoolean(true);
        console.onResize(() -> {
            resized.set(true);
            queue.offer(() -> { });
        });
        Thread input = App.daemon(() -> readInput(console), "diff-view-input");
        input.start();
        Thread events = App.daemon(this::followEvents, "diff-view-events");
        events.start();
        submit(() -> {
            workspaceId = findWorkspace(uhp, pane);
            loadList(true);
        });
        InputDecoder decoder = new InputDecoder();
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        long escAt = 0;
        Canvas shown = null;
        while (running) {
            Runnable r;
            try {
                r = queue.poll(escAt > 0 ? ESC_MS : 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                break;
            }
            for (; r != null; r = queue.poll()) {
                if (r instanceof Bytes b) {
                    ByteBuffer in = ByteBuffer.wrap(b.bytes);
                    CharBuffer out = CharBuffer.allocate(b.bytes.length + 1);
                    utf8.decode(in, out, false);
                    out.flip();
                    char[] chars = new char[out.remaining()];
                    out.get(chars);
                    for (Input i : decoder.feed(chars, chars.length)) {
                        if (i instanceof Input.Key k) {
                            key(k);
                        }
                    }
                    escAt = decoder.pendingEscape() ? System.currentTimeMillis() + ESC_MS : 0;
                } else {
                    r.run();
                }
            }
            if (escAt > 0 && System.currentTimeMillis() >= escAt) {
                for (Input i : decoder.flush()) {
                    if (i instanceof Input.Key k) {
                        key(k);
                    }
                }
                escAt = 0;
            }
            if (!running) {
                break;
            }
            if (resized.getAndSet(false)) {
                shown = null;
            }
            model.setWidth(console.cols());
            Canvas c = new Canvas(console.cols(), console.rows());
            paint(c);
            console.write(writer.diff(shown, c, null));
            shown = c;
        }
        running = false;
        console.stopReading();
        worker.shutdownNow();
    }

    /** The whole picture: the model, the help over it, the bottom line. */
    void paint(Canvas c) {
        String p = prompt == null ? null : prompt.label + prompt.text();
        int cur = prompt == null ? 0 : Canvas.width(prompt.label) + Canvas.width(prompt.beforeCursor());
        String line = chooser != null ? chooserLine() : status;
        render.paint(c, model, line, p, cur);
        if (help) {
            int w = Math.min(c.cols - 2, 110);
            int h = Math.min(c.rows - 2, KEYS.size() + 2);
            int x = Math.max(0, (c.cols - w) / 2);
            int y = Math.max(0, (c.rows - h) / 2);
            c.fill(x, y, w, h, Canvas.BLANK, DiffRender.SELECTED);
            c.text(x + 1, y, "keys (diff.navigate actions and review) — any key closes", DiffRender.TITLE, w - 2);
            for (int i = 0; i < h - 2; i++) {
                c.text(x + 1, y + 1 + i, Canvas.clip(KEYS.get(i), w - 2), DiffRender.SELECTED, w - 2);
            }
        }
    }

    private String chooserLine() {
        StringBuilder b = new StringBuilder("send the open notes to: ");
        for (int i = 0; i < chooser.size() && i < 9; i++) {
            JsonNode a = chooser.get(i);
            b.append('[').append(i + 1).append("] ").append(agentLabel(a)).append("  ");
        }
        return b.append("(Esc cancels)").toString();
    }

    static String agentLabel(JsonNode a) {
        String name = a.path("name").isTextual() ? a.path("name").asText() : a.path("agent").asText("agent");
        return name + " (pane " + a.path("pane").asText() + ", " + a.path("status").asText("?") + ")";
    }

    /** One key: to the prompt, the chooser or the help when one is open, else {@link #command}. */
    void key(Input.Key k) {
        if (help) {
            help = false;
            return;
        }
        if (prompt != null) {
            Prompt p = prompt;
            switch (p.key(k)) {
                case DONE -> {
                    prompt = null;
                    p.done.accept(p.text());
                }
                case CANCEL -> {
                    prompt = null;
                    status = "";
                }
                default -> { }
            }
            return;
        }
        if (chooser != null) {
            List<JsonNode> agents = chooser;
            chooser = null;
            if (k.name().equals("char") && k.ch().length() == 1 && Character.isDigit(k.ch().charAt(0))) {
                int i = k.ch().charAt(0) - '1';
                if (i >= 0 && i < agents.size()) {
                    send(agents.get(i).path("pane").asText());
                    return;
                }
            }
            status = "not sent";
            return;
        }
        String c = command(k);
        if (c != null) {
            run(c);
        }
    }

    /** What a key means here: a {@code diff.navigate} action or one of the review commands, else null. */
    static String command(Input.Key k) {
        if (k.ctrl() && k.name().equals("char") && k.ch().equals("c")) {
            return "quit";
        }
        if (k.name().equals("char") && !k.ctrl() && !k.alt()) {
            return switch (k.ch()) {
                case "j" -> "next_line";
                case "k" -> "previous_line";
                case "J", "]" -> "next_hunk";
                case "K", "[" -> "previous_hunk";
                case "n" -> "next_file";
                case "N" -> "previous_file";
                case "m" -> "next_note";
                case "M" -> "previous_note";
                case "g" -> "top";
                case "G" -> "bottom";
                case "h" -> "side_old";
                case "l" -> "side_new";
                case "v" -> "select";
                case "a" -> "add_note";
                case "r" -> "resolve";
                case "s" -> "stage";
                case "S" -> "send";
                case "t" -> "toggle_view";
                case "R" -> "refresh";
                case "q" -> "quit";
                case "?" -> "help";
                case " " -> "page_down";
                default -> null;
            };
        }
        return switch (k.name()) {
            case "down" -> "next_line";
            case "up" -> "previous_line";
            case "tab" -> k.shift() ? "previous_file" : "next_file";
            case "back_tab" -> "previous_file";
            case "home" -> "top";
            case "end" -> "bottom";
            case "left" -> "side_old";
            case "right" -> "side_new";
            case "page_down" -> "page_down";
            case "page_up" -> "page_up";
            case "esc" -> "cancel";
            default -> null;
        };
    }

    void run(String c) {
        if (DiffModel.ACTIONS.contains(c)) {
            navigate(c);
            return;
        }
        switch (c) {
            case "side_old" -> model.side = "old";
            case "side_new" -> model.side = "new";
            case "select" -> {
                model.mark = model.mark >= 0 ? -1 : model.cursor;
                status = model.mark >= 0 ? "selecting: move, then a to note the lines (v or Esc ends)" : "";
            }
            case "cancel" -> {
                model.mark = -1;
                status = "";
            }
            case "page_down", "page_up" -> {
                for (int i = 0; i < 20; i++) {
                    model.step(c.equals("page_down") ? "next_line" : "previous_line");
                }
            }
            case "add_note" -> addNote();
            case "resolve" -> resolve();
            case "stage" -> stage();
            case "send" -> sendAll();
            case "toggle_view" -> model.setView(switch (model.view) {
                case "auto" -> "split";
                case "split" -> "stack";
                default -> "auto";
            });
            case "refresh" -> submit(() -> {
                try {
                    uhp.call("diff.refresh", ws(JsonUhp.params()));
                } catch (IOException e) {
                    post(() -> fail("diff.refresh", e));
                }
                loadList(true);
            });
            case "help" -> help = true;
            case "quit" -> running = false;
            default -> { }
        }
    }

    /** One diff.navigate action, from a key or from this pane's {@code diff.view.navigate} event. */
    void navigate(String action) {
        if (model.step(action) == DiffModel.Effect.LOAD_FILE) {
            loadFile();
        }
    }

    private void addNote() {
        FileEntry f = model.file();
        DiffModel.Anchor a = model.anchor();
        if (f == null || a == null) {
            status = "no source line here on the " + model.side + " side to note";
            return;
        }
        String where = a.side() + " L" + a.line() + (a.endLine() != a.line() ? "–" + a.endLine() : "");
        prompt = new Prompt("note on " + f.path() + " " + where + ": ", "", text -> {
            String body = text.strip();
            if (body.isEmpty()) {
                status = "no note: the text was empty";
                return;
            }
            ObjectNode p = ws(JsonUhp.params()).put("file", f.path());
            if (f.layer() != null) {
                p.put("layer", f.layer());
            }
            p.put(a.side().equals("old") ? "old_line" : "new_line", a.line());
            if (a.endLine() != a.line()) {
                p.put("end_line", a.endLine());
            }
            for (String kind : List.of("question", "issue", "suggestion", "praise")) {
                if (body.startsWith(kind + ":")) {
                    p.put("kind", kind);
                    body = body.substring(kind.length() + 1).strip();
                    break;
                }
            }
            p.put("body", body);
            model.mark = -1;
            status = "adding the note…";
            submit(() -> {
                try {
                    JsonNode r = uhp.call("diff.note.add", p);
                    post(() -> status = "added note " + r.path("note").path("id").asText());
                    loadList(false);
                    reloadFile();
                } catch (IOException e) {
                    post(() -> fail("diff.note.add", e));
                }
            });
        });
    }

    private void resolve() {
        Note n = model.noteAtCursor();
        if (n == null) {
            status = "no note on this line";
            return;
        }
        String method = n.open() ? "diff.note.resolve" : "diff.note.reopen";
        submit(() -> {
            try {
                JsonNode r = uhp.call(method, ws(JsonUhp.params()).put("id", n.id()));
                post(() -> status = n.id() + " is " + r.path("note").path("state").asText("changed"));
                loadList(false);
                reloadFile();
            } catch (IOException e) {
                post(() -> fail(method, e));
            }
        });
    }

    /** s: the hunk under the cursor as a patch to git.stage (git.unstage on the staged layer); an untracked file whole. */
    private void stage() {
        FileEntry f = model.file();
        Hunk h = model.hunkAtCursor();
        if (f == null || h == null && !"untracked".equals(f.layer())) {
            status = "no hunk under the cursor";
            return;
        }
        String method;
        ObjectNode p = ws(JsonUhp.params());
        if ("untracked".equals(f.layer())) {
            method = "git.stage";
            p.putArray("paths").add(f.path());
        } else if ("conflict".equals(f.layer())) {
            status = "a conflicted file is staged whole once resolved: artu git stage --paths " + f.path();
            return;
        } else if (!HunkPatch.whole(h)) {
            status = "hunk " + h.id() + " has a line the server cut at 16 KiB: no patch can be built from it;"
                    + " stage the whole file (artu git stage --paths " + f.path() + ")";
            return;
        } else {
            method = "staged".equals(f.layer()) ? "git.unstage" : "git.stage";
            p.put("patch", HunkPatch.of(f.path(), model.diff.oldPath(), model.diff.status(), h));
        }
        String what = h == null ? f.path() : "hunk " + h.id() + " of " + f.path();
        status = (method.equals("git.unstage") ? "unstaging " : "staging ") + what + "…";
        submit(() -> {
            try {
                JsonNode r = uhp.call(method, p);
                String state = r.path("state").asText("succeeded");
                post(() -> status = switch (state) {
                    case "running" -> what + ": still running as " + r.path("op").asText() + " (a git.op event ends it)";
                    case "failed" -> what + ": git failed: " + r.path("message").asText("");
                    default -> (method.equals("git.unstage") ? "unstaged " : "staged ") + what;
                });
                loadList(true);
            } catch (IOException e) {
                post(() -> fail(method, e));
            }
        });
    }

    /** S: the live agents of this workspace; one gets the notes at once, several open the chooser. */
    private void sendAll() {
        status = "looking for this workspace's agent…";
        submit(() -> {
            try {
                List<JsonNode> agents = agentsOf(uhp.call("agent.list", JsonUhp.params()), workspaceId, pane);
                post(() -> {
                    if (agents.isEmpty()) {
                        status = "no agent runs in this workspace: start one, then S again";
                    } else if (agents.size() == 1) {
                        send(agents.get(0).path("pane").asText());
                    } else {
                        chooser = agents.subList(0, Math.min(9, agents.size()));
                    }
                });
            } catch (IOException e) {
                post(() -> fail("agent.list", e));
            }
        });
    }

    /** The agent rows of {@code agent.list} in {@code workspaceId} (all of them when it is unknown), this pane left out. */
    static List<JsonNode> agentsOf(JsonNode list, String workspaceId, String self) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : list.path("agents")) {
            if (workspaceId != null && !workspaceId.equals(a.path("workspace_id").asText())) {
                continue;
            }
            if (a.path("pane").asText().equals(self) || "exited".equals(a.path("status").asText())) {
                continue;
            }
            out.add(a);
        }
        return out;
    }

    private void send(String to) {
        status = "sending the open notes to pane " + to + "…";
        submit(() -> {
            try {
                JsonNode r = uhp.call("diff.note.send", ws(JsonUhp.params()).put("to", to).put("all_open", true));
                post(() -> status = "sent " + r.path("ids").size() + " notes to pane " + r.path("pane").asText(to)
                        + " (" + r.path("bytes").asInt() + " bytes)");
                reloadFile();
            } catch (IOException e) {
                post(() -> fail("diff.note.send", e));
            }
        });
    }

    /** A failed request on the bottom line. */
    private void fail(String method, IOException e) {
        missing = e instanceof JsonUhp.Failure f && f.code.equals("unknown_method");
        status = failureLine(method, e);
    }

    /** What the bottom line says of a failed request; a method the server lacks says that in one line. */
    static String failureLine(String method, IOException e) {
        if (e instanceof JsonUhp.Failure f && f.code.equals("unknown_method")) {
            return method + " is not served by this server (unknown_method): its family is not installed yet";
        }
        if (e instanceof JsonUhp.Failure f) {
            return method + ": " + f.code + ": " + f.getMessage();
        }
        return method + ": " + e.getMessage();
    }

    private void post(Runnable r) {
        if (!queue.offer(r)) {
            // the UI is behind by QUEUE items: this update is dropped; the next event reloads
        }
    }

    private void submit(Runnable r) {
        if (!running) {
            return;
        }
        int before = worker.getQueue().size();
        worker.execute(r);
        if (before >= WORK) {
            post(() -> status = "busy: a request was dropped (try again)");
        }
    }

    private ObjectNode ws(ObjectNode p) {
        if (workspaceId != null) {
            p.put("workspace_id", workspaceId);
        }
        return p;
    }

    // ---- the worker ----

    /** diff.list, then the selected file when the selection moved (or {@code file}). Worker thread. */
    private void loadList(boolean file) {
        if (!listQueued.compareAndSet(false, true) && !file) {
            return;
        }
        try {
            ObjectNode p = ws(JsonUhp.params());
            if (layerFilter != null) {
                p.put("layer", layerFilter);
            }
            JsonNode r = uhp.call("diff.list", p);
            List<FileEntry> files = DiffData.files(r);
            post(() -> {
                missing = false;
                boolean moved = model.setFiles(files, firstPath, layerFilter);
                if (moved || file) {
                    loadFile();
                }
                if (status.startsWith("diff.list")) {
                    status = "";
                }
            });
        } catch (IOException e) {
            post(() -> fail("diff.list", e));
        } finally {
            listQueued.set(false);
        }
    }

    /** Loads the selected file's diff and notes. UI thread (the requests go to the worker). */
    private void loadFile() {
        FileEntry f = model.file();
        if (f == null) {
            return;
        }
        submit(() -> fetchFile(f));
    }

    private void reloadFile() {
        post(this::loadFile);
    }

    private void fetchFile(FileEntry f) {
        try {
            ObjectNode p = ws(JsonUhp.params()).put("path", f.path()).put("include_patch", true);
            if (f.layer() != null) {
                p.put("layer", f.layer());
            }
            DiffData.FileDiff d = DiffData.FileDiff.parse(uhp.call("diff.get", p));
            List<Note> notes;
            try {
                notes = forLayer(DiffData.notes(uhp.call("diff.note.list", ws(JsonUhp.params()).put("file", f.path()))), f.layer());
            } catch (JsonUhp.Failure e) {
                notes = List.of();
            }
            List<Note> n = notes;
            post(() -> {
                if (model.file() != null && model.file().path().equals(f.path())
                        && java.util.Objects.equals(model.file().layer(), f.layer())) {
                    model.setDiff(d, n);
                }
            });
        } catch (IOException e) {
            post(() -> fail("diff.get", e));
        }
    }

    static List<Note> forLayer(List<Note> notes, String layer) {
        List<Note> out = new ArrayList<>();
        for (Note n : notes) {
            if (layer == null || n.layer() == null || layer.equals(n.layer())) {
                out.add(n);
            }
        }
        return out;
    }

    /** The workspace holding {@code pane} ({@code pane.get}), or null outside a pane. */
    static String findWorkspace(JsonUhp uhp, String pane) {
        if (pane == null || pane.isEmpty()) {
            return null;
        }
        try {
            return uhp.call("pane.get", JsonUhp.params().put("pane", pane)).path("workspace_id").asText(null);
        } catch (IOException e) {
            return null;
        }
    }

    // ---- the other threads ----

    /** Raw bytes from the terminal, decoded on the UI thread. */
    private record Bytes(byte[] bytes) implements Runnable {
        @Override
        public void run() {
        }
    }

    private void readInput(Console console) {
        byte[] buf = new byte[4096];
        try {
            while (running) {
                int n = console.read(buf);
                if (n == App.Outer.STOPPED) {
                    return;
                }
                if (n < 0) {
                    post(() -> running = false);
                    return;
                }
                queue.put(new Bytes(Arrays.copyOf(buf, n)));
            }
        } catch (IOException e) {
            post(() -> running = false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The event stream, reopened a second after it ends while the view runs. */
    private void followEvents() {
        while (running) {
            try (JsonUhp.Stream s = uhp.open("events.subscribe", eventsParams())) {
                s.reply();
                String line;
                while (running && (line = s.readLine()) != null) {
                    JsonNode e = JsonUhp.JSON.readTree(line);
                    String name = e.path("event").asText();
                    if (name.equals("events.resync_required")) {
                        break;
                    }
                    Runnable r = onEvent(name, e.path("data"));
                    if (r != null) {
                        post(r);
                    }
                }
            } catch (IOException e) {
                // the server went away or refused: try again below
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            submit(() -> loadList(true)); // whatever happened while the stream was down
        }
    }

    static ObjectNode eventsParams() {
        ObjectNode p = JsonUhp.params();
        EVENTS.forEach(p.putArray("events")::add);
        return p;
    }

    /** What an event does here (null: not ours). Event thread; the result runs on the UI thread. */
    Runnable onEvent(String name, JsonNode data) {
        switch (name) {
            case "diff.view.navigate" -> {
                String action = data.path("action").asText();
                if (pane == null || !pane.equals(data.path("pane").asText()) || !DiffModel.ACTIONS.contains(action)) {
                    return null;
                }
                return () -> navigate(action);
            }
            case "diff.changed" -> {
                String w = data.path("workspace_id").asText(null);
                if (w != null && workspaceId != null && !w.equals(workspaceId)) {
                    return null;
                }
                return () -> submit(() -> loadList(true));
            }
            case "diff.note.changed" -> {
                return () -> {
                    submit(() -> loadList(false));
                    loadFile();
                };
            }
            default -> {
                return null;
            }
        }
    }

    /** For tests: what the bottom line says. */
    String status() {
        return status;
    }

    boolean missing() {
        return missing;
    }
}

package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.vt.Style;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the stage shows for a tab of kind {@code git} (made by {@code git.open}): the
 * workspace's {@code git.status} (branch, upstream, ahead/behind, state, counts), its
 * {@code git.branches}, the first page of {@code git.log}, and the last git operation the
 * {@code git.op} events told of. Fetched on the workbench's request worker when the tab
 * shows for another workspace than the one last fetched, when a {@code git.op},
 * {@code diff.changed} or {@code files.changed} event says the repository moved, and on
 * {@code r}; drawn on the UI thread from the last answers.
 */
final class GitDashboard {
    /** Commits fetched for the log (one page). */
    static final int LOG_PAGE = 50;
    /** Local branches drawn before "…N more". */
    static final int BRANCH_ROWS = 12;

    /** One drawn line: its text and its role (title, heading, plain, dim, good, bad). */
    record Line(String text, String role) {
    }

    private final App app;
    /** The workspace the answers below are for. UI thread. */
    String workspace;
    JsonNode status;
    JsonNode branches;
    JsonNode log;
    /** The last {@code git.op} event's data, or null. */
    JsonNode op;
    String error;
    private boolean fetching;
    private boolean stale;

    GitDashboard(App app) {
        this.app = app;
    }

    /** The dashboard of {@code ws} is about to be drawn: fetch when what is held is another workspace's or stale. */
    void showing(String ws) {
        if (ws == null || fetching || ws.equals(workspace) && !stale) {
            return;
        }
        if (!ws.equals(workspace)) {
            status = null;
            branches = null;
            log = null;
            error = null;
        }
        fetching = true;
        stale = false;
        workspace = ws;
        app.requests.execute(() -> fetch(ws));
    }

    /** The repository may have moved: the next drawing fetches again. */
    void invalidate() {
        stale = true;
        app.chrome = true;
    }

    void onOp(JsonNode data) {
        op = data;
        invalidate();
    }

    private void fetch(String ws) {
        JsonUhp uhp = app.requests.uhp();
        JsonNode s = null;
        JsonNode b = null;
        JsonNode l = null;
        String err = null;
        try {
            s = uhp.call("git.status", JsonUhp.params().put("workspace_id", ws));
            b = uhp.call("git.branches", JsonUhp.params().put("workspace_id", ws));
            l = uhp.call("git.log", JsonUhp.params().put("workspace_id", ws).put("limit", LOG_PAGE));
        } catch (JsonUhp.Failure f) {
            err = f.code.equals("unknown_method") ? "this server has no git family (unknown_method)" : f.code + ": " + f.getMessage();
        } catch (IOException e) {
            err = e.getMessage();
        }
        JsonNode s0 = s;
        JsonNode b0 = b;
        JsonNode l0 = l;
        String e0 = err;
        app.post(() -> {
            fetching = false;
            if (!ws.equals(workspace)) {
                return;
            }
            status = s0;
            branches = b0;
            log = l0;
            error = e0;
            app.chrome = true;
        });
    }

    /** The dashboard's lines from the answers held (any of them may be null: not fetched yet). */
    static List<Line> lines(JsonNode status, JsonNode branches, JsonNode log, JsonNode op, String error) {
        List<Line> out = new ArrayList<>();
        if (status == null) {
            out.add(new Line("GIT", "title"));
            out.add(new Line(error != null ? error : "reading the repository…", error != null ? "bad" : "dim"));
            return out;
        }
        out.add(new Line("GIT  " + status.path("root").asText(""), "title"));
        String branch = status.path("detached").asBoolean() || status.path("branch").isNull()
                ? "detached at " + shortId(status.path("head").asText(null))
                : "on " + status.path("branch").asText();
        StringBuilder b = new StringBuilder(branch);
        if (!status.path("upstream").isNull() && status.has("upstream")) {
            b.append(" → ").append(status.path("upstream").asText())
                    .append("  ↑").append(status.path("ahead").asInt()).append(" ↓").append(status.path("behind").asInt());
        } else {
            b.append("  (no upstream)");
        }
        String state = status.path("state").asText("unknown");
        b.append("   state: ").append(state);
        if (status.path("dirty").asBoolean()) {
            b.append("   dirty");
        }
        out.add(new Line(b.toString(), state.equals("clean") ? "plain" : "bad"));
        JsonNode c = status.path("counts");
        out.add(new Line("staged " + c.path("staged").asInt() + "   unstaged " + c.path("unstaged").asInt()
                + "   untracked " + c.path("untracked").asInt() + "   conflicted " + c.path("conflicted").asInt()
                + (status.path("truncated").asBoolean() ? "   (at least: the walk was cut)" : ""),
                c.path("conflicted").asInt() > 0 ? "bad" : "plain"));
        if (op != null) {
            String st = op.path("state").asText("?");
            out.add(new Line("operation " + op.path("op").asText() + " " + op.path("kind").asText("") + ": " + st
                    + (op.hasNonNull("message") && !op.path("message").asText().isEmpty() ? " — " + op.path("message").asText() : ""),
                    st.equals("failed") ? "bad" : st.equals("succeeded") ? "good" : "plain"));
        }
        if (error != null) {
            out.add(new Line(error, "bad"));
        }
        out.add(new Line("", "plain"));
        if (branches != null) {
            JsonNode local = branches.path("local");
            out.add(new Line("BRANCHES  " + local.size() + " local, " + branches.path("remote").size() + " remote"
                    + (branches.path("truncated").asBoolean() ? " (cut)" : ""), "heading"));
            int shown = 0;
            for (JsonNode r : local) {
                if (shown == BRANCH_ROWS) {
                    out.add(new Line("  …" + (local.size() - shown) + " more", "dim"));
                    break;
                }
                shown++;
                JsonNode commit = r.path("commit");
                StringBuilder l = new StringBuilder(r.path("current").asBoolean() ? "* " : "  ");
                l.append(r.path("name").asText()).append("  ").append(commit.path("short_id").asText(""))
                        .append(' ').append(commit.path("subject").asText(""));
                if (r.hasNonNull("upstream")) {
                    l.append("   ").append(r.path("upstream").asText()).append(" ↑").append(r.path("ahead").asInt())
                            .append(" ↓").append(r.path("behind").asInt());
                }
                out.add(new Line(l.toString(), r.path("current").asBoolean() ? "good" : "plain"));
            }
            out.add(new Line("", "plain"));
        }
        if (log != null) {
            out.add(new Line("LOG  " + log.path("ref").asText("HEAD"), "heading"));
            if (log.path("commits").isEmpty()) {
                out.add(new Line("  no commits yet", "dim"));
            }
            for (JsonNode cm : log.path("commits")) {
                out.add(new Line(cm.path("short_id").asText() + "  " + cm.path("subject").asText("") + "  — "
                        + cm.path("author_name").asText(""), "plain"));
            }
            if (!log.path("next_skip").isNull() && log.has("next_skip")) {
                out.add(new Line("  … more: artu git log --skip " + log.path("next_skip").asInt(), "dim"));
            }
        }
        return out;
    }

    private static String shortId(String id) {
        return id == null ? "(no commit)" : id.substring(0, Math.min(7, id.length()));
    }

    /** Paints the dashboard of {@code ws} into the stage {@code r}. */
    void paint(Canvas c, Layout.Rect r, Theme theme, String ws) {
        showing(ws);
        List<Line> lines = lines(ws.equals(workspace) ? status : null, branches, log, op, error);
        lines.add(new Line("", "plain"));
        lines.add(new Line("keys here: r refresh   D open the DIFF view (diff.open)", "dim"));
        draw(c, r, theme, lines);
    }

    static void draw(Canvas c, Layout.Rect r, Theme theme, List<Line> lines) {
        for (int i = 0; i < lines.size() && i < r.h(); i++) {
            Line l = lines.get(i);
            long st = switch (l.role()) {
                case "title" -> theme.headerFocus;
                case "heading" -> Style.BOLD;
                case "dim" -> theme.barDim & ~Style.BG_MASK;
                case "good" -> Style.withFg(0, Style.indexed(2));
                case "bad" -> Style.withFg(0, Style.indexed(1)) | Style.BOLD;
                default -> Style.DEFAULT;
            };
            if (l.role().equals("title")) {
                c.fill(r.x(), r.y() + i, r.w(), 1, Canvas.BLANK, st);
            }
            c.text(r.x() + 1, r.y() + i, Canvas.clip(l.text(), r.w() - 2), st, r.w() - 2);
        }
    }

    /** A key typed while the dashboard is the stage (no pane takes it): true when it was the dashboard's. */
    boolean key(Input.Key k, String ws) {
        if (k.isChar("r")) {
            invalidate();
            showing(ws);
            return true;
        }
        if (k.isChar("D")) {
            app.requests.focusRequest("diff.open", JsonUhp.params().put("workspace_id", ws));
            return true;
        }
        return false;
    }
}

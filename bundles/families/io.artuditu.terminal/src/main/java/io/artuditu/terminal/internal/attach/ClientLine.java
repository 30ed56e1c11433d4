package io.artuditu.terminal.internal.attach;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.terminal.internal.Lines;
import io.artuditu.vt.Key;
import io.artuditu.vt.MouseEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A line a client sends on an attach stream, decoded into what the stream does with it.
 * The shapes are the client protocol's ({@code {"input":{"key":…}}}, {@code {"resize":…}},
 * {@code {"watch":…}}, {@code "detach"}, …); an enum variant without payload may come as a
 * bare string or as {@code {"name": null}}.
 *
 * <p>Three outcomes besides a message: {@link Ignored} for kinds this server does not know
 * (a newer client's additions; the stream goes on silently), {@link Refused} for a message
 * that decoded but cannot be carried out (answered with an {@code error} line), and
 * {@link Undecodable} for a line that is not JSON or whose known kind has the wrong shape
 * (answered with an {@code error} line and counted: too many in a row end the stream).
 *
 * <p>Numbers follow the request's rules ({@code docs/protocol/spec-notes.md}, "Numbers"):
 * an integer may be written with a zero fraction or an exponent ({@code 7.0}, {@code 7e0}),
 * and a value past 64 bits is refused, never wrapped.
 */
final class ClientLine {
    /** Widest and tallest terminal a client may ask for. */
    static final int MAX_COLS = 1000;
    static final int MAX_ROWS = 500;

    /** What a line asks for. */
    sealed interface Message {
    }

    /** A key press: {@code key} for a single character or named key, else {@code text} to send as is. */
    record KeyPress(Key key, byte[] text) implements Message {
    }

    record Paste(String text) implements Message {
    }

    /** One wheel notch at cell (x, y). */
    record Wheel(boolean up, int x, int y) implements Message {
    }

    /** A press, release or drag of the left button at cell (x, y). */
    record Mouse(MouseEvent.Action action, int x, int y) implements Message {
    }

    record Resize(int cols, int rows) implements Message {
    }

    /** {@code pages} pages of scrollback: negative back, positive forward. */
    record ScrollPage(int pages) implements Message {
    }

    /** Re-point the stream to another pane (the id as a decimal string). */
    record Watch(String pane) implements Message {
    }

    record Detach() implements Message {
    }

    /** Something only the client could know (client protocol: shown where the client shows errors). */
    record Notice(String text) implements Message {
    }

    /** The client is asked to read its own clipboard and answer with {@link PutFile} (or a notice). */
    record PasteImage() implements Message {
    }

    /** A file to store in the workspace's scratch folder and paste, as a path, into the pane. */
    record PutFile(String name, byte[] data) implements Message {
    }

    record Ignored(String what) implements Message {
    }

    record Refused(String message) implements Message {
    }

    record Undecodable(String reason) implements Message {
    }

    /** Commands of the client protocol that a pane attach answers with an error, by name. */
    private static final Set<String> COMMANDS = Set.of("split_pane", "close_pane", "focus_dir", "focus_pane", "zoom_toggle",
            "resize_pane", "new_window", "next_window", "prev_window", "select_window", "rename_window",
            "new_session", "kill_session", "list_sessions", "kill_server", "kill_server_clear", "apply_layout",
            "open_file", "list_agents", "spawn_agent", "set_default_agent", "new_process", "reload_config",
            "set_theme", "list_themes", "toggle_all_agents", "git_menu");

    /** Longest notice echoed back, in characters (client protocol: "Truncated at 200 characters"). */
    static final int MAX_NOTICE = 200;

    /** Named key codes of the protocol; each is also a {@link Key} name. */
    private static final Set<String> KEY_NAMES = Set.of("enter", "esc", "backspace", "tab", "back_tab", "left", "right", "up", "down",
            "home", "end", "page_up", "page_down", "delete", "insert");

    private static final ObjectMapper JSON = new ObjectMapper();

    private ClientLine() {
    }

    /** Decodes one line (without its newline). Never throws. */
    static Message decode(byte[] line) {
        String foreign = Lines.notUtf8(line);
        if (foreign != null) {
            return new Undecodable("not UTF-8 JSON: " + foreign);
        }
        JsonNode n;
        try {
            n = JSON.readTree(line); // bytes: Jackson refuses malformed UTF-8 rather than replacing it
        } catch (JsonProcessingException e) {
            return new Undecodable("not JSON: " + e.getOriginalMessage());
        } catch (IOException | RuntimeException e) {
            return new Undecodable("not JSON");
        }
        if (n == null || n.isMissingNode()) {
            return new Undecodable("empty line");
        }
        try {
            return decode(n);
        } catch (Bad e) {
            return new Undecodable(e.getMessage());
        }
    }

    /** A known kind with the wrong shape. */
    private static final class Bad extends Exception {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message, null, false, false);
        }
    }

    private static Message decode(JsonNode n) throws Bad {
        if (n.isTextual()) {
            return variant(n.textValue(), null);
        }
        if (!n.isObject() || n.size() != 1) {
            throw new Bad("a message is a string or an object with exactly one key");
        }
        Map.Entry<String, JsonNode> e = n.fields().next();
        return variant(e.getKey(), e.getValue());
    }

    private static Message variant(String kind, JsonNode body) throws Bad {
        return switch (kind) {
            case "detach" -> new Detach();
            case "input" -> input(body);
            case "resize" -> resize(body);
            case "command" -> command(body);
            case "watch" -> watch(body);
            case "notice" -> {
                if (body == null || !body.isTextual()) {
                    throw new Bad("notice takes a string");
                }
                String t = body.textValue();
                yield new Notice(t.codePointCount(0, t.length()) <= MAX_NOTICE ? t
                        : t.substring(0, t.offsetByCodePoints(0, MAX_NOTICE)));
            }
            default -> new Ignored(kind);
        };
    }

    private static Message input(JsonNode body) throws Bad {
        if (body == null || !body.isObject() || body.size() != 1) {
            throw new Bad("input takes an object with exactly one key");
        }
        Map.Entry<String, JsonNode> e = body.fields().next();
        JsonNode v = e.getValue();
        return switch (e.getKey()) {
            case "key" -> key(v);
            case "paste" -> {
                if (!v.isTextual()) {
                    throw new Bad("paste takes a string");
                }
                yield new Paste(v.textValue());
            }
            case "scroll_up" -> new Wheel(true, coordinate(v, "x"), coordinate(v, "y"));
            case "scroll_down" -> new Wheel(false, coordinate(v, "x"), coordinate(v, "y"));
            case "mouse_down" -> {
                int x = coordinate(v, "x");
                int y = coordinate(v, "y");
                JsonNode b = v.get("button");
                if (b != null && !b.isNull() && !"left".equals(b.asText())) {
                    // A right press is the client's cue for its own menu; the pane never sees it.
                    yield new Ignored("mouse_down with button " + b.asText());
                }
                yield new Mouse(MouseEvent.Action.PRESS, x, y);
            }
            case "mouse_up" -> new Mouse(MouseEvent.Action.RELEASE, coordinate(v, "x"), coordinate(v, "y"));
            case "mouse_drag" -> new Mouse(MouseEvent.Action.DRAG, coordinate(v, "x"), coordinate(v, "y"));
            default -> new Ignored("input " + e.getKey());
        };
    }

    private static int coordinate(JsonNode v, String field) throws Bad {
        JsonNode c = v == null ? null : v.get(field);
        if (c == null || !c.canConvertToExactIntegral() || !c.canConvertToInt() || c.intValue() < 0) {
            throw new Bad(field + " must be a cell index (an integer >= 0)");
        }
        return c.intValue();
    }

    private static Message key(JsonNode v) throws Bad {
        if (v == null || !v.isObject()) {
            throw new Bad("key takes {\"code\":…, \"mods\":{…}}");
        }
        JsonNode mods = v.path("mods");
        boolean ctrl = mods.path("ctrl").asBoolean(false);
        boolean alt = mods.path("alt").asBoolean(false);
        boolean shift = mods.path("shift").asBoolean(false);
        JsonNode code = v.get("code");
        if (code == null) {
            throw new Bad("key needs a code");
        }
        if (code.isTextual()) {
            String name = code.textValue();
            if (!KEY_NAMES.contains(name)) {
                return new Refused("unknown key code \"" + clip(name) + "\"");
            }
            return new KeyPress(new Key(name, ctrl, alt, shift), null);
        }
        if (code.isObject() && code.has("char")) {
            JsonNode ch = code.get("char");
            if (!ch.isTextual() || ch.textValue().isEmpty()) {
                throw new Bad("char takes a non-empty string");
            }
            String s = ch.textValue();
            if (s.codePointCount(0, s.length()) == 1) {
                try {
                    return new KeyPress(new Key(s, ctrl, alt, shift), null);
                } catch (IllegalArgumentException bad) {
                    return new Refused(bad.getMessage());
                }
            }
            // A grapheme of several code points (an emoji sequence, a letter with marks) goes as text.
            if (ctrl) {
                return new Refused("ctrl applies to single characters only");
            }
            if (s.codePoints().anyMatch(Character::isISOControl)) {
                return new Refused("char must not contain control characters; use a key name such as \"enter\"");
            }
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            if (!alt) {
                return new KeyPress(null, utf8);
            }
            byte[] out = new byte[utf8.length + 1];
            out[0] = 0x1b;
            System.arraycopy(utf8, 0, out, 1, utf8.length);
            return new KeyPress(null, out);
        }
        if (code.isObject() && code.has("f")) {
            JsonNode f = code.get("f");
            if (!f.canConvertToExactIntegral()) {
                throw new Bad("f takes an integer");
            }
            if (!f.canConvertToInt() || f.intValue() < 1 || f.intValue() > 12) {
                return new Refused("function keys are f1 to f12");
            }
            return new KeyPress(new Key("f" + f.intValue(), ctrl, alt, shift), null);
        }
        return new Refused("unknown key code " + clip(code.toString()));
    }

    private static Message resize(JsonNode body) throws Bad {
        if (body == null || !body.isObject()) {
            throw new Bad("resize takes {\"cols\":…, \"rows\":…}");
        }
        JsonNode c = body.get("cols");
        JsonNode r = body.get("rows");
        if (c == null || r == null || !c.canConvertToExactIntegral() || !r.canConvertToExactIntegral()) {
            throw new Bad("resize takes integer cols and rows");
        }
        if (!c.canConvertToInt() || c.intValue() < 1 || c.intValue() > MAX_COLS || !r.canConvertToInt()
                || r.intValue() < 1 || r.intValue() > MAX_ROWS) {
            return new Refused("resize: cols must be 1.." + MAX_COLS + " and rows 1.." + MAX_ROWS + ", got "
                    + clip(c.asText()) + "x" + clip(r.asText()));
        }
        return new Resize(c.intValue(), r.intValue());
    }

    private static Message command(JsonNode body) throws Bad {
        String name;
        JsonNode arg = null;
        if (body != null && body.isTextual()) {
            name = body.textValue();
        } else if (body != null && body.isObject() && body.size() == 1) {
            Iterator<Map.Entry<String, JsonNode>> it = body.fields();
            Map.Entry<String, JsonNode> e = it.next();
            name = e.getKey();
            arg = e.getValue();
        } else {
            throw new Bad("command takes a string or an object with exactly one key");
        }
        if (name.equals("scroll_page")) {
            if (arg == null || !arg.canConvertToExactIntegral()) {
                throw new Bad("scroll_page takes an integer (negative back, positive forward)");
            }
            if (!arg.canConvertToLong()) {
                return new Refused("scroll_page: " + clip(arg.asText()) + " is out of range");
            }
            long pages = Math.max(-1000, Math.min(1000, arg.longValue()));
            return new ScrollPage((int) pages);
        }
        if (name.equals("paste_image")) {
            return new PasteImage();
        }
        if (name.equals("put_file")) {
            return putFile(arg);
        }
        if (COMMANDS.contains(name)) {
            return new Refused(name + " is not available on a pane attach: it streams one pane and draws no workbench");
        }
        return new Refused("unknown command \"" + clip(name) + "\"");
    }

    private static Message putFile(JsonNode arg) throws Bad {
        if (arg == null || !arg.isObject() || !arg.path("data").isTextual()
                || !(arg.path("name").isMissingNode() || arg.path("name").isNull() || arg.path("name").isTextual())) {
            throw new Bad("put_file takes {\"name\":…, \"data\":\"<base64>\"}");
        }
        String data = arg.get("data").textValue();
        if ((long) data.length() * 3 / 4 > Scratch.MAX_BYTES + 2L) {
            return new Refused("put_file: the file is larger than " + (Scratch.MAX_BYTES >> 20) + " MiB");
        }
        byte[] bytes;
        try {
            bytes = java.util.Base64.getDecoder().decode(data); // standard alphabet, padding optional
        } catch (IllegalArgumentException e) {
            return new Refused("put_file: data is not base64 (standard alphabet): " + e.getMessage());
        }
        if (bytes.length > Scratch.MAX_BYTES) {
            return new Refused("put_file: the file is larger than " + (Scratch.MAX_BYTES >> 20) + " MiB");
        }
        return new PutFile(arg.path("name").asText(""), bytes);
    }

    private static Message watch(JsonNode body) throws Bad {
        JsonNode p = body == null ? null : body.get("pane");
        if (p == null) {
            throw new Bad("watch takes {\"pane\":…}");
        }
        String id;
        if (p.canConvertToExactIntegral() && p.canConvertToLong()) {
            id = Long.toString(p.longValue());
        } else if (p.isTextual()) {
            id = p.textValue();
        } else {
            throw new Bad("watch: pane is a number or a decimal string");
        }
        if (!id.matches("[1-9][0-9]{0,17}")) {
            return new Refused("no such pane: " + clip(id));
        }
        return new Watch(id);
    }

    private static String clip(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}

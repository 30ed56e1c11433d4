package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every request the specification shows for the landed families, sent verbatim over the real
 * socket, each checked to be accepted and to answer with the result fields the specification
 * shows. The examples are data: {@code spec-examples.jsonl} (its first line explains the
 * fields, the set-up and every substitution). One dynamic test per example, run in file order
 * against one server, so a report names each example that fails.
 */
class SpecExamplesTest extends OneServerPerClass {
    static final String FIXTURE = "spec-examples.jsonl";
    private static final Pattern VAR = Pattern.compile("\\$([A-Z][A-Z0-9_]*)");

    private final Map<String, JsonNode> vars = new HashMap<>();

    @TestFactory
    Stream<DynamicTest> everySpecExampleIsAcceptedAndAnswersWithTheFieldsItShows() throws Exception {
        List<ObjectNode> examples = fixture();
        assertTrue(examples.size() >= 105, "the fixture holds every example: " + examples.size());
        setUp();
        List<DynamicTest> tests = new ArrayList<>();
        int n = 0;
        for (ObjectNode ex : examples) {
            int line = ++n + 1;
            String name = "line " + line + ": " + ex.path("name").asText();
            tests.add(DynamicTest.dynamicTest(name, () -> run(ex, line)));
        }
        return tests.stream();
    }

    static List<ObjectNode> fixture() throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        try (InputStream in = SpecExamplesTest.class.getClassLoader().getResourceAsStream(FIXTURE)) {
            assertTrue(in != null, FIXTURE + " is on the test class path");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String l; (l = r.readLine()) != null;) {
                if (l.isBlank()) {
                    continue;
                }
                ObjectNode o = (ObjectNode) Wire.M.readTree(l);
                if (!o.has("comment")) {
                    assertTrue(o.has("request") && (o.has("expect") ^ o.has("expect_error")),
                            "an example has a request and exactly one of expect and expect_error: " + l);
                    out.add(o);
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ set-up

    static JsonNode ok(String method, String params) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertTrue(r.has("result"), "set-up: " + method + " " + params + " -> " + Terms.clip(r.toString()));
        return r.get("result");
    }

    /**
     * A workspace folder as the DIFF examples need it: a repository whose src/app.rs has lines 120-123
     * changed in the working tree and whose src/cli.rs has line 88 changed in the index (the
     * lines the reference's diff.note.apply batch names).
     */
    static void reviewRepository(Path d) throws Exception {
        GitMethodsTest.git(d, "init", "-q", "-b", "main");
        Files.createDirectories(d.resolve("src"));
        Files.writeString(d.resolve("src/app.rs"), DiffMethodsTest.lines(150, "line "));
        Files.writeString(d.resolve("src/cli.rs"), DiffMethodsTest.lines(100, "cli "));
        GitMethodsTest.git(d, "add", ".");
        GitMethodsTest.git(d, "commit", "-q", "-m", "first");
        Files.writeString(d.resolve("src/app.rs"), DiffMethodsTest.APP);
        Files.writeString(d.resolve("src/cli.rs"), DiffMethodsTest.lines(100, "cli ").replace("cli 88\n", "fallback()\n"));
        GitMethodsTest.git(d, "add", "src/cli.rs");
    }

    /** The state the fixture's first line describes; panes are made with the shapes every branch accepts. */
    private void setUp() throws Exception {
        JsonNode installed = ok("server.bundle.install",
                "{\"path\":" + Wire.M.writeValueAsString(EventsTest.EXAMPLE.toString()) + "}");
        assertEquals("bundle_installed", installed.get("type").asText());
        for (String f : List.of("a", "b", "c", "d", "e")) {
            Files.createDirectories(work.resolve(f));
        }
        for (String f : List.of("a", "b", "c", "d")) { // the examples move the focus between them
            reviewRepository(work.resolve(f));
        }
        String ws0 = null;
        for (String f : List.of("a", "b", "c", "d")) {
            JsonNode o = ok("workspace.open", "{\"cwd\":" + Wire.M.writeValueAsString(work.resolve(f).toString()) + "}");
            ws0 = ws0 == null ? o.get("workspace_id").asText() : ws0;
        }
        assertEquals("5", ok("pane.split", "{\"pane\":\"4\",\"direction\":\"down\"}").get("pane").asText());
        assertEquals("6", ok("pane.split", "{\"pane\":\"5\",\"direction\":\"down\"}").get("pane").asText());
        assertEquals("7", ok("tab.new", "{}").get("pane").asText());
        assertEquals("8", ok("pane.split", "{\"pane\":\"7\",\"direction\":\"down\"}").get("pane").asText());
        assertEquals("9", ok("pane.split", "{\"pane\":\"7\",\"direction\":\"right\"}").get("pane").asText());
        Path module = ScriptModules.folder(work, "ci-module", ScriptModules.head("ci", "[\"read\", \"extensions\"]")
                + "[[actions]]\nid = \"details\"\nrun = \"details.sh\"\n[[bars]]\nid = \"status\"\n"
                + "[[docks]]\nid = \"builds\"\ntitle = \"Builds\"\n");
        ScriptModules.script(module, "details.sh", "exit 0");
        ScriptModules.link(sock, module);
        vars.put("WORK", TextNode.valueOf(work.toString()));
        vars.put("WS0", TextNode.valueOf(ws0));
        vars.put("TERM7", ok("pane.get", "{\"pane\":\"7\"}").get("terminal_id"));
    }

    // ------------------------------------------------------------------ one example

    private void run(ObjectNode ex, int line) throws Exception {
        String text = ex.toString();
        if (text.contains("$REV")) {
            vars.put("REV", ok("workspace.list", "{}").get("revision"));
        }
        if (text.contains("$SEQ")) {
            vars.put("SEQ", ok("uhp.capabilities", "{}").get("event_sequence"));
        }
        JsonNode req = substitute(ex.get("request"));
        String method = req.get("method").asText();
        ObjectNode envelope = Wire.M.createObjectNode().put("id", "spec-" + line).put("method", method);
        if (req.has("auth")) {
            envelope.set("auth", req.get("auth"));
        }
        envelope.set("params", req.path("params"));
        String request = Wire.M.writeValueAsString(envelope);

        JsonNode reply;
        JsonNode next = null;
        List<String> problems = new ArrayList<>();
        if (ex.path("stream").asBoolean()) {
            try (EventStream s = new EventStream(sock, request, true)) {
                reply = Wire.validated(s.next(20) + "\n", method);
                if (ex.has("next") && reply.has("result")) {
                    next = s.nextJson(20);
                }
                if (reply.has("result")) {
                    for (JsonNode step : ex.path("then")) {
                        converse(s, step, problems);
                    }
                }
                if (method.equals("attach.pane")) {
                    try {
                        Wire.send(s.ch, "\"detach\"\n".getBytes(StandardCharsets.UTF_8));
                    } catch (IOException alreadyDetached) {
                        // the example ended the stream itself
                    }
                }
            }
        } else if (ex.has("during")) {
            long waiters = EventsTest.events(server).path("waiters").asLong();
            CompletableFuture<JsonNode> pending = CompletableFuture.supplyAsync(() -> {
                try {
                    return Wire.exchange(sock, request + "\n", method);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            EventsTest.await("the waiter is registered",
                    () -> pending.isDone() || EventsTest.events(server).path("waiters").asLong() > waiters);
            JsonNode d = ex.get("during");
            EventsTest.publish(server, d.get("event").asText(), Wire.M.writeValueAsString(d.get("data")));
            reply = pending.get(40, TimeUnit.SECONDS);
        } else {
            reply = Wire.exchange(sock, request + "\n", method);
        }

        String shown = request + " -> " + Terms.clip(reply.toString());
        if (ex.has("expect_error")) {
            assertEquals(ex.get("expect_error").asText(), Wire.code(reply), "refused with the spec's code: " + shown);
            if (ex.has("expect_message")) {
                assertEquals(substitute(ex.get("expect_message")).asText(), reply.at("/error/message").asText(),
                        "the spec's message: " + shown);
            }
            return;
        }
        if (!reply.has("result")) {
            fail("the spec's request is refused (" + Wire.code(reply) + "): " + shown);
        }
        JsonNode result = reply.get("result");
        match(substitute(ex.get("expect")), result, "result", problems);
        if (next != null) {
            match(ex.get("next"), next, "next line", problems);
        }
        if (!problems.isEmpty()) {
            fail("the result lacks what the spec shows: " + problems + "; " + shown
                    + (next != null ? " then " + Terms.clip(next.toString()) : ""));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = ex.path("save").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = result.at(e.getValue().asText());
            assertTrue(!v.isMissingNode(), "result has " + e.getValue().asText() + " to save: " + shown);
            vars.put(e.getKey(), v);
        }
    }

    /**
     * One client line of a stream ({@code send}) and the server line it must bring
     * ({@code expect}). Frames on the way are skipped (they may be diffs still due from an
     * earlier line); when a frame is expected, the first frame that matches it counts.
     */
    void converse(EventStream s, JsonNode step, List<String> problems) throws Exception {
        JsonNode line = substitute(step.get("send"));
        Wire.send(s.ch, (Wire.M.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
        if (!step.has("expect")) {
            return; // a line the server answers only with frames, or together with the next one
        }
        JsonNode want = substitute(step.get("expect"));
        boolean frame = want.has("frame");
        for (int skipped = 0; skipped < 1000; skipped++) {
            JsonNode got = s.nextJson(20);
            List<String> p = new ArrayList<>();
            match(want, got, "reply to " + line, p);
            if (got.has("frame") && !p.isEmpty()) {
                continue;
            }
            if (frame && !got.has("frame")) {
                p.add("reply to " + line + " is " + Terms.clip(got.toString()) + ", the spec shows a frame");
            }
            problems.addAll(p);
            return;
        }
        problems.add("no reply to " + line + " among 1000 frames");
    }

    /**
     * {@code expected} against {@code actual}: {@code "*"} only needs the field present, an
     * object matches field by field (extra fields are fine), a one-element array matches every
     * element of a non-empty array, a longer array of objects matches an array of its length
     * element by element, numbers compare by value, anything else must be equal.
     */
    static void match(JsonNode expected, JsonNode actual, String at, List<String> problems) {
        if (actual == null || actual.isMissingNode()) {
            problems.add(at + " is missing");
        } else if (expected.isTextual() && expected.asText().equals("*")) {
            return;
        } else if (expected.isObject()) {
            if (!actual.isObject()) {
                problems.add(at + " is not an object: " + Terms.clip(actual.toString()));
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                match(e.getValue(), actual.get(e.getKey()), at + "." + e.getKey(), problems);
            }
        } else if (expected.isArray() && expected.size() == 1 && expected.get(0).isContainerNode()) {
            if (!actual.isArray() || actual.isEmpty()) {
                problems.add(at + " is not a non-empty array: " + Terms.clip(actual.toString()));
                return;
            }
            for (int i = 0; i < actual.size(); i++) {
                match(expected.get(0), actual.get(i), at + "[" + i + "]", problems);
            }
        } else if (expected.isArray() && expected.size() > 1 && expected.get(0).isContainerNode()) {
            if (!actual.isArray() || actual.size() != expected.size()) {
                problems.add(at + " is not an array of " + expected.size() + ": " + Terms.clip(actual.toString()));
                return;
            }
            for (int i = 0; i < actual.size(); i++) {
                match(expected.get(i), actual.get(i), at + "[" + i + "]", problems);
            }
        } else if (expected.isNumber() && actual.isNumber()) {
            if (expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
                problems.add(at + " is " + actual + ", the spec shows " + expected);
            }
        } else if (!expected.equals(actual)) {
            problems.add(at + " is " + Terms.clip(actual.toString()) + ", the spec shows " + expected);
        }
    }

    /** {@code "$NAME"} becomes the variable's JSON value; {@code $NAME} inside a longer string its text. */
    JsonNode substitute(JsonNode n) {
        if (n.isTextual()) {
            String s = n.asText();
            Matcher whole = VAR.matcher(s);
            if (whole.matches()) {
                return var(whole.group(1));
            }
            Matcher m = VAR.matcher(s);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(b, Matcher.quoteReplacement(var(m.group(1)).asText()));
            }
            m.appendTail(b);
            return TextNode.valueOf(b.toString());
        }
        if (n.isObject()) {
            ObjectNode o = Wire.M.createObjectNode();
            n.fields().forEachRemaining(e -> o.set(e.getKey(), substitute(e.getValue())));
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = Wire.M.createArrayNode();
            n.forEach(e -> a.add(substitute(e)));
            return a;
        }
        return n;
    }

    private JsonNode var(String name) {
        JsonNode v = vars.get(name);
        if (v == null) {
            throw new AssertionError("$" + name + " is not set (the example that sets it failed, or the fixture is wrong)");
        }
        return v;
    }
}

package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.Workspaces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Before;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;

/**
 * What the pane tests share: the terminal runtime, the model to open panes with, a home
 * folder for the shells (its own {@code .bashrc}, so the machine's does not matter), and
 * calls that fail with the whole reply when they do not succeed. Panes a test opens are
 * closed after it.
 */
public abstract class PaneTest extends RuntimeTest {
    @Inject
    protected Workspaces workspaces;
    protected Path userHome;
    private final List<String> opened = new ArrayList<>();

    @Override
    @Configuration
    public Option[] config() {
        return PaneRuntime.runtime();
    }

    @Before
    public void userHome() throws IOException {
        userHome = Files.createTempDirectory("artuditu-user-");
        Files.writeString(userHome.resolve(".bashrc"), "PS1='$ '\n");
        Files.writeString(userHome.resolve(".zshrc"), "PS1='%% '\n");
    }

    @After
    public void closePanes() throws Exception {
        for (String id : opened) {
            workspaces.close(id, 500);
        }
        Uhp.await("the test's panes are gone", () -> opened.stream().allMatch(id -> workspaces.pane(id).isEmpty()));
        opened.clear();
        try (java.util.stream.Stream<Path> all = Files.walk(userHome)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** A pane running {@code command} (empty: the login shell) with {@code HOME} at {@link #userHome}. */
    protected PaneInfo open(List<String> command, int cols, int rows) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", userHome.toString());
        env.put("ZDOTDIR", userHome.toString());
        PaneInfo p = workspaces.open(new PaneRequest(null, command, userHome, env, cols, rows, false));
        opened.add(p.id());
        return p;
    }

    protected PaneInfo open(String... command) throws IOException {
        return open(List.of(command), 80, 24);
    }

    /** A bash pane with marks, once its first prompt is drawn. */
    protected PaneInfo bash() throws Exception {
        PaneInfo p = open("bash");
        assertEquals("bash", p.shell());
        awaitShellState(p, "prompt");
        return p;
    }

    protected void awaitShellState(PaneInfo p, String state) throws InterruptedException {
        Uhp.await("pane " + p.id() + " has shell_state " + state,
                () -> state.equals(status(p).path("shell_state").asText()));
    }

    protected JsonNode status(PaneInfo p) {
        return ok("pane.status", "{\"pane\":\"" + p.id() + "\"}");
    }

    /** The screen as text. */
    protected String screen(PaneInfo p) {
        return ok("pane.read", "{\"pane\":\"" + p.id() + "\"}").get("text").asText();
    }

    protected void awaitScreen(PaneInfo p, Predicate<String> test, String what) throws InterruptedException {
        Uhp.await("pane " + p.id() + " shows " + what, () -> test.test(screen(p)));
    }

    /** The result of a call that must succeed. */
    protected JsonNode ok(String method, String params) {
        JsonNode r = call(method, params);
        assertTrue(method + " " + params + " failed: " + r, r.has("result"));
        return r.get("result");
    }

    /** The error of a call that must fail with {@code code}. */
    protected JsonNode error(String code, String method, String params) {
        JsonNode r = call(method, params);
        assertEquals(method + " " + params + ": " + r, code, Uhp.code(r));
        return r.get("error");
    }

    protected JsonNode call(String method, String params) {
        try {
            return uhp.call(method, params);
        } catch (IOException e) {
            throw new AssertionError(method + " " + params, e);
        }
    }

    protected static String json(String s) {
        return Uhp.M.valueToTree(s).toString();
    }

    protected static void sleep(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

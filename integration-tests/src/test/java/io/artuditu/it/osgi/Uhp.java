package io.artuditu.it.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpConnection;
import io.artuditu.uhp.platform.MethodInfo;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.osgi.framework.BundleContext;

/**
 * What the in-framework tests share: raw request lines over the shared client
 * ({@link io.artuditu.uhp.client}: one request line, one reply line, then the server
 * closes), families built from inline schemas, and bounded waits. Plain Java and JUnit 4 only: this class runs inside the
 * test probe bundle, where JUnit 5 is not wired.
 */
final class Uhp {
    static final ObjectMapper M = new ObjectMapper();
    /** Params of a method that takes none. */
    static final String NO_PARAMS = "{\"type\":\"object\",\"additionalProperties\":false}";

    private final Path socket;

    private Uhp(Path socket) {
        this.socket = socket;
    }

    /** The client for the server of the framework {@code context} belongs to. */
    static Uhp of(BundleContext context) {
        String home = context.getProperty("artuditu.home");
        if (home == null) {
            throw new IllegalStateException("framework property artuditu.home is not set");
        }
        // The bind path: the logical <home>/artuditu.sock, or its alias when that is too long.
        return new Uhp(SocketLocation.resolve(Path.of(home), null, SocketLocation.currentUid()).bind());
    }

    Path socket() {
        return socket;
    }

    /** Calls {@code method} with {@code params} (JSON text) and returns the parsed reply. */
    JsonNode call(String method, String params) throws IOException {
        return raw("{\"id\":\"t\",\"method\":\"" + method + "\",\"params\":" + params + "}\n");
    }

    /** Sends one raw request line and returns the one reply line, parsed. */
    JsonNode raw(String line) throws IOException {
        String reply = exchange(line);
        if (reply.indexOf('\n') != reply.length() - 1) {
            throw new IOException("expected exactly one reply line, got: " + reply);
        }
        return M.readTree(reply);
    }

    /** Sends one raw request line and returns every line the server wrote before closing, each with its newline. */
    String exchange(String line) throws IOException {
        try (UhpConnection c = UhpClient.of(socket).connect()) {
            c.sendBytes(line.getBytes(StandardCharsets.UTF_8));
            StringBuilder all = new StringBuilder();
            for (String l; (l = c.readLine()) != null; ) {
                all.append(l).append('\n');
            }
            return all.toString();
        }
    }

    /** The error code of a reply, or {@code (no error)}. */
    static String code(JsonNode reply) {
        return reply.path("error").path("code").asText("(no error)");
    }

    /** Method names listed by {@code uhp.capabilities} over the socket. */
    Set<String> capabilityNames() throws IOException {
        JsonNode reply = call("uhp.capabilities", "{}");
        if (!reply.has("result")) {
            throw new AssertionError("uhp.capabilities failed: " + reply);
        }
        Set<String> names = new TreeSet<>();
        reply.at("/result/methods").forEach(m -> names.add(m.get("name").asText()));
        return names;
    }

    /** Waits until ping answers over the socket (the runtime activates asynchronously). */
    void awaitPing() throws InterruptedException {
        await("the server answers ping on " + socket, () -> {
            try {
                return call("ping", "{}").has("result");
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    /** Method names in the dispatcher's live registry. */
    static Set<String> names(UhpDispatcher dispatcher) {
        Set<String> names = new TreeSet<>();
        for (MethodInfo m : dispatcher.methods()) {
            names.add(m.name());
        }
        return names;
    }

    /** Polls {@code condition} every 10 ms for up to 10 s; fails with {@code what}. */
    /** Generous: a deadline guards against hangs, it is not a speed check (a loaded CI machine is slow). */
    static final long AWAIT_SECONDS = 60;

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + AWAIT_SECONDS + " s waiting until " + what);
            }
            Thread.sleep(10);
        }
    }

    static JsonNode json(String text) {
        try {
            return M.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One method, scope read, no params, a result of the given schema. */
    static UhpMethod method(String name, String resultSchema, MethodHandler handler) {
        return UhpMethod.of(name, Scope.READ, json(NO_PARAMS), json(resultSchema), handler);
    }

    /** A result schema: an object whose {@code type} is {@code type}, nothing else required. */
    static String resultOfType(String type) {
        return "{\"type\":\"object\",\"required\":[\"type\"],\"properties\":{\"type\":{\"const\":\"" + type + "\"}}}";
    }

    static UhpFamily family(String name, UhpMethod... methods) {
        List<UhpMethod> list = List.of(methods);
        return new UhpFamily() {
            @Override
            public String family() {
                return name;
            }

            @Override
            public List<UhpMethod> methods() {
                return list;
            }
        };
    }
}

package io.artuditu.dispatcher.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.dispatcher.internal.WhiteboardDispatcher;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.auth.TokenAuthority;
import io.artuditu.uhp.platform.FamilyFailure;
import io.artuditu.uhp.platform.Reply;
import io.artuditu.uhp.platform.TargetResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's real dispatcher, in a unit test: register families, send request lines,
 * read replies. Requests go through everything a client's request goes through on the
 * socket — framing checks, the envelope, params validation against the method's schema,
 * scope checks for a delegated token, the declared targets resolved by the resolvers given
 * with {@link #resolver}, a stale {@code if_revision} refused — and results
 * are checked against their result schemas (a handler answering outside its schema gets
 * {@code internal_error}, as on a server started with strict results).
 *
 * <pre>
 * try (FamilyHarness h = FamilyHarness.of(new EchoFamily())) {
 *     assertEquals(List.of(), h.failures());
 *     assertEquals("HI", h.result("example.echo", "{\"text\":\"hi\",\"upper\":true}").get("text").asText());
 *     assertEquals("invalid_request", h.errorCode("example.echo", "{}"));
 *     String token = h.token(Scope.READ);
 *     assertEquals("forbidden", h.errorCode("example.admin_only", "{}", token));
 * }
 * </pre>
 *
 * Not thread safe to set up; {@link #call} may be used from several threads.
 */
public final class FamilyHarness implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final WhiteboardDispatcher dispatcher = WhiteboardDispatcher.forTests();
    private final Map<String, Set<Scope>> tokens = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(100);

    private FamilyHarness() {
        WhiteboardDispatcher.bindTokensForTests(dispatcher, new TokenAuthority() {
            @Override
            public Optional<Set<Scope>> scopesOf(String secret) {
                return Optional.ofNullable(tokens.get(secret));
            }
        });
    }

    /** A dispatcher serving {@code families}, each as if registered by its own bundle. */
    public static FamilyHarness of(UhpFamily... families) {
        FamilyHarness h = new FamilyHarness();
        for (UhpFamily f : families) {
            h.add(f);
        }
        return h;
    }

    /** Registers one more family (as a bundle named after its class would). */
    public FamilyHarness add(UhpFamily family) {
        WhiteboardDispatcher.addFamilyForTests(dispatcher, family, family.getClass().getName(), ids.incrementAndGet());
        return this;
    }

    /** Resolves the declared targets of {@code resolver}'s kinds, as its service would on a server. */
    public FamilyHarness resolver(TargetResolver resolver) {
        WhiteboardDispatcher.addResolverForTests(dispatcher, resolver);
        return this;
    }

    /** A delegated token holding {@code scopes}, for the {@code auth} of later calls. */
    public String token(Scope... scopes) {
        String secret = "test_tok_" + ids.incrementAndGet();
        tokens.put(secret, EnumSet.copyOf(List.of(scopes)));
        return secret;
    }

    /** One request; the whole reply ({@code {"id":…,"result":…}} or {@code {"id":…,"error":…}}). */
    public JsonNode call(String method, String paramsJson) {
        return call(method, paramsJson, null);
    }

    /** One request carrying a token from {@link #token}. */
    public JsonNode call(String method, String paramsJson, String auth) {
        try {
            ObjectNode req = JSON.createObjectNode().put("id", "h").put("method", method);
            req.set("params", JSON.readTree(paramsJson));
            if (auth != null) {
                req.put("auth", auth);
            }
            return line(JSON.writeValueAsString(req));
        } catch (IOException e) {
            throw new IllegalArgumentException("params are not JSON: " + paramsJson, e);
        }
    }

    /** A raw request line (without its newline), exactly as a client would write it. */
    public JsonNode line(String requestLine) {
        byte[] b = requestLine.getBytes(StandardCharsets.UTF_8);
        Reply r = dispatcher.dispatch(b, 0, b.length, Caller.inProcess());
        r.afterReply().forEach(Runnable::run);
        try {
            return JSON.readTree(r.line());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The result; an {@link AssertionError} naming the error when the method answered one. */
    public JsonNode result(String method, String paramsJson) {
        JsonNode r = call(method, paramsJson);
        if (!r.has("result")) {
            throw new AssertionError(method + " " + paramsJson + " answered " + r);
        }
        return r.get("result");
    }

    /** The error code the method answered, or {@code "(no error)"}. */
    public String errorCode(String method, String paramsJson) {
        return errorCode(method, paramsJson, null);
    }

    public String errorCode(String method, String paramsJson, String auth) {
        return call(method, paramsJson, auth).path("error").path("code").asText("(no error)");
    }

    /** What the registered families could not offer (bad contract rows, unrouted methods), as {@code uhp.capabilities} lists it. */
    public List<FamilyFailure> failures() {
        return dispatcher.failures();
    }

    /** Every registered method's name. */
    public List<String> methods() {
        return dispatcher.methods().stream().map(m -> m.name()).toList();
    }

    @Override
    public void close() {
        tokens.clear();
    }
}

package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpClientException;
import io.artuditu.uhp.client.UhpConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delegated tokens over the real socket: every live method × every scope, and the
 * token lifecycle (expiry, revocation, malformed secrets, the 64 cap, the 24 h bound).
 */
class TokenScopeTest {
    static final List<String> SCOPES = List.of("read", "workspace", "agent", "terminal", "orchestration",
            "extensions", "admin", "all");

    @TempDir
    Path home;

    static String request(String method, String auth, String params) {
        return "{\"id\":\"t\",\"method\":" + Wire.M.valueToTree(method) + ",\"auth\":" + Wire.M.valueToTree(auth)
                + ",\"params\":" + params + "}\n";
    }

    static JsonNode withToken(Path socket, String method, String secret, String params) throws IOException {
        return Wire.exchange(socket, request(method, secret, params), method);
    }

    static JsonNode create(Path socket, String params) throws IOException {
        return Wire.call(socket, "uhp.token.create", params);
    }

    static String secret(Path socket, String... scopes) throws IOException {
        JsonNode r = create(socket, "{\"scopes\":" + Wire.M.valueToTree(scopes) + ",\"ttl_s\":3600}");
        assertTrue(r.has("result"), r.toString());
        return r.at("/result/secret").asText();
    }

    /**
     * The first reply line, read under a deadline: a method merged later may answer with
     * a stream, and the matrix must not hang on it.
     */
    static JsonNode firstReply(Path socket, String line, String method) throws Exception {
        try (UhpConnection c = UhpClient.of(socket).withTimeouts(10_000, 10_000).connect()) {
            c.sendBytes(line.getBytes(StandardCharsets.UTF_8));
            String reply = c.readLine();
            return Wire.validated(reply == null ? "" : reply + "\n", method);
        } catch (UhpClientException.TimedOut e) {
            throw new AssertionError(method + " sent no reply line within 10 s");
        }
    }

    /** What a refused request must leave untouched, seen with owner authority. */
    static String ownerView(Path socket) throws IOException {
        JsonNode tokens = Wire.call(socket, "uhp.token.list", "{}").get("result");
        JsonNode bundles = Wire.call(socket, "server.bundle.list", "{}").get("result");
        assertEquals("pong", Wire.call(socket, "ping", "{}").at("/result/type").asText(), "the server still answers");
        return tokens + "\n" + bundles;
    }

    @Test
    void everyMethodTimesEveryScopeIsAllowedOrRefusedWithoutEffect() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            Map<String, String> secrets = new LinkedHashMap<>();
            for (String scope : SCOPES) {
                secrets.put(scope, secret(s.socket, scope));
            }
            JsonNode methods = Wire.call(s.socket, "uhp.capabilities", "{}").at("/result/methods");
            assertTrue(methods.size() >= 13, "discovery, server.bundle and uhp.token are all live: " + methods);
            int allowed = 0;
            int refused = 0;
            List<String> wrong = new ArrayList<>();
            for (JsonNode m : methods) {
                String name = m.get("name").asText();
                String needed = m.get("scope").asText();
                for (String scope : SCOPES) {
                    boolean grants = scope.equals("all") || scope.equals(needed);
                    String line = request(name, secrets.get(scope), "{}");
                    if (grants) {
                        if (name.equals("server.stop")) {
                            continue; // allowed, and it would end the test; the refusals below are checked
                        }
                        JsonNode r = firstReply(s.socket, line, name);
                        if (Wire.code(r).equals("forbidden")) {
                            wrong.add(name + " with " + scope + " was refused: " + r);
                        }
                        allowed++;
                    } else {
                        String before = ownerView(s.socket);
                        JsonNode r = firstReply(s.socket, line, name);
                        if (!Wire.code(r).equals("forbidden")) {
                            wrong.add(name + " with " + scope + " was not refused: " + r);
                        } else if (!r.at("/error/message").asText().contains(needed)
                                || !r.at("/error/details/needed_scope").asText().equals(needed)) {
                            wrong.add(name + " refusal does not name scope " + needed + ": " + r);
                        }
                        assertEquals(before, ownerView(s.socket), name + " refused for " + scope + " changed state");
                        refused++;
                    }
                }
            }
            assertEquals(List.of(), wrong);
            assertTrue(allowed > methods.size() && refused > methods.size(), allowed + " allowed, " + refused + " refused");
        }
    }

    @Test
    void refusedMutationsWithValidParamsDoNothing() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            String read = secret(s.socket, "read");
            String admin = secret(s.socket, "admin");
            String victim = Wire.call(s.socket, "uhp.token.list", "{}").at("/result/tokens/0/id").asText();
            String before = ownerView(s.socket);
            assertEquals("forbidden", Wire.code(withToken(s.socket, "uhp.token.create", read, "{\"scopes\":[\"read\"]}")));
            assertEquals("forbidden", Wire.code(withToken(s.socket, "uhp.token.revoke", read, "{\"id\":\"" + victim + "\"}")));
            assertEquals("forbidden", Wire.code(withToken(s.socket, "server.stop", read, "{}")));
            // admin without all may not hand on what it lacks
            JsonNode wider = withToken(s.socket, "uhp.token.create", admin, "{\"scopes\":[\"all\"]}");
            assertEquals("forbidden", Wire.code(wider), wider.toString());
            assertEquals("all", wider.at("/error/details/needed_scope").asText());
            assertEquals("forbidden", Wire.code(withToken(s.socket, "uhp.token.create", admin, "{\"scopes\":[\"read\"]}")));
            assertEquals(before, ownerView(s.socket));
            JsonNode narrower = withToken(s.socket, "uhp.token.create", admin, "{\"scopes\":[\"admin\"],\"ttl_s\":60}");
            assertEquals("token_created", narrower.at("/result/type").asText(), narrower.toString());
            assertNotEquals(before, ownerView(s.socket), "the state check can see a change");
        }
    }

    @Test
    void expiredRevokedAndMalformedTokensAreRefused() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            long sent = System.nanoTime();
            JsonNode shortLived = create(s.socket, "{\"scopes\":[\"all\"],\"ttl_s\":2}");
            String secret = shortLived.at("/result/secret").asText();
            JsonNode first = withToken(s.socket, "ping", secret, "{}");
            if (!first.has("result")) {
                assertTrue(System.nanoTime() - sent >= TimeUnit.SECONDS.toNanos(2), "refused before its ttl: " + first);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            JsonNode r = first;
            while (r.has("result") && System.nanoTime() < deadline) {
                Thread.sleep(100);
                r = withToken(s.socket, "ping", secret, "{}");
            }
            assertEquals("forbidden", Wire.code(r), "the token expired: " + r);
            assertTrue(System.nanoTime() - sent >= TimeUnit.SECONDS.toNanos(2), "not before its ttl");
            assertEquals("unknown or expired token", r.at("/error/message").asText());
            assertFalse(Wire.call(s.socket, "uhp.token.list", "{}").toString().contains(shortLived.at("/result/id").asText()),
                    "an expired token leaves the list");

            JsonNode live = create(s.socket, "{\"scopes\":[\"read\"]}");
            String liveSecret = live.at("/result/secret").asText();
            assertEquals("pong", withToken(s.socket, "ping", liveSecret, "{}").at("/result/type").asText());
            String id = live.at("/result/id").asText();
            assertEquals("token_revoked", Wire.call(s.socket, "uhp.token.revoke", "{\"id\":\"" + id + "\"}")
                    .at("/result/type").asText());
            JsonNode revoked = withToken(s.socket, "ping", liveSecret, "{}");
            assertEquals("forbidden", Wire.code(revoked));
            assertEquals("unknown or expired token", revoked.at("/error/message").asText());
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "uhp.token.revoke", "{\"id\":\"" + id + "\"}")));
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "uhp.token.revoke", "{\"id\":\"tok_nope\"}")));

            for (String bad : new String[] {"x", "", "luv_tok_", liveSecret.substring(0, liveSecret.length() - 1)}) {
                JsonNode b = withToken(s.socket, "ping", bad, "{}");
                assertEquals("forbidden", Wire.code(b), bad);
                assertEquals("unknown or expired token", b.at("/error/message").asText());
            }
            // an unknown token learns nothing about the method's scope
            assertEquals("unknown or expired token", withToken(s.socket, "server.stop", "x", "{}").at("/error/message").asText());
            JsonNode notString = Wire.exchange(s.socket, "{\"id\":\"t\",\"method\":\"ping\",\"auth\":5}\n", "ping");
            assertEquals("invalid_request", Wire.code(notString));
        }
    }

    @Test
    void atMost64LiveTokensAndAtMostADay() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            for (String ttl : new String[] {"86401", "0", "-5", "1.5", "\"60\""}) {
                JsonNode r = create(s.socket, "{\"scopes\":[\"read\"],\"ttl_s\":" + ttl + "}");
                assertEquals("invalid_request", Wire.code(r), ttl + " -> " + r);
            }
            for (String scopes : new String[] {"[]", "[\"root\"]", "\"read\""}) {
                assertEquals("invalid_request", Wire.code(create(s.socket, "{\"scopes\":" + scopes + "}")), scopes);
            }
            assertEquals(0, Wire.call(s.socket, "uhp.token.list", "{}").at("/result/tokens").size(), "refusals made nothing");
            JsonNode day = create(s.socket, "{\"scopes\":[\"read\"],\"ttl_s\":86400}");
            assertEquals(86400, day.at("/result/ttl_s").asInt(), day.toString());
            String firstId = day.at("/result/id").asText();
            for (int i = 1; i < 64; i++) {
                assertTrue(create(s.socket, "{\"scopes\":[\"read\"]}").has("result"), "token " + (i + 1));
            }
            JsonNode over = create(s.socket, "{\"scopes\":[\"read\"]}");
            assertEquals("invalid_request", Wire.code(over), over.toString());
            assertEquals(64, over.at("/error/details/limit").asInt());
            assertEquals(64, Wire.call(s.socket, "uhp.token.list", "{}").at("/result/tokens").size());
            Wire.call(s.socket, "uhp.token.revoke", "{\"id\":\"" + firstId + "\"}");
            assertTrue(create(s.socket, "{\"scopes\":[\"read\"]}").has("result"), "revoking made room");
        }
    }

    @Test
    void theCliCreatesListsRevokesAndCarriesATokenFromTheEnvironment() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            Map<String, String> env = Map.of("ARTUDITU_HOME", home.toString());
            Cli.Result created = Cli.run(env, "token", "create", "--scope", "read", "--scope", "workspace", "--ttl", "600");
            assertEquals(0, created.status(), created.err());
            JsonNode t = Wire.M.readTree(created.out());
            assertEquals("[\"read\",\"workspace\"]", t.get("scopes").toString());
            assertEquals(600, t.get("ttl_s").asInt());
            String secret = t.get("secret").asText();
            String id = t.get("id").asText();

            Cli.Result listed = Cli.run(env, "token", "list");
            assertEquals(0, listed.status(), listed.err());
            assertTrue(listed.out().contains(id), listed.out());
            assertFalse(listed.out().contains(secret), "list never shows a secret");

            Map<String, String> delegated = Map.of("ARTUDITU_HOME", home.toString(), "ARTUDITU_TOKEN", secret);
            Cli.Result ping = Cli.run(delegated, "ping");
            assertEquals(0, ping.status(), ping.err());
            Cli.Result stop = Cli.run(delegated, "server", "stop");
            assertEquals(1, stop.status(), stop.out() + stop.err());
            assertTrue(stop.err().contains("forbidden") && stop.err().contains("admin"), stop.err());
            assertTrue(s.process.isAlive(), "a refused server.stop leaves the server running");
            Cli.Result list2 = Cli.run(delegated, "token", "list");
            assertEquals(1, list2.status());

            assertEquals(0, Cli.run(env, "token", "revoke", id).status());
            Cli.Result again = Cli.run(env, "token", "revoke", id);
            assertEquals(1, again.status());
            assertTrue(again.err().contains("not_found"), again.err());
            Cli.Result revokedPing = Cli.run(delegated, "ping");
            assertEquals(1, revokedPing.status());
            assertTrue(revokedPing.err().contains("unknown or expired token"), revokedPing.err());
        }
    }
}

package io.artuditu.tokens.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The live delegated tokens, in memory only. A secret is handed out once and kept only as
 * its SHA-256 digest; a presented secret is digested and compared with every live digest
 * in constant time, so neither the lookup nor the comparison depends on where a guess
 * first differs. Expired tokens are dropped lazily on every access; nothing runs on a
 * timer. Thread safe: every operation holds this object's lock for a scan of at most
 * {@link #MAX_LIVE} entries.
 */
final class TokenStore {
    /** At most this many live tokens per server. */
    static final int MAX_LIVE = 64;
    /** Lifetime when {@code ttl_s} is omitted. */
    static final long DEFAULT_TTL_S = 3_600;
    /** No token lives longer than a day. */
    static final long MAX_TTL_S = 86_400;
    /** Every secret starts with this, then 43 base64url characters (256 random bits). */
    static final String SECRET_PREFIX = "luv_tok_";
    private static final int SECRET_BYTES = 32;
    private static final int SECRET_LENGTH = SECRET_PREFIX.length() + 43;
    private static final String ID_PREFIX = "tok_";

    /** A token's public face: what list shows. Holds no secret. */
    record Token(String id, Set<Scope> scopes, Instant createdAt, Instant expiresAt) {
        Token {
            scopes = Set.copyOf(scopes);
        }
    }

    /** A new token with its secret, which exists only in this object and the reply built from it. */
    record Issued(String secret, Token token) {
        @Override
        public String toString() {
            return "Issued[" + token + ", secret=<hidden>]";
        }
    }

    private record Entry(Token token, byte[] digest) {
    }

    private final Clock clock;
    private final SecureRandom random;
    private final Map<String, Entry> live = new LinkedHashMap<>();

    TokenStore(Clock clock, SecureRandom random) {
        this.clock = clock;
        this.random = random;
    }

    /**
     * Creates a token. Validates everything first; a refusal changes nothing.
     *
     * @throws UhpException {@code invalid_request} for no scopes, a ttl outside
     *                      1..{@link #MAX_TTL_S}, or {@link #MAX_LIVE} live tokens already
     */
    synchronized Issued create(Set<Scope> scopes, long ttlSeconds) {
        if (scopes.isEmpty()) {
            throw UhpException.invalid("a token needs at least one scope");
        }
        if (ttlSeconds < 1 || ttlSeconds > MAX_TTL_S) {
            throw new UhpException(ErrorCode.INVALID_REQUEST,
                    "ttl_s must be between 1 and " + MAX_TTL_S + " (24 hours)", Map.of("field", "ttl_s"));
        }
        Instant now = now();
        purge(now);
        if (live.size() >= MAX_LIVE) {
            throw new UhpException(ErrorCode.INVALID_REQUEST,
                    "at most " + MAX_LIVE + " live tokens per server; revoke one or wait for one to expire",
                    Map.of("limit", MAX_LIVE));
        }
        byte[] raw = new byte[SECRET_BYTES];
        random.nextBytes(raw);
        String secret = SECRET_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        String id;
        do {
            byte[] idBytes = new byte[8];
            random.nextBytes(idBytes);
            id = ID_PREFIX + HexFormat.of().formatHex(idBytes);
        } while (live.containsKey(id));
        Token token = new Token(id, EnumSet.copyOf(scopes), now, now.plus(Duration.ofSeconds(ttlSeconds)));
        live.put(id, new Entry(token, digest(secret)));
        return new Issued(secret, token);
    }

    /** Every live token, oldest first. */
    synchronized List<Token> list() {
        purge(now());
        List<Token> out = new ArrayList<>(live.size());
        for (Entry e : live.values()) {
            out.add(e.token());
        }
        return out;
    }

    /** Removes a live token by public id; false when no live token has it. */
    synchronized boolean revoke(String id) {
        purge(now());
        return live.remove(id) != null;
    }

    /** The scopes of the live token whose secret this is; empty for anything else. */
    Optional<Set<Scope>> scopesOf(String secret) {
        if (secret == null || secret.length() != SECRET_LENGTH || !secret.startsWith(SECRET_PREFIX)) {
            return Optional.empty();
        }
        byte[] presented = digest(secret);
        synchronized (this) {
            purge(now());
            Token match = null;
            // No early exit: the scan costs the same wherever (and whether) the match is.
            for (Entry e : live.values()) {
                if (constantTimeEquals(e.digest(), presented)) {
                    match = e.token();
                }
            }
            return match == null ? Optional.empty() : Optional.of(match.scopes());
        }
    }

    synchronized int size() {
        return live.size();
    }

    /** Equal-length arrays are compared in time that does not depend on their content. */
    static boolean constantTimeEquals(byte[] a, byte[] b) {
        if (a.length != b.length) {
            return false;
        }
        int diff = 0;
        for (int i = 0; i < a.length; i++) {
            diff |= a[i] ^ b[i];
        }
        return diff == 0;
    }

    static byte[] digest(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private void purge(Instant now) {
        for (Iterator<Entry> it = live.values().iterator(); it.hasNext();) {
            if (!it.next().token().expiresAt().isAfter(now)) {
                it.remove();
            }
        }
    }

    @Override
    public synchronized String toString() {
        return "TokenStore[" + live.size() + " live of " + MAX_LIVE + "]";
    }
}

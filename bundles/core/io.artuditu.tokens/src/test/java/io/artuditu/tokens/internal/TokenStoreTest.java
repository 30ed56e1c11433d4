package io.artuditu.tokens.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenStoreTest {
    /** A clock the test moves by hand. */
    static final class HandClock extends Clock {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final HandClock clock = new HandClock();
    private final TokenStore store = new TokenStore(clock, new SecureRandom());

    @Test
    void createListRevoke() {
        TokenStore.Issued a = store.create(Set.of(Scope.READ, Scope.WORKSPACE), 3600);
        TokenStore.Issued b = store.create(Set.of(Scope.ADMIN), 60);
        assertTrue(a.secret().matches("luv_tok_[A-Za-z0-9_-]{43}"), a.secret());
        assertTrue(a.token().id().matches("tok_[0-9a-f]{16}"), a.token().id());
        assertEquals(Instant.parse("2026-11-30T11:00:00Z"), a.token().expiresAt());
        assertEquals(List.of(a.token(), b.token()), store.list());
        assertEquals(Optional.of(Set.of(Scope.READ, Scope.WORKSPACE)), store.scopesOf(a.secret()));
        assertEquals(Optional.of(Set.of(Scope.ADMIN)), store.scopesOf(b.secret()));
        assertTrue(store.revoke(a.token().id()));
        assertFalse(store.revoke(a.token().id()), "a second revoke finds nothing");
        assertFalse(store.revoke("tok_0000000000000000"));
        assertEquals(Optional.empty(), store.scopesOf(a.secret()), "a revoked secret grants nothing");
        assertEquals(List.of(b.token()), store.list());
    }

    @Test
    void secretsAreRandomAndNeverShownAgain() {
        Set<String> secrets = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 64; i++) {
            TokenStore.Issued t = store.create(Set.of(Scope.READ), 60);
            secrets.add(t.secret());
            ids.add(t.token().id());
            assertFalse(t.toString().contains(t.secret()), t.toString());
            assertFalse(t.token().toString().contains(t.secret()));
            assertFalse(store.toString().contains(t.secret()));
            assertFalse(store.list().toString().contains(t.secret()));
            assertFalse(store.list().toString().contains(t.secret().substring(TokenStore.SECRET_PREFIX.length())));
        }
        assertEquals(64, secrets.size());
        assertEquals(64, ids.size());
    }

    @Test
    void malformedAndUnknownSecretsGrantNothing() {
        TokenStore.Issued t = store.create(Set.of(Scope.ALL), 60);
        String s = t.secret();
        char last = s.charAt(s.length() - 1);
        for (String bad : new String[] {"", "x", "luv_tok_", s + "A", s.substring(1),
                s.substring(0, s.length() - 1) + (last == 'A' ? 'B' : 'A'), s.toUpperCase(), "tok_" + s}) {
            assertEquals(Optional.empty(), store.scopesOf(bad), bad);
        }
        assertEquals(Optional.empty(), store.scopesOf(null));
        assertEquals(Optional.of(Set.of(Scope.ALL)), store.scopesOf(s));
    }

    @Test
    void tokensExpireAtTheirTtlAndArePurgedLazily() {
        TokenStore.Issued shortOne = store.create(Set.of(Scope.READ), 1);
        TokenStore.Issued longOne = store.create(Set.of(Scope.READ), TokenStore.MAX_TTL_S);
        clock.advance(Duration.ofMillis(999));
        assertTrue(store.scopesOf(shortOne.secret()).isPresent());
        clock.advance(Duration.ofMillis(1));
        assertEquals(Optional.empty(), store.scopesOf(shortOne.secret()), "dead at exactly expires_at");
        assertEquals(List.of(longOne.token()), store.list());
        assertFalse(store.revoke(shortOne.token().id()), "an expired token is gone, not revocable");
        clock.advance(Duration.ofSeconds(TokenStore.MAX_TTL_S));
        assertEquals(Optional.empty(), store.scopesOf(longOne.secret()), "nothing outlives 24 hours");
        assertEquals(0, store.size());
    }

    @Test
    void ttlOutsideOneSecondToOneDayIsRefused() {
        for (long ttl : new long[] {0, -1, TokenStore.MAX_TTL_S + 1, Long.MAX_VALUE}) {
            UhpException e = assertThrows(UhpException.class, () -> store.create(Set.of(Scope.READ), ttl));
            assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        }
        assertThrows(UhpException.class, () -> store.create(Set.of(), 60));
        assertEquals(0, store.size(), "a refusal creates nothing");
        store.create(Set.of(Scope.READ), TokenStore.MAX_TTL_S);
        assertEquals(1, store.size());
    }

    @Test
    void atMost64LiveTokensAndExpiryFreesRoom() {
        for (int i = 0; i < TokenStore.MAX_LIVE; i++) {
            store.create(Set.of(Scope.READ), i == 0 ? 10 : 3600);
        }
        UhpException e = assertThrows(UhpException.class, () -> store.create(Set.of(Scope.READ), 60));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertTrue(e.getMessage().contains("64"), e.getMessage());
        assertEquals(64, store.list().size());
        clock.advance(Duration.ofSeconds(10));
        store.create(Set.of(Scope.READ), 60);
        assertEquals(64, store.list().size(), "the expired one made room");
    }

    @Test
    void constantTimeCompare() {
        assertTrue(TokenStore.constantTimeEquals(new byte[] {1, 2, 3}, new byte[] {1, 2, 3}));
        assertFalse(TokenStore.constantTimeEquals(new byte[] {1, 2, 3}, new byte[] {1, 2, 4}));
        assertFalse(TokenStore.constantTimeEquals(new byte[] {0, 2, 3}, new byte[] {1, 2, 3}));
        assertFalse(TokenStore.constantTimeEquals(new byte[] {1, 2}, new byte[] {1, 2, 3}));
        assertTrue(TokenStore.constantTimeEquals(new byte[0], new byte[0]));
        byte[] d = TokenStore.digest("luv_tok_x");
        assertEquals(32, d.length);
        assertTrue(TokenStore.constantTimeEquals(d, TokenStore.digest("luv_tok_x")));
    }
}

package io.artuditu.tokens.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.auth.TokenAuthority;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * The {@code uhp.token} family and the {@link TokenAuthority} the dispatcher asks: one
 * component, so both see the same {@link TokenStore}. Tokens live as long as this
 * component; restarting its bundle forgets them all.
 */
@Component(service = {UhpFamily.class, TokenAuthority.class})
public final class TokenFamily implements UhpFamily, TokenAuthority {
    private final TokenStore store;
    private final FamilyContract contract;

    @Activate
    public TokenFamily() {
        this(new TokenStore(Clock.systemUTC(), new SecureRandom()));
    }

    TokenFamily(TokenStore store) {
        this.store = store;
        this.contract = FamilyContract.load(TokenFamily.class, "protocol/uhp/v1/tokens.json")
                .route("uhp.token.create", this::create)
                .route("uhp.token.list", this::list)
                .route("uhp.token.revoke", this::revoke)
                .bind();
    }

    @Override
    public String family() {
        return "uhp.token";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    @Override
    public Optional<Set<Scope>> scopesOf(String secret) {
        return store.scopesOf(secret);
    }

    ObjectNode create(Call call) {
        Set<Scope> wanted = EnumSet.noneOf(Scope.class);
        for (JsonNode s : call.params().path("scopes")) {
            wanted.add(Scope.fromWire(s.asText()).orElseThrow(() -> UhpException.invalid("unknown scope " + s)));
        }
        // A delegated caller hands on no more than it holds: all only from all.
        for (Scope s : wanted) {
            if (!TokenAuthority.grants(call.scopes(), s)) {
                throw new UhpException(ErrorCode.FORBIDDEN,
                        "a token may not create a token with scope " + s.wire() + ", which it does not hold",
                        Map.of("needed_scope", s.wire()));
            }
        }
        long ttl = call.params().path("ttl_s").asLong(TokenStore.DEFAULT_TTL_S);
        TokenStore.Issued issued = store.create(wanted, ttl);
        ObjectNode r = call.newObject().put("type", "token_created").put("id", issued.token().id())
                .put("secret", issued.secret());
        scopes(r.putArray("scopes"), issued.token().scopes());
        r.put("created_at", issued.token().createdAt().toString());
        r.put("expires_at", issued.token().expiresAt().toString());
        r.put("ttl_s", ttl);
        return r;
    }

    ObjectNode list(Call call) {
        ObjectNode r = call.newObject().put("type", "token_list").put("limit", TokenStore.MAX_LIVE);
        ArrayNode rows = r.putArray("tokens");
        for (TokenStore.Token t : store.list()) {
            ObjectNode row = rows.addObject().put("id", t.id());
            scopes(row.putArray("scopes"), t.scopes());
            row.put("created_at", t.createdAt().toString());
            row.put("expires_at", t.expiresAt().toString());
        }
        return r;
    }

    ObjectNode revoke(Call call) {
        String id = call.params().path("id").asText();
        if (!store.revoke(id)) {
            String shown = id.length() > 64 ? id.substring(0, 64) : id;
            throw UhpException.notFound("token", shown, "id", "no live token has id " + shown);
        }
        return call.newObject().put("type", "token_revoked").put("id", id);
    }

    /** Scopes in their declared order, so a listing is stable. */
    private static void scopes(ArrayNode out, Set<Scope> scopes) {
        for (Scope s : Scope.values()) {
            if (scopes.contains(s)) {
                out.add(s.wire());
            }
        }
    }

    @Override
    public String toString() {
        return "TokenFamily[" + store + "]";
    }
}

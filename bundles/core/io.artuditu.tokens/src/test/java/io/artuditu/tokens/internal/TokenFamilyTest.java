package io.artuditu.tokens.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.platform.BasicCall;
import java.security.SecureRandom;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenFamilyTest {
    private final TokenStore store = new TokenStore(new TokenStoreTest.HandClock(), new SecureRandom());
    private final TokenFamily family = new TokenFamily(store);
    private static final JsonNodeFactory N = JsonNodeFactory.instance;

    private static BasicCall call(String method, ObjectNode params, Set<Scope> held) {
        return new BasicCall("1", method, params, Caller.inProcess(), N, held, io.artuditu.uhp.api.Connection.NONE);
    }

    private static ObjectNode createParams(String... scopes) {
        ObjectNode p = N.objectNode();
        for (String s : scopes) {
            p.withArray("scopes").add(s);
        }
        return p;
    }

    private static void conforms(String method, ObjectNode result) {
        assertEquals("", FamilyContract.load(TokenFamily.class, "protocol/uhp/v1/tokens.json").method(method).orElseThrow().result().validate(result, "result")
                .map(Object::toString).orElse(""), result.toString());
    }

    @Test
    void resultsFollowTheContractAndTheSecretAppearsOnce() {
        ObjectNode created = family.create(call("uhp.token.create", createParams("read", "workspace"), Set.of(Scope.ALL)));
        conforms("uhp.token.create", created);
        assertEquals(3600, created.get("ttl_s").asInt(), "default lifetime");
        String secret = created.get("secret").asText();
        assertEquals(Set.of(Scope.READ, Scope.WORKSPACE), family.scopesOf(secret).orElseThrow());
        ObjectNode listed = family.list(call("uhp.token.list", N.objectNode(), Set.of(Scope.ALL)));
        conforms("uhp.token.list", listed);
        assertEquals(1, listed.get("tokens").size());
        assertTrue(!listed.toString().contains(secret), listed.toString());
        ObjectNode revoked = family.revoke(call("uhp.token.revoke",
                N.objectNode().put("id", created.get("id").asText()), Set.of(Scope.ALL)));
        conforms("uhp.token.revoke", revoked);
        UhpException again = assertThrows(UhpException.class, () -> family.revoke(call("uhp.token.revoke",
                N.objectNode().put("id", created.get("id").asText()), Set.of(Scope.ALL))));
        assertEquals(ErrorCode.NOT_FOUND, again.code());
    }

    @Test
    void aTokenMintsNoMoreThanItHolds() {
        Set<Scope> adminRead = Set.of(Scope.ADMIN, Scope.READ);
        family.create(call("uhp.token.create", createParams("read"), adminRead));
        family.create(call("uhp.token.create", createParams("admin", "read"), adminRead));
        for (String wider : new String[] {"workspace", "all"}) {
            UhpException e = assertThrows(UhpException.class,
                    () -> family.create(call("uhp.token.create", createParams("read", wider), adminRead)));
            assertEquals(ErrorCode.FORBIDDEN, e.code());
            assertEquals(wider, e.details().get("needed_scope"));
        }
        assertEquals(2, store.size(), "a refused create made nothing");
        family.create(call("uhp.token.create", createParams("all"), Set.of(Scope.ALL)));
        assertEquals(3, store.size());
    }
}

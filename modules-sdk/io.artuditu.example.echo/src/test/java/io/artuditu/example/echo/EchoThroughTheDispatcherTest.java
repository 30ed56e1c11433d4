package io.artuditu.example.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.artuditu.dispatcher.testing.FamilyHarness;
import io.artuditu.uhp.api.Scope;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The family behind the server's real dispatcher, without a server: the contract and the
 * route table agree, params are validated before the handler runs, results are checked
 * against their schema and a token's scopes are enforced — what a module author's own
 * tests look like with {@link FamilyHarness}.
 */
class EchoThroughTheDispatcherTest {
    @Test
    void echoAsAClientSeesIt() {
        try (FamilyHarness h = FamilyHarness.of(new EchoFamily())) {
            assertEquals(List.of(), h.failures(), "every contract row has its handler");
            assertEquals(List.of("example.echo"), h.methods());
            assertEquals("HI", h.result("example.echo", "{\"text\":\"hi\",\"upper\":true}").get("text").asText());
            assertEquals("invalid_request", h.errorCode("example.echo", "{}"), "text is required");
            assertEquals("invalid_request", h.errorCode("example.echo", "{\"text\":\"hi\",\"loud\":true}"),
                    "unknown params are refused before the handler runs");
            assertEquals("invalid_request", h.errorCode("example.echo", "{\"text\":7}"));
            assertEquals("unknown_method", h.errorCode("example.shout", "{}"));
            assertEquals("(no error)", h.errorCode("example.echo", "{\"text\":\"x\"}", h.token(Scope.READ)));
            assertEquals("forbidden", h.errorCode("example.echo", "{\"text\":\"x\"}", h.token(Scope.TERMINAL)),
                    "a token without read cannot call a read method");
            assertEquals("invalid_request", h.line("{\"id\":\"1\",\"method\":\"example.echo\",\"params\":{\"text\":\"a\"},"
                    + "\"extra\":1}").at("/error/code").asText(), "the envelope is checked too");
        }
    }
}

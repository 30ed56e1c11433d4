package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.UhpFamily;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.ServiceRegistration;

/** A handler that fails costs its caller one internal_error and the server nothing. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class HandlerFailureTest extends RuntimeTest {

    private ServiceRegistration<UhpFamily> register(UhpFamily family, String method) throws Exception {
        ServiceRegistration<UhpFamily> reg = context.registerService(UhpFamily.class, family, null);
        Uhp.await(method + " is routable", () -> Uhp.names(dispatcher).contains(method));
        return reg;
    }

    @Test
    public void aThrowingHandlerAnswersInternalErrorWithACorrelationIdAndNoStackTrace() throws Exception {
        ServiceRegistration<UhpFamily> reg = register(Uhp.family("broken", Uhp.method("test.throw",
                Uhp.resultOfType("never"), call -> {
                    throw new IllegalStateException("secret-detail-of-the-failure");
                })), "test.throw");
        try {
            String line = uhp.exchange("{\"id\":\"boom\",\"method\":\"test.throw\",\"params\":{}}\n");
            assertTrue("one reply line: " + line, line.endsWith("\n") && line.indexOf('\n') == line.length() - 1);
            JsonNode reply = Uhp.M.readTree(line);
            assertEquals(line, "internal_error", Uhp.code(reply));
            assertEquals("boom", reply.get("id").asText());
            String correlation = reply.at("/error/details/correlation_id").asText("");
            assertTrue("a correlation id: " + line, correlation.matches("[0-9a-f]{1,12}"));
            assertTrue("the message points at the log entry: " + line,
                    reply.at("/error/message").asText().contains(correlation));
            for (String leak : new String[] {"secret-detail", "IllegalStateException", "Exception", "\\tat ",
                "io.artuditu.it", "java.lang"}) {
                assertFalse("the reply leaks '" + leak + "': " + line, line.contains(leak));
            }
            // A second failure gets its own id.
            JsonNode again = uhp.call("test.throw", "{}");
            assertEquals("internal_error", Uhp.code(again));
            assertFalse(correlation.equals(again.at("/error/details/correlation_id").asText()));
        } finally {
            reg.unregister();
        }
        JsonNode pong = uhp.call("ping", "{}");
        assertEquals("the server still answers: " + pong, "pong", pong.at("/result/type").asText());
    }

    @Test
    public void strictResultsAreOnSoAResultBreakingItsSchemaIsAnInternalError() throws Exception {
        ServiceRegistration<UhpFamily> reg = register(Uhp.family("sloppy", Uhp.method("test.sloppy",
                Uhp.resultOfType("right"), call -> call.newObject().put("type", "wrong"))), "test.sloppy");
        try {
            JsonNode reply = uhp.call("test.sloppy", "{}");
            assertEquals("-Dartuditu.uhp.strict-results=true reached the dispatcher: " + reply, "internal_error",
                    Uhp.code(reply));
        } finally {
            reg.unregister();
        }
        assertEquals("pong", uhp.call("ping", "{}").at("/result/type").asText());
    }
}

package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.UhpFamily;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.ServiceRegistration;

/**
 * A family that leaves refuses new calls at once, but a call it is already running
 * finishes and gets its reply; the unregistration waits for it.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class FamilyLeavesMidCallTest extends RuntimeTest {
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @After
    public void stopThreads() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    public void aRunningCallFinishesWhileItsFamilyLeaves() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        UhpFamily blocking = Uhp.family("blocking", Uhp.method("test.block", Uhp.resultOfType("done"), call -> {
            entered.countDown();
            try {
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return call.newObject().put("type", "done");
        }));
        ServiceRegistration<UhpFamily> reg = context.registerService(UhpFamily.class, blocking, null);
        Uhp.await("test.block is routable", () -> Uhp.names(dispatcher).contains("test.block"));

        Future<JsonNode> first = threads.submit(() -> uhp.call("test.block", "{}"));
        assertTrue("the handler runs", entered.await(10, TimeUnit.SECONDS));

        // Unregistering waits (up to 10 s) for the running call, so it gets its own thread.
        Future<?> unregister = threads.submit(reg::unregister);
        Uhp.await("test.block leaves the registry", () -> !Uhp.names(dispatcher).contains("test.block"));

        JsonNode second = uhp.call("test.block", "{}");
        assertEquals("a new call is refused at once: " + second, "method_unavailable", Uhp.code(second));
        assertFalse("the first call is still running", first.isDone());
        assertFalse("unregistration waits for the running call", unregister.isDone());

        release.countDown();
        JsonNode reply = first.get(10, TimeUnit.SECONDS);
        assertEquals("the running call gets its result: " + reply, "done", reply.at("/result/type").asText());
        unregister.get(10, TimeUnit.SECONDS);
        assertFalse(Uhp.names(dispatcher).contains("test.block"));
        assertEquals("method_unavailable", Uhp.code(uhp.call("test.block", "{}")));
        assertEquals("pong", uhp.call("ping", "{}").at("/result/type").asText());
    }
}

package io.artuditu.it.osgi;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.it.Reactor;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.UhpFamily;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Hot reload of a third-party module (the example echo bundle): its method comes and goes
 * with the bundle, and a hundred install/uninstall/refresh cycles leave no threads, no
 * services and no class loaders behind.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class HotReloadTest extends RuntimeTest {
    static final String ECHO = "io.artuditu.example.echo";
    static final int CYCLES = 100;
    static final int WARM_UP = 5;
    /** Threads the runtime may legitimately start late (a timer, a lazily created pool). */
    static final int THREAD_TOLERANCE = 2;
    /**
     * The server's connection workers: a cached pool that reuses idle threads, so sequential
     * calls keep it at a thread or two; it is counted like every other thread.
     */
    static final String CONNECTION_THREAD = "uhp-conn-";

    private Path jar;

    @Before
    public void exampleJar() {
        jar = Reactor.jar(ECHO);
    }

    @Test
    public void aHundredReloadCyclesLeaveNoThreadsServicesOrClassLoaders() throws Exception {
        List<WeakReference<ClassLoader>> loaders = new ArrayList<>();
        Map<String, Integer> warm = null;
        long start = System.nanoTime();
        for (int i = 1; i <= CYCLES; i++) {
            loaders.add(cycle(i));
            if (i == WARM_UP) {
                warm = threadsByName();
            }
        }
        long cyclesMillis = (System.nanoTime() - start) / 1_000_000;
        Map<String, Integer> after = threadsByName();
        int pool = after.getOrDefault(CONNECTION_THREAD, 0);
        System.out.println("HotReloadTest: " + CYCLES + " reload cycles in " + cyclesMillis + " ms; threads: "
                + total(warm) + " after " + WARM_UP + " cycles, " + total(after) + " after " + CYCLES
                + " (connection workers " + warm.getOrDefault(CONNECTION_THREAD, 0) + " -> " + pool + ")");

        assertTrue("connection workers within their bound: " + pool, pool <= Limits.MAX_CONNECTIONS);
        int grown = total(after) - total(warm);
        assertTrue("thread count grew by " + grown + " over " + (CYCLES - WARM_UP) + " cycles\n  after warm-up: " + warm
                + "\n  at the end:    " + after, grown <= THREAD_TOLERANCE);

        assertNoServicesOfUninstalledBundles();
        assertTrue(context.getBundle(0).adapt(FrameworkWiring.class).getRemovalPendingBundles().isEmpty());

        long gcStart = System.nanoTime();
        int alive = alive(loaders);
        for (int round = 0; round < 40 && alive > 0; round++) {
            System.gc();
            Thread.sleep(50);
            alive = alive(loaders);
        }
        System.out.println("HotReloadTest: class loaders unreachable after " + (System.nanoTime() - gcStart) / 1_000_000
                + " ms of GC; still reachable: " + alive);
        assertEquals("class loaders of uninstalled echo bundles still reachable (a leak)", 0, alive);
    }

    /** One install → call → uninstall → refresh cycle; returns a weak handle on its class loader. */
    private WeakReference<ClassLoader> cycle(int i) throws Exception {
        Bundle echo = context.installBundle(jar.toUri().toString());
        echo.start();
        Uhp.await("example.echo appears (cycle " + i + ")", () -> Uhp.names(dispatcher).contains("example.echo"));
        WeakReference<ClassLoader> loader = new WeakReference<>(echo.adapt(BundleWiring.class).getClassLoader());
        assertTrue("cycle " + i, uhp.capabilityNames().contains("example.echo"));
        JsonNode hi = uhp.call("example.echo", "{\"text\":\"hi\"}");
        assertEquals("cycle " + i + ": " + hi, "hi", hi.at("/result/text").asText());
        assertEquals("echo", hi.at("/result/type").asText());

        long id = echo.getBundleId();
        echo.uninstall();
        refresh(echo);
        echo = null;
        assertTrue("cycle " + i, !Uhp.names(dispatcher).contains("example.echo"));
        JsonNode gone = uhp.call("example.echo", "{\"text\":\"hi\"}");
        assertEquals("cycle " + i + ": " + gone, "method_unavailable", Uhp.code(gone));
        for (ServiceReference<?> ref : context.getAllServiceReferences(null, null)) {
            Bundle owner = ref.getBundle();
            assertTrue("cycle " + i + ": service " + ref + " of the uninstalled bundle",
                    owner != null && owner.getBundleId() != id);
        }
        return loader;
    }

    @Test
    public void updatingFromTheSameJarKeepsEchoAnswering() throws Exception {
        Bundle echo = context.installBundle(jar.toUri().toString());
        try {
            echo.start();
            Uhp.await("example.echo appears", () -> Uhp.names(dispatcher).contains("example.echo"));
            assertEquals("hi", uhp.call("example.echo", "{\"text\":\"hi\"}").at("/result/text").asText());
            ClassLoader before = echo.adapt(BundleWiring.class).getClassLoader();

            try (InputStream in = Files.newInputStream(jar)) {
                echo.update(in);
            }
            refresh(echo);
            assertEquals(Bundle.ACTIVE, echo.getState());
            Uhp.await("example.echo is back after the update",
                    () -> Uhp.names(dispatcher).contains("example.echo"));
            assertNotSame("the update brought a new class loader", before,
                    echo.adapt(BundleWiring.class).getClassLoader());
            JsonNode upper = uhp.call("example.echo", "{\"text\":\"hi\",\"upper\":true}");
            assertEquals(upper.toString(), "HI", upper.at("/result/text").asText());
            assertTrue(uhp.capabilityNames().contains("example.echo"));
            assertEquals(1, dispatcher.methods().stream().filter(m -> m.name().equals("example.echo")).count());
            assertTrue(dispatcher.conflicts().isEmpty());
        } finally {
            echo.uninstall();
            refresh(echo);
        }
        assertEquals("method_unavailable", Uhp.code(uhp.call("example.echo", "{\"text\":\"hi\"}")));
    }

    /** Refreshes {@code bundle} and waits for PACKAGES_REFRESHED. */
    private void refresh(Bundle bundle) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        FrameworkEvent[] last = new FrameworkEvent[1];
        context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(Set.of(bundle), event -> {
            last[0] = event;
            if (event.getType() == FrameworkEvent.PACKAGES_REFRESHED) {
                done.countDown();
            }
        });
        assertTrue("PACKAGES_REFRESHED within 10 s", done.await(10, TimeUnit.SECONDS));
    }

    private void assertNoServicesOfUninstalledBundles() throws Exception {
        for (ServiceReference<?> ref : context.getAllServiceReferences(null, null)) {
            Bundle owner = ref.getBundle();
            assertTrue("a service outlived its bundle: " + ref, owner != null && owner.getState() != Bundle.UNINSTALLED);
            assertTrue("a service of the echo bundle is left: " + ref, !ECHO.equals(owner.getSymbolicName()));
        }
        ServiceReference<?>[] families = context.getAllServiceReferences(UhpFamily.class.getName(), null);
        assertEquals("only discovery's family is registered", 1, families == null ? 0 : families.length);
    }

    /** Live threads grouped by name with digits dropped (uhp-conn-17 → uhp-conn-). */
    private static Map<String, Integer> threadsByName() {
        Map<String, Integer> out = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive()) {
                out.merge(t.getName().replaceAll("[0-9]+", ""), 1, Integer::sum);
            }
        }
        return out;
    }

    private static int total(Map<String, Integer> threads) {
        return threads.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static int alive(List<WeakReference<ClassLoader>> loaders) {
        int n = 0;
        for (WeakReference<ClassLoader> ref : loaders) {
            if (ref.get() != null) {
                n++;
            }
        }
        return n;
    }
}

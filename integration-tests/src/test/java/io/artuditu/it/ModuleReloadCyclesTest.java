package io.artuditu.it;

import static io.artuditu.it.ScriptModules.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hot reload on the whole distribution: a bundle module that starts a thread and a timer
 * through the SDK comes in through the drop-in folder, then goes through 1,000 cycles of
 * module.disable, module.enable and server.bundle.update while a client calls its method
 * in a loop, and leaves through server.bundle.uninstall and server.bundle.install again.
 * Afterwards no thread, class loader, service or file descriptor is left over, the only
 * failed calls are the documented method_unavailable, and an unrelated pane still runs.
 */
class ModuleReloadCyclesTest {
    static final Path COUNTER = Reactor.jar("io.artuditu.example.counter");
    static final int CYCLES = Integer.getInteger("artuditu.reload.cycles", 1000);
    static final Pattern HISTO = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+\\d+\\s+(\\S+)", Pattern.MULTILINE);

    @TempDir
    Path home;
    @TempDir
    Path work;

    @Test
    void thousandCyclesLeakNothing() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            Path sock = s.socket;
            long pid = s.process.pid();
            ok(sock, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(work.toString()) + "}");
            String term = Terms.create(sock, work, "sleep", "600");
            long panePid = pids(sock).get(0);
            Map<String, Long> before = leaks(pid);

            Files.createDirectories(home.resolve("bundles"));
            Files.copy(COUNTER, home.resolve("bundles/counter.jar"), StandardCopyOption.REPLACE_EXISTING);
            awaitAnswer(sock);
            long bundle = ok(sock, "module.info", "{\"id\":\"counter\"}").at("/module/bundle_id").asLong();

            Client client = new Client(sock);
            client.start();
            long t0 = System.nanoTime();
            for (int i = 0; i < CYCLES; i++) {
                ok(sock, "module.disable", "{\"id\":\"counter\"}");
                ok(sock, "module.enable", "{\"id\":\"counter\"}");
                awaitAnswer(sock);
                ok(sock, "server.bundle.update", "{\"bundle\":" + bundle + "}");
                awaitAnswer(sock);
            }
            long cycleMs = (System.nanoTime() - t0) / 1_000_000;
            client.finish();
            ok(sock, "server.bundle.uninstall", "{\"bundle\":" + bundle + "}");
            Files.delete(home.resolve("bundles/counter.jar"));
            JsonNode installed = ok(sock, "server.bundle.install", "{\"path\":" + Wire.M.valueToTree(COUNTER.toString()) + "}");
            awaitAnswer(sock);
            assertEquals("enabled", ok(sock, "module.info", "{\"id\":\"counter\"}").at("/module/state").asText());
            ok(sock, "server.bundle.uninstall", "{\"bundle\":" + installed.at("/bundle/id").asLong() + "}");
            ScriptModules.await(sock, "module.list", "{}", r -> !r.toString().contains("\"counter\""));

            System.out.printf("module reload: %d cycles in %d ms (%.1f ms each); %d calls answered, %d unavailable,"
                    + " longest unavailable window %d ms%n", CYCLES, cycleMs, cycleMs / (double) CYCLES, client.ok.get(),
                    client.unavailable.get(), client.longestGapMs.get());
            assertEquals(Map.of(), client.other, "no failed call but method_unavailable");
            assertTrue(client.ok.get() > CYCLES, "the client was answered all along: " + client.ok.get());
            assertTrue(ModuleMethodsTest.running(panePid), "the unrelated pane's process is alive");
            assertTrue(Terms.ok(sock, "inventory", Terms.params()).toString().contains(term));
            Map<String, Long> after = awaitSettled(pid, before);
            assertEquals(0L, after.get("module threads"), "no module thread left: " + threadNames(pid));
            assertEquals(before.get("class loaders"), after.get("class loaders"), "no bundle class loader left");
            assertEquals(before.get("services"), after.get("services"), "no service left registered");
            assertTrue(after.get("fds") <= before.get("fds") + 4, "file descriptors " + before + " -> " + after);
            assertTrue(after.get("threads") <= before.get("threads") + 8, "threads " + before + " -> " + after + ": "
                    + threadNames(pid));
        }
    }

    static void awaitAnswer(Path sock) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            JsonNode r = Wire.call(sock, "example.counter.get", "{}");
            if (r.has("result")) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the module's method is back: " + r);
            Thread.sleep(2);
        }
    }

    static List<Long> pids(Path sock) throws IOException {
        List<Long> out = new ArrayList<>();
        for (JsonNode p : ok(sock, "session.snapshot", "{}").findValues("pid")) {
            if (p.canConvertToLong()) {
                out.add(p.asLong());
            }
        }
        return out;
    }

    /** Leak counters are noisy for a moment after the last change (pools wind down): poll until they settle. */
    static Map<String, Long> awaitSettled(long pid, Map<String, Long> before) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        Map<String, Long> now = leaks(pid);
        while (System.nanoTime() < deadline && !(now.get("module threads") == 0
                && now.get("class loaders").equals(before.get("class loaders"))
                && now.get("services").equals(before.get("services")))) {
            Thread.sleep(500);
            now = leaks(pid);
        }
        return now;
    }

    /** Threads (and module threads), open files, and after a full GC the live bundle class loaders and services. */
    static Map<String, Long> leaks(long pid) throws Exception {
        Map<String, Long> m = new ConcurrentHashMap<>();
        List<String> names = threadNames(pid);
        m.put("threads", (long) names.size());
        m.put("module threads", names.stream().filter(n -> n.startsWith("module-")).count());
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            m.put("fds", fds.count());
        }
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.class_histogram").redirectErrorStream(true).start();
        String histo = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        m.put("class loaders", count(histo, "org.apache.felix.framework.BundleWiringImpl$BundleClassLoader"));
        m.put("services", count(histo, "org.apache.felix.framework.ServiceRegistrationImpl"));
        return m;
    }

    static long count(String histo, String cls) {
        Matcher x = HISTO.matcher(histo);
        while (x.find()) {
            if (x.group(2).equals(cls)) {
                return Long.parseLong(x.group(1));
            }
        }
        return 0;
    }

    static List<String> threadNames(long pid) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    out.add(Files.readString(t.resolve("comm")).trim());
                } catch (IOException gone) {
                    // the thread ended while we looked
                }
            }
        }
        return out;
    }

    /** Calls the module's method in a loop and sorts the answers. */
    static final class Client extends Thread {
        final Path sock;
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong ok = new AtomicLong();
        final AtomicLong unavailable = new AtomicLong();
        final AtomicLong longestGapMs = new AtomicLong();
        final Map<String, String> other = new ConcurrentHashMap<>();

        Client(Path sock) {
            super("reload-client");
            this.sock = sock;
            setDaemon(true);
        }

        @Override
        public void run() {
            long lastOk = System.nanoTime();
            while (running.get()) {
                try {
                    JsonNode r = Wire.call(sock, "example.counter.get", "{}");
                    if (r.has("result")) {
                        long now = System.nanoTime();
                        longestGapMs.accumulateAndGet((now - lastOk) / 1_000_000, Math::max);
                        lastOk = now;
                        ok.incrementAndGet();
                    } else if ("method_unavailable".equals(Wire.code(r))) {
                        unavailable.incrementAndGet();
                    } else {
                        other.putIfAbsent(Wire.code(r), r.toString());
                    }
                } catch (IOException | AssertionError e) {
                    other.putIfAbsent("exception", e.toString());
                }
            }
        }

        void finish() throws InterruptedException {
            running.set(false);
            join(10_000);
        }
    }
}

package io.artuditu.operator.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.operator.internal.DropInWatcher.Phase;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

class DropInWatcherTest {
    private static final long WAIT_MS = 10_000;

    @TempDir
    Path dir;
    private Felix felix;
    private Path dropIn;
    private DropInWatcher watcher;
    /** Held so the logger, and with it the handler, outlives the test. */
    private final Logger jul = Logger.getLogger(DropInWatcher.class.getName());
    private final List<LogRecord> errors = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.SEVERE.intValue()) {
                errors.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void boot() throws Exception {
        felix = new Felix(dir);
        dropIn = felix.home.resolve("bundles");
        jul.addHandler(capture);
    }

    @AfterEach
    void shutdown() throws Exception {
        if (watcher != null) {
            watcher.close();
        }
        jul.removeHandler(capture);
        felix.close();
    }

    private void watch(int maxProbes) {
        watcher = new DropInWatcher(felix.admin(), DropInWatcher.SETTLE_MS, maxProbes);
    }

    private Bundle dropped(String name) {
        return felix.context().getBundle(DropInFolder.location(name));
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_MS * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT_MS + " ms: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static boolean watcherThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(DropInWatcher.THREAD_NAME) && t.isAlive());
    }

    @Test
    void theFolderIsCreatedOwnerOnlyAndTheThreadIsGoneAfterDeactivate() throws Exception {
        watcher = new DropInWatcher(felix.context());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dropIn)));
        assertTrue(watcherThreadAlive());
        watcher.close();
        watcher = null;
        assertFalse(watcherThreadAlive(), "deactivate joins the watcher thread");
    }

    @Test
    void aJarRenamedIntoPlaceIsInstalledUpdatedAndUninstalled() throws Exception {
        watch(DropInWatcher.MAX_PROBES);
        Path part = TestJars.write(dropIn.resolve("a.jar.part"), TestJars.bundle("t.a", "1.0.0"));
        await("the .part file is seen and ignored", () -> watcher.phase("a.jar.part") == Phase.IGNORED);
        assertNull(dropped("a.jar.part"));

        Files.move(part, dropIn.resolve("a.jar"));
        await("a.jar installed and started", () -> dropped("a.jar") != null && dropped("a.jar").getState() == Bundle.ACTIVE);
        long id = dropped("a.jar").getBundleId();

        TestJars.publish(dropIn.resolve("a.jar"), TestJars.bundle("t.a", "2.0.0"));
        await("a.jar updated to 2.0.0", () -> "2.0.0".equals(dropped("a.jar").getVersion().toString()));
        assertEquals(id, dropped("a.jar").getBundleId(), "an update keeps the bundle");
        await("active again after the update", () -> dropped("a.jar").getState() == Bundle.ACTIVE);

        Files.delete(dropIn.resolve("a.jar"));
        await("a.jar uninstalled", () -> dropped("a.jar") == null);
        assertEquals(List.of(), errors);
    }

    @Test
    void aJarWrittenInTwoHalvesIsTakenOnlyWhenComplete() throws Exception {
        watch(DropInWatcher.MAX_PROBES);
        byte[] jar = TestJars.bundle("t.slow", "1.0.0");
        Files.createDirectories(dropIn);
        try (OutputStream out = Files.newOutputStream(dropIn.resolve("slow.jar"))) {
            out.write(jar, 0, jar.length / 2);
            out.flush();
            await("the half file is held still and found incomplete",
                    () -> watcher.phase("slow.jar") == Phase.INCOMPLETE);
            assertNull(dropped("slow.jar"), "a partial file is never installed");
            out.write(jar, jar.length / 2, jar.length - jar.length / 2);
        }
        await("slow.jar installed once complete", () -> dropped("slow.jar") != null);
        assertEquals("t.slow", dropped("slow.jar").getSymbolicName());
        assertEquals(List.of(), errors, "a file that completes in time is not an error");
    }

    @Test
    void aCorruptJarIsLoggedOnceAndNotInstalled() throws Exception {
        watch(3);
        TestJars.write(dropIn.resolve("corrupt.jar"), "PK but not really a zip".getBytes());
        await("corrupt.jar rejected", () -> watcher.phase("corrupt.jar") == Phase.REJECTED);
        assertNull(dropped("corrupt.jar"));
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).getMessage().contains("corrupt.jar"), errors.get(0).getMessage());
        assertTrue(errors.get(0).getMessage().contains("not a readable jar"), errors.get(0).getMessage());
    }

    @Test
    void aJarThatIsNotABundleIsLoggedAndSkipped() throws Exception {
        watch(DropInWatcher.MAX_PROBES);
        TestJars.write(dropIn.resolve("plain.jar"), TestJars.plainJar());
        await("plain.jar rejected", () -> watcher.phase("plain.jar") == Phase.REJECTED);
        assertNull(dropped("plain.jar"));
        assertTrue(errors.get(0).getMessage().contains("Bundle-SymbolicName"), errors.get(0).getMessage());
    }

    @Test
    void aSymbolicNameInstalledFromElsewhereIsSkipped() throws Exception {
        Path elsewhere = TestJars.write(dir.resolve("a.jar"), TestJars.bundle("t.a", "1.0.0"));
        felix.admin().install(felix.admin().source(elsewhere.toString()), "file:" + elsewhere);
        watch(DropInWatcher.MAX_PROBES);
        TestJars.publish(dropIn.resolve("a-copy.jar"), TestJars.bundle("t.a", "2.0.0"));
        await("a-copy.jar rejected", () -> watcher.phase("a-copy.jar") == Phase.REJECTED);
        assertNull(dropped("a-copy.jar"));
        assertTrue(errors.get(0).getMessage().contains("already installed from file:" + elsewhere),
                errors.get(0).getMessage());
    }

    @Test
    void startUpReconcilesTheFolderWithTheFramework() throws Exception {
        BundleAdmin admin = felix.admin();
        Path kept = TestJars.write(dropIn.resolve("kept.jar"), TestJars.bundle("t.kept", "1.0.0"));
        admin.install(admin.source(kept.toString()), DropInFolder.location("kept.jar"));
        Path gone = TestJars.write(dir.resolve("gone.jar"), TestJars.bundle("t.gone", "1.0.0"));
        admin.install(admin.source(gone.toString()), DropInFolder.location("gone.jar"));
        long keptId = dropped("kept.jar").getBundleId();
        TestJars.write(dropIn.resolve("new.jar"), TestJars.bundle("t.new", "1.0.0"));

        watch(DropInWatcher.MAX_PROBES);
        await("new.jar installed", () -> dropped("new.jar") != null);
        await("gone.jar's bundle uninstalled", () -> dropped("gone.jar") == null);
        assertEquals(Phase.TAKEN, watcher.phase("kept.jar"));
        assertEquals(keptId, dropped("kept.jar").getBundleId());
        assertEquals("1.0.0", dropped("kept.jar").getVersion().toString(), "an unchanged file is left alone");
    }

    @Test
    void aFileChangedWhileNoWatcherRanUpdatesItsBundleAtStartUp() throws Exception {
        BundleAdmin admin = felix.admin();
        Path file = TestJars.write(dropIn.resolve("a.jar"), TestJars.bundle("t.a", "1.0.0"));
        admin.install(admin.source(file.toString()), DropInFolder.location("a.jar"));
        TestJars.write(file, TestJars.bundle("t.a", "2.0.0"));
        Files.setLastModifiedTime(file, FileTime.fromMillis(dropped("a.jar").getLastModified() + 60_000));

        watch(DropInWatcher.MAX_PROBES);
        await("a.jar updated to 2.0.0", () -> "2.0.0".equals(dropped("a.jar").getVersion().toString()));
    }

    @Test
    void aRemovedFolderIsCreatedAgainAndStillWatched() throws Exception {
        watch(DropInWatcher.MAX_PROBES);
        TestJars.publish(dropIn.resolve("a.jar"), TestJars.bundle("t.a", "1.0.0"));
        await("a.jar installed", () -> dropped("a.jar") != null);
        Files.delete(dropIn.resolve("a.jar"));
        Files.delete(dropIn);
        await("a.jar uninstalled", () -> dropped("a.jar") == null);
        await("the folder is back", () -> Files.isDirectory(dropIn));
        TestJars.publish(dropIn.resolve("b.jar"), TestJars.bundle("t.b", "1.0.0"));
        await("b.jar installed from the new folder", () -> dropped("b.jar") != null);
    }

    @Test
    void aBundleThatCannotStartYetStartsWhenItsRequirementArrives() throws Exception {
        watch(DropInWatcher.MAX_PROBES);
        TestJars.publish(dropIn.resolve("user.jar"), TestJars.bundle("t.user", "1.0.0", "Import-Package: t.lib"));
        await("user.jar installed", () -> dropped("user.jar") != null && watcher.phase("user.jar") == Phase.TAKEN);
        assertEquals(Bundle.INSTALLED, dropped("user.jar").getState());
        TestJars.publish(dropIn.resolve("lib.jar"), TestJars.bundle("t.lib", "1.0.0", "Export-Package: t.lib"));
        await("user.jar started", () -> dropped("user.jar").getState() == Bundle.ACTIVE);
    }
}

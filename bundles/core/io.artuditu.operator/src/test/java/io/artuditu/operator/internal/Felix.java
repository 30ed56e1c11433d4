package io.artuditu.operator.internal;

import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/** A real, empty framework with its own storage and an Artuditu home under {@code dir}. */
final class Felix implements AutoCloseable {
    private final Framework framework;
    final Path home;

    Felix(Path dir) throws BundleException {
        this.home = dir.resolve("home");
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).findFirst().orElseThrow();
        framework = factory.newFramework(Map.of(
                Constants.FRAMEWORK_STORAGE, dir.resolve("storage").toString(),
                Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT,
                "artuditu.home", home.toString()));
        framework.start();
    }

    BundleContext context() {
        return framework.getBundleContext();
    }

    BundleAdmin admin() {
        return new BundleAdmin(context(), DropInFolder.of(context()));
    }

    @Override
    public void close() throws Exception {
        framework.stop();
        framework.waitForStop(10_000);
    }
}

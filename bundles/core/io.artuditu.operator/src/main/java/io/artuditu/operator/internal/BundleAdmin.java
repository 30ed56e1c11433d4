package io.artuditu.operator.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Every change this bundle makes to the installed bundles, for the UHP family and the
 * drop-in watcher alike. Each operation either completes or throws {@link UhpException}
 * with a message fit for a client; framework exceptions are logged here with their
 * causes and never travel further.
 *
 * <p>Invariants: a core bundle ({@link #isCore}) is never stopped, updated or
 * uninstalled, and no update or uninstall runs whose refresh would restart a core
 * bundle, so the server never refreshes its own admin path from inside a call. A
 * refresh covers only the changed bundle's dependency closure and is awaited, bounded.
 *
 * <p>Thread safe: it holds no state besides the context; the framework serializes
 * conflicting operations on one bundle.
 */
final class BundleAdmin {
    static final long REFRESH_TIMEOUT_MS = 30_000;
    private static final Logger LOG = System.getLogger(BundleAdmin.class.getName());
    private static final int MAX_REASON_CHARS = 1000;

    private final BundleContext context;
    private final Path dropIn;
    private final long refreshTimeoutMs;

    BundleAdmin(BundleContext context, Path dropIn) {
        this(context, dropIn, REFRESH_TIMEOUT_MS);
    }

    BundleAdmin(BundleContext context, Path dropIn, long refreshTimeoutMs) {
        this.context = context;
        this.dropIn = dropIn;
        this.refreshTimeoutMs = refreshTimeoutMs;
    }

    /** A jar on disk that has been checked, with what its manifest says. */
    record Source(Path file, BundleJar jar) {
    }

    Path dropIn() {
        return dropIn;
    }

    /** The system bundle, or any bundle whose manifest says {@code Artuditu-Core: true}. */
    static boolean isCore(Bundle b) {
        if (b.getBundleId() == 0) {
            return true;
        }
        String v = b.getHeaders("").get(BundleJar.CORE_HEADER);
        return v != null && "true".equalsIgnoreCase(v.trim());
    }

    static boolean isFragment(Bundle b) {
        BundleRevision r = b.adapt(BundleRevision.class);
        return r != null && (r.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }

    static String describe(Bundle b) {
        return b.getSymbolicName() + " " + b.getVersion() + " (bundle " + b.getBundleId() + ")";
    }

    /** Every installed bundle, by id. */
    List<Bundle> bundles() {
        Bundle[] all = context.getBundles();
        Arrays.sort(all, Comparator.comparingLong(Bundle::getBundleId));
        return List.of(all);
    }

    Optional<Bundle> byLocation(String location) {
        return Optional.ofNullable(context.getBundle(location));
    }

    /**
     * The one bundle {@code target} names: an integer is a bundle id, a string a
     * symbolic name that must match exactly one installed version.
     */
    Bundle find(JsonNode target) {
        if (target.isNumber()) {
            long id = target.asLong();
            Bundle b = context.getBundle(id);
            if (b == null) {
                throw UhpException.notFound("bundle", Long.toString(id), "bundle", "no bundle has id " + id);
            }
            return b;
        }
        String name = target.asText();
        List<Bundle> matches = bundles().stream().filter(b -> name.equals(b.getSymbolicName())).toList();
        if (matches.isEmpty()) {
            throw UhpException.notFound("bundle", name, "bundle", "no bundle has the symbolic name " + name);
        }
        if (matches.size() > 1) {
            List<Long> ids = matches.stream().map(Bundle::getBundleId).toList();
            throw new UhpException(ErrorCode.INVALID_REQUEST,
                    name + " is installed in several versions (bundle ids " + ids + "); name one by its id",
                    Map.of("field", "bundle", "ids", ids));
        }
        return matches.get(0);
    }

    /**
     * Checks a client-given path: absolute, a readable regular {@code .jar} file, and a
     * bundle. Symbolic links are resolved, so one file has one {@code file:} location.
     */
    Source source(String pathText) {
        Path p;
        try {
            p = Path.of(pathText);
        } catch (InvalidPathException e) {
            throw invalidPath(pathText + " is not a valid path: " + e.getReason());
        }
        if (!p.isAbsolute()) {
            throw invalidPath("path must be absolute: " + pathText);
        }
        p = p.normalize();
        if (p.getFileName() == null || !p.getFileName().toString().endsWith(".jar")) {
            throw invalidPath("path must name a .jar file: " + pathText);
        }
        return checked(p);
    }

    private Source checked(Path p) {
        if (!Files.exists(p)) {
            throw invalidPath("no such file: " + p);
        }
        if (!Files.isRegularFile(p)) {
            throw invalidPath("not a regular file: " + p);
        }
        if (!Files.isReadable(p)) {
            throw invalidPath("the server cannot read " + p);
        }
        Path real;
        try {
            real = p.toRealPath();
        } catch (IOException e) {
            throw invalidPath("cannot resolve " + p + ": " + e.getMessage());
        }
        return new Source(real, inspect(real));
    }

    /** The manifest of a complete jar; anything else is invalid_request. */
    static BundleJar inspect(Path file) {
        try {
            return BundleJar.read(file);
        } catch (IOException e) {
            throw invalidPath(file + " is not a readable jar: " + e.getMessage());
        } catch (BundleJar.NotABundle e) {
            throw invalidPath(file + " is not an OSGi bundle: " + e.getMessage());
        }
    }

    private static UhpException invalidPath(String message) {
        return new UhpException(ErrorCode.INVALID_REQUEST, message, Map.of("field", "path"));
    }

    /** The location an operator-installed file gets: its {@code file:} URI. */
    static String fileLocation(Path realFile) {
        return realFile.toUri().toString();
    }

    /** Installs {@code src} under {@code location} without starting it. */
    Bundle install(Source src, String location) {
        refuseCoreJar(src);
        Bundle existing = context.getBundle(location);
        if (existing != null) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, location + " is already installed as "
                    + describe(existing) + "; use server.bundle.update", Map.of("id", existing.getBundleId()));
        }
        try (InputStream in = Files.newInputStream(src.file())) {
            Bundle b = context.installBundle(location, in);
            LOG.log(Level.INFO, "installed " + describe(b) + " from " + location);
            return b;
        } catch (BundleException e) {
            throw refused("installing " + src.file(), e);
        } catch (IOException e) {
            throw invalidPath("cannot read " + src.file() + ": " + e.getMessage());
        }
    }

    void start(Bundle b) {
        if (isFragment(b)) {
            throw UhpException.invalid(describe(b) + " is a fragment; fragments attach to their host and never start");
        }
        try {
            b.start();
            LOG.log(Level.INFO, "started " + describe(b));
        } catch (BundleException e) {
            throw refused("starting " + describe(b), e);
        } catch (IllegalStateException e) {
            throw gone(b);
        }
    }

    void stop(Bundle b) {
        refuseCore(b, "stop");
        try {
            b.stop();
            LOG.log(Level.INFO, "stopped " + describe(b));
        } catch (BundleException e) {
            throw refused("stopping " + describe(b), e);
        } catch (IllegalStateException e) {
            throw gone(b);
        }
    }

    /**
     * Updates {@code b} from {@code src}, or when null from the file its location names
     * (a {@code file:} URI or a drop-in file), or else lets the framework read the
     * location; then refreshes. The new jar must keep the bundle's symbolic name.
     *
     * @return the symbolic names of the refreshed bundles
     */
    List<String> update(Bundle b, Source src) {
        refuseCore(b, "update");
        refuseCoreClosure(b, "updating");
        String before = describe(b);
        Source from = src != null ? src : sourceOf(b).map(this::checked).orElse(null);
        try (Hold hold = new Hold(context)) {
            return replace(b, from, before);
        }
    }

    /** The update itself and its refresh, under a hold: calls to the families it replaces wait for them. */
    private List<String> replace(Bundle b, Source from, String before) {
        try {
            if (from == null) {
                b.update();
            } else {
                refuseCoreJar(from);
                if (!from.jar().symbolicName().equals(b.getSymbolicName())) {
                    throw invalidPath(from.file() + " holds " + from.jar().symbolicName() + ", not "
                            + b.getSymbolicName() + "; install it as a new bundle instead");
                }
                try (InputStream in = Files.newInputStream(from.file())) {
                    b.update(in);
                }
            }
        } catch (BundleException e) {
            throw refused("updating " + before, e);
        } catch (IOException e) {
            throw invalidPath("cannot read " + from.file() + ": " + e.getMessage());
        } catch (IllegalStateException e) {
            throw gone(b);
        }
        LOG.log(Level.INFO, "updated " + before + " to " + b.getVersion()
                + (from == null ? " from its location" : " from " + from.file()));
        return refresh(b);
    }

    /**
     * Uninstalls {@code b} and refreshes the bundles wired to it.
     *
     * @return the symbolic names of the refreshed bundles
     */
    List<String> uninstall(Bundle b) {
        refuseCore(b, "uninstall");
        refuseCoreClosure(b, "uninstalling");
        try (Hold hold = new Hold(context)) {
            return remove(b);
        }
    }

    /** The uninstall and its refresh, under a hold: the dependents it restarts are waited for. */
    private List<String> remove(Bundle b) {
        try {
            b.uninstall();
            LOG.log(Level.INFO, "uninstalled " + describe(b));
        } catch (BundleException e) {
            throw refused("uninstalling " + describe(b), e);
        } catch (IllegalStateException e) {
            throw gone(b);
        }
        return refresh(b);
    }

    private Optional<Path> sourceOf(Bundle b) {
        String location = b.getLocation();
        Optional<String> dropped = DropInFolder.fileName(location);
        if (dropped.isPresent()) {
            return Optional.of(dropIn.resolve(dropped.get()));
        }
        if (location.startsWith("file:")) {
            try {
                return Optional.of(Path.of(URI.create(location)));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * The dispatcher's hold ({@link UhpDispatcher#holdAwayFamilies}) for the length of a
     * change: a family the change takes away and brings back (the updated bundle, the
     * dependents a refresh restarts) has its calls held, bounded, instead of refused with
     * {@code method_unavailable}. Without a dispatcher it does nothing.
     */
    private static final class Hold implements AutoCloseable {
        private final BundleContext context;
        private final ServiceReference<UhpDispatcher> ref;
        private final AutoCloseable hold;

        Hold(BundleContext context) {
            this.context = context;
            ServiceReference<UhpDispatcher> r = context.getServiceReference(UhpDispatcher.class);
            UhpDispatcher d = r == null ? null : context.getService(r);
            this.ref = d == null ? null : r;
            this.hold = d == null ? () -> { } : d.holdAwayFamilies();
        }

        @Override
        public void close() {
            try {
                hold.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "could not end the dispatcher's hold", e);
            } finally {
                if (ref != null) {
                    context.ungetService(ref);
                }
            }
        }
    }

    /**
     * Refreshes {@code b}'s dependency closure and waits for the framework to finish.
     * Only those bundles are touched; the rest of the framework keeps running.
     */
    private List<String> refresh(Bundle b) {
        FrameworkWiring fw = context.getBundle(0).adapt(FrameworkWiring.class);
        Set<Bundle> target = Set.of(b);
        List<String> names = fw.getDependencyClosure(target).stream()
                .sorted(Comparator.comparingLong(Bundle::getBundleId))
                .map(x -> x.getSymbolicName() == null ? "bundle " + x.getBundleId() : x.getSymbolicName())
                .toList();
        CountDownLatch done = new CountDownLatch(1);
        fw.refreshBundles(target, event -> {
            if (event.getType() == FrameworkEvent.PACKAGES_REFRESHED) {
                done.countDown();
            } else if (event.getThrowable() != null) {
                LOG.log(Level.WARNING, "while refreshing " + names, event.getThrowable());
            }
        });
        try {
            if (!done.await(refreshTimeoutMs, TimeUnit.MILLISECONDS)) {
                LOG.log(Level.ERROR, "refreshing " + names + " after changing " + describe(b) + " did not finish within "
                        + refreshTimeoutMs + " ms");
                throw new UhpException(ErrorCode.INTERNAL_ERROR, "the change to " + describe(b)
                        + " is done, but refreshing " + names + " did not finish within " + refreshTimeoutMs
                        + " ms; see the server log", Map.of("refreshed", names));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.INTERNAL_ERROR, "interrupted while waiting for the refresh of " + names,
                    Map.of("refreshed", names));
        }
        LOG.log(Level.INFO, "refreshed " + names);
        return names;
    }

    private static void refuseCore(Bundle b, String action) {
        if (isCore(b)) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, describe(b) + " is a core bundle and cannot " + action
                    + " at run time; use server.stop", Map.of("id", b.getBundleId()));
        }
    }

    /** Refuses a change whose refresh would restart a core bundle (for example the admin path itself). */
    private void refuseCoreClosure(Bundle b, String action) {
        FrameworkWiring fw = context.getBundle(0).adapt(FrameworkWiring.class);
        List<String> core = fw.getDependencyClosure(Set.of(b)).stream()
                .filter(x -> x.getBundleId() != b.getBundleId() && isCore(x))
                .map(BundleAdmin::describe).toList();
        if (!core.isEmpty()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, action + " " + describe(b)
                    + " would refresh the core bundles " + core + "; use server.stop", Map.of("core", core));
        }
    }

    private static void refuseCoreJar(Source src) {
        if (src.jar().core()) {
            throw invalidPath(src.file() + " declares " + BundleJar.CORE_HEADER
                    + ": true; core bundles ship with the server and are not installed at run time");
        }
    }

    private static UhpException gone(Bundle b) {
        return UhpException.notFound(describe(b) + " was uninstalled meanwhile");
    }

    /** Turns a framework refusal into invalid_request naming the reason; the trace stays in the log. */
    private static UhpException refused(String what, BundleException e) {
        LOG.log(Level.WARNING, what + " failed", e);
        Reason r = Reason.of(e.getType());
        StringBuilder detail = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            detail.append(" <- ").append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
        }
        String text = detail.length() > MAX_REASON_CHARS ? detail.substring(0, MAX_REASON_CHARS) + "…" : detail.toString();
        return new UhpException(ErrorCode.INVALID_REQUEST, what + " failed: " + r.text() + " (" + text + ")",
                Map.of("reason", r.code()));
    }

    /** A {@link BundleException} type as {@code details.reason} and as words. */
    private record Reason(String code, String text) {
        static Reason of(int type) {
            return switch (type) {
                case BundleException.DUPLICATE_BUNDLE_ERROR ->
                        new Reason("duplicate", "a bundle with the same symbolic name and version is installed");
                case BundleException.MANIFEST_ERROR -> new Reason("manifest", "its manifest is invalid");
                case BundleException.RESOLVE_ERROR -> new Reason("unresolved", "its requirements cannot be resolved");
                case BundleException.ACTIVATOR_ERROR -> new Reason("activator", "its activator failed");
                case BundleException.INVALID_OPERATION ->
                        new Reason("invalid_operation", "the framework does not allow this operation on it");
                case BundleException.STATECHANGE_ERROR ->
                        new Reason("state_change", "another change to it did not finish in time");
                case BundleException.NATIVECODE_ERROR ->
                        new Reason("native_code", "its native code does not match this platform");
                case BundleException.READ_ERROR -> new Reason("read", "the framework could not read it");
                case BundleException.SECURITY_ERROR -> new Reason("security", "permission denied");
                case BundleException.REJECTED_BY_HOOK -> new Reason("rejected_by_hook", "a framework hook rejected it");
                default -> new Reason("framework", "the framework refused");
            };
        }
    }
}

package io.artuditu.dispatcher.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.uhp.platform.ClaimConflict;
import io.artuditu.uhp.platform.FamilyFailure;
import io.artuditu.uhp.platform.MethodInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The live method table. Writers (family bind/unbind) are serialized by the monitor;
 * readers take the current immutable {@link Table} without locking.
 *
 * <p>Rule for two families claiming one method: higher {@code service.ranking} wins,
 * then lower {@code service.id} (the one registered first). Losers stay on file and take
 * over when the winner leaves.
 */
final class Registry {
    /** Names remembered as "once registered" so a later call can say the family stopped. */
    static final int MAX_REMEMBERED_NAMES = 4096;

    /** One registered family service. Calls in flight are counted so unbind can wait for them. */
    static final class Family {
        final String name;
        final String bundle;
        final int ranking;
        final long serviceId;
        final List<UhpMethod> methods;
        /** The family's contract, or null for one that builds its methods itself. */
        final FamilyContract contract;
        /** What it could not offer: its contract's and its binding's problems. */
        final List<FamilyFailure> failures;
        private int inFlight;
        private boolean closed;

        Family(String name, String bundle, int ranking, long serviceId, List<UhpMethod> methods) {
            this(name, bundle, ranking, serviceId, methods, null, List.of());
        }

        Family(String name, String bundle, int ranking, long serviceId, List<UhpMethod> methods,
                FamilyContract contract, List<FamilyContract.Problem> problems) {
            this.name = name;
            this.bundle = bundle;
            this.ranking = ranking;
            this.serviceId = serviceId;
            this.methods = List.copyOf(methods);
            this.contract = contract;
            List<FamilyFailure> f = new ArrayList<>();
            for (FamilyContract.Problem p : problems) {
                f.add(new FamilyFailure(name, p.method(), p.event(), bundle, p.reason()));
            }
            this.failures = List.copyOf(f);
        }

        /** Admits one call, or returns false when the family is going away. */
        synchronized boolean enter() {
            if (closed) {
                return false;
            }
            inFlight++;
            return true;
        }

        synchronized void exit() {
            if (--inFlight == 0) {
                notifyAll();
            }
        }

        /** Refuses new calls and waits up to {@code millis} for running calls to finish. */
        synchronized int closeAndDrain(long millis) throws InterruptedException {
            closed = true;
            long deadline = System.nanoTime() + millis * 1_000_000L;
            while (inFlight > 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    break;
                }
                wait(left);
            }
            return inFlight;
        }
    }

    /** A routable method: the method and the family that answers it. */
    record Route(UhpMethod method, Family family) {
    }

    /** An immutable view of the registry. */
    record Table(Map<String, Route> routes, List<ClaimConflict> conflicts) {
    }

    private static final Comparator<Family> PRECEDENCE = Comparator.<Family>comparingInt(f -> -f.ranking)
            .thenComparingLong(f -> f.serviceId);

    private final List<Family> families = new ArrayList<>();
    private final Set<String> remembered = new LinkedHashSet<>();
    /** Families that could not register, by service id, until their service goes away. */
    private final Map<Long, FamilyFailure> rejected = new TreeMap<>();
    private volatile Table table = new Table(Map.of(), List.of());
    /** The contract assembled for {@link #contractTable}, built on first use after a change. */
    private UhpContract contract;
    private Table contractTable;

    Table table() {
        return table;
    }

    synchronized boolean remembers(String method) {
        return remembered.contains(method);
    }

    synchronized void add(Family f) {
        families.add(f);
        for (UhpMethod m : f.methods) {
            remember(m.name());
        }
        rebuild();
        notifyAll(); // calls held in awaitRoute look again
    }

    synchronized void remove(Family f) {
        families.remove(f);
        rebuild();
    }

    /**
     * Waits, while {@code holding} says so and for at most {@code millis}, until
     * {@code method} is routed again; returns the route then, else the route at the end
     * (null when it is still away). {@link #add} and {@link #wake} end a wait early.
     */
    synchronized Route awaitRoute(String method, long millis, BooleanSupplier holding)
            throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            Route r = table.routes().get(method);
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (r != null || !holding.getAsBoolean() || left <= 0) {
                return r;
            }
            wait(left);
        }
    }

    /** Wakes the calls waiting in {@link #awaitRoute} (a hold ended). */
    synchronized void wake() {
        notifyAll();
    }

    /** Keeps {@code failure} on file for the family service {@code serviceId}, which could not register. */
    synchronized void reject(long serviceId, FamilyFailure failure) {
        rejected.put(serviceId, failure);
    }

    /** Forgets a rejected family whose service went away; false when none was on file. */
    synchronized boolean forget(long serviceId) {
        return rejected.remove(serviceId) != null;
    }

    /** What the registered families could not offer, then the families that could not register. */
    synchronized List<FamilyFailure> failures() {
        List<FamilyFailure> out = new ArrayList<>();
        for (Family f : families) {
            out.addAll(f.failures);
        }
        out.addAll(rejected.values());
        return out;
    }

    /** The registered families' contracts with {@code envelope}, in registration order (a family's contract once). */
    synchronized UhpContract contract(JsonNode envelope) {
        Table t = table;
        if (contract == null || contractTable != t) {
            List<Family> byAge = new ArrayList<>(families);
            byAge.sort(Comparator.comparingLong(f -> f.serviceId));
            List<FamilyContract> contracts = new ArrayList<>();
            for (Family f : byAge) {
                if (f.contract != null && !contracts.contains(f.contract)) {
                    contracts.add(f.contract);
                }
            }
            contract = UhpContract.assemble(envelope, contracts);
            contractTable = t;
        }
        return contract;
    }

    synchronized Family find(long serviceId) {
        for (Family f : families) {
            if (f.serviceId == serviceId) {
                return f;
            }
        }
        return null;
    }

    private void remember(String name) {
        if (remembered.size() >= MAX_REMEMBERED_NAMES && !remembered.contains(name)) {
            String eldest = remembered.iterator().next();
            remembered.remove(eldest);
        }
        remembered.add(name);
    }

    private void rebuild() {
        Map<String, List<Family>> claims = new TreeMap<>();
        for (Family f : families) {
            for (UhpMethod m : f.methods) {
                claims.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(f);
            }
        }
        Map<String, Route> routes = new HashMap<>();
        List<ClaimConflict> conflicts = new ArrayList<>();
        for (Map.Entry<String, List<Family>> e : claims.entrySet()) {
            List<Family> claimants = e.getValue();
            claimants.sort(PRECEDENCE);
            Family winner = claimants.get(0);
            UhpMethod method = winner.methods.stream().filter(m -> m.name().equals(e.getKey())).findFirst().orElseThrow();
            routes.put(e.getKey(), new Route(method, winner));
            for (Family loser : claimants.subList(1, claimants.size())) {
                conflicts.add(new ClaimConflict(e.getKey(), winner.bundle, loser.bundle));
            }
        }
        table = new Table(Map.copyOf(routes), List.copyOf(conflicts));
    }

    /** The live registry, sorted by method name. */
    List<MethodInfo> methods() {
        List<MethodInfo> out = new ArrayList<>();
        for (Route r : table.routes().values()) {
            out.add(new MethodInfo(r.method().name(), r.family().name, r.method().scope(), r.family().bundle,
                    r.method().paramsSchema()));
        }
        out.sort(Comparator.comparing(MethodInfo::name));
        return out;
    }
}

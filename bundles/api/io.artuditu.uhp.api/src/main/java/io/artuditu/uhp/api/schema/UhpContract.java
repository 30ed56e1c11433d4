package io.artuditu.uhp.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

/**
 * The UHP contract as a whole: the envelope (shipped in this bundle) assembled with the
 * family contracts of the bundles that serve them ({@link FamilyContract}). What
 * {@code artu uhp schema} prints, and what the dispatcher serves for the families it has.
 * Immutable and thread safe.
 *
 * <p>The document: {@code {"uhp": "1.0", "envelope": {…}, "methods": {name: {"family": …,
 * …row}}, "events": {name: {"family": …, "description": …, "data": {…}}}}}, methods and
 * events in the order of the families given (one family's files together), each file's in
 * file order.
 */
public final class UhpContract {
    /** The protocol version this contract describes. */
    public static final String UHP = "1.0";
    /** The folder the built-in family files and the envelope live in, each in its bundle. */
    public static final String ROOT = "protocol/uhp/v1/";
    /** The envelope schema's resource in this bundle. */
    public static final String ENVELOPE = ROOT + "envelope.json";

    private static final String MANIFEST = "META-INF/MANIFEST.MF";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ObjectNode document;
    private final Map<String, MethodContract> methods;
    private final Map<String, FamilyContract.EventContract> events;
    private final List<FamilyContract> families;
    private final List<FamilyContract.Problem> problems;

    private UhpContract(ObjectNode document, Map<String, MethodContract> methods,
            Map<String, FamilyContract.EventContract> events, List<FamilyContract> families,
            List<FamilyContract.Problem> problems) {
        this.document = document;
        this.methods = Collections.unmodifiableMap(methods);
        this.events = Collections.unmodifiableMap(events);
        this.families = List.copyOf(families);
        this.problems = List.copyOf(problems);
    }

    /** The request and reply envelope schemas shipped in this bundle ({@value #ENVELOPE}); a fresh copy. */
    public static ObjectNode envelope() {
        try (InputStream in = UhpContract.class.getClassLoader().getResourceAsStream(ENVELOPE)) {
            if (in == null) {
                throw new IllegalStateException("the API bundle lacks " + ENVELOPE);
            }
            return (ObjectNode) MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable " + ENVELOPE, e);
        }
    }

    /**
     * The whole contract: {@code envelope} and the families' methods and events, in the
     * order given, except that the files of one family name stay together (a family served
     * by two bundles, such as {@code panes}, is listed where its first file is). A method or
     * event two files describe is kept from the first and the second is a
     * {@linkplain #problems() problem}; the families' own problems are listed there too.
     */
    public static UhpContract assemble(JsonNode envelope, List<FamilyContract> given) {
        Objects.requireNonNull(envelope, "envelope");
        Map<String, List<FamilyContract>> byName = new LinkedHashMap<>();
        for (FamilyContract f : given) {
            byName.computeIfAbsent(f.family(), k -> new ArrayList<>()).add(f);
        }
        List<FamilyContract> families = new ArrayList<>();
        byName.values().forEach(families::addAll);
        ObjectNode doc = MAPPER.createObjectNode();
        doc.put("uhp", UHP);
        doc.set("envelope", envelope.deepCopy());
        ObjectNode allMethods = doc.putObject("methods");
        ObjectNode allEvents = doc.putObject("events");
        Map<String, MethodContract> methods = new LinkedHashMap<>();
        Map<String, FamilyContract.EventContract> events = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        List<FamilyContract.Problem> problems = new ArrayList<>();
        for (FamilyContract f : families) {
            problems.addAll(f.problems());
            ObjectNode file = f.document();
            for (MethodContract m : f.methods().values()) {
                String first = from.putIfAbsent("m " + m.name(), f.source());
                if (first != null) {
                    problems.add(FamilyContract.Problem.ofMethod(m.name(),
                            "described in " + first + " and again in " + f.source() + "; the first is kept"));
                    continue;
                }
                methods.put(m.name(), m);
                ObjectNode entry = allMethods.putObject(m.name());
                entry.put("family", f.family());
                entry.setAll((ObjectNode) file.path("methods").get(m.name()));
            }
            for (FamilyContract.EventContract e : f.events().values()) {
                String first = from.putIfAbsent("e " + e.name(), f.source());
                if (first != null) {
                    problems.add(FamilyContract.Problem.ofEvent(e.name(),
                            "declared in " + first + " and again in " + f.source() + "; the first is kept"));
                    continue;
                }
                events.put(e.name(), e);
                ObjectNode entry = allEvents.putObject(e.name());
                entry.put("family", f.family());
                entry.setAll((ObjectNode) file.path("events").get(e.name()));
            }
        }
        return new UhpContract(doc, methods, events, families, problems);
    }

    /**
     * The contract of every bundle on a plain class path: each {@code META-INF/MANIFEST.MF}
     * that {@code loader} sees with a {@value FamilyContract#HEADER} header contributes its
     * files (read from beside that manifest, so two jars may carry files of the same name),
     * in class-path order, with this bundle's envelope. For programs outside the framework
     * (the CLI, tests); in the framework the dispatcher assembles the families it has.
     * Never throws for a bad family file (see {@link #problems()}).
     */
    public static UhpContract fromClassPath(ClassLoader loader) {
        List<FamilyContract> families = new ArrayList<>();
        for (OnClassPath f : familiesOnClassPath(loader)) {
            families.add(f.family());
        }
        return assemble(envelope(), families);
    }

    /** A family file found on a class path, with the symbolic name of the bundle that carries it. */
    public record OnClassPath(String bundle, FamilyContract family) {
    }

    /**
     * The family files of every {@code META-INF/MANIFEST.MF} {@code loader} sees with a
     * {@value FamilyContract#HEADER} header, each read from beside its manifest, in class-path
     * order, each with its bundle (the manifest's {@code Bundle-SymbolicName}, else the
     * manifest's URL). A bundle met twice (named directly and through a {@code Class-Path}) is
     * read once; a file the header names and the bundle lacks is a {@linkplain
     * FamilyContract#problems() failed} family. What {@link #fromClassPath} assembles, for a
     * tool that also needs to know where each family came from.
     */
    public static List<OnClassPath> familiesOnClassPath(ClassLoader loader) {
        List<OnClassPath> families = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        Enumeration<URL> manifests;
        try {
            manifests = loader.getResources(MANIFEST);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the class path's manifests", e);
        }
        while (manifests.hasMoreElements()) {
            URL manifest = manifests.nextElement();
            if (!seen.add(manifest.toString())) {
                continue;
            }
            Attributes main;
            try (InputStream in = manifest.openStream()) {
                main = new Manifest(in).getMainAttributes();
            } catch (IOException e) {
                continue; // not a manifest we can read: it names no contract
            }
            String header = main.getValue(FamilyContract.HEADER);
            if (header == null) {
                continue;
            }
            String bsn = main.getValue("Bundle-SymbolicName");
            bsn = bsn == null ? manifest.toString() : bsn.split(";", 2)[0].trim();
            if (!seen.add("bundle:" + bsn)) {
                continue;
            }
            for (String file : header.split(",")) {
                String f = file.trim();
                if (f.isEmpty()) {
                    continue;
                }
                FamilyContract c;
                try (InputStream in = new URL(manifest, "../" + f).openStream()) {
                    c = FamilyContract.read(f, in);
                } catch (IOException e) {
                    c = FamilyContract.failed(f, "contract file missing beside " + manifest + ": " + f);
                }
                families.add(new OnClassPath(bsn, c));
            }
        }
        return families;
    }

    /** The method's contract; throws when the contract does not describe it. */
    public MethodContract method(String name) {
        MethodContract m = methods.get(name);
        if (m == null) {
            throw new NoSuchElementException("the UHP contract has no method " + name);
        }
        return m;
    }

    public boolean describes(String name) {
        return methods.containsKey(name);
    }

    /** Every described method, in contract order. */
    public Map<String, MethodContract> methods() {
        return methods;
    }

    /** Every declared event, in contract order. */
    public Map<String, FamilyContract.EventContract> events() {
        return events;
    }

    /** The family contracts this was assembled from, in order. */
    public List<FamilyContract> families() {
        return families;
    }

    /** The families' problems and the assembly's own (a method or event described twice). */
    public List<FamilyContract.Problem> problems() {
        return problems;
    }

    /** The whole contract as one document: what {@code artu uhp schema} prints. */
    public ObjectNode document() {
        return document.deepCopy();
    }
}

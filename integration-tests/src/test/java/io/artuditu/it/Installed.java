package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.UhpContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The contract of the built runtime: assembled from the contract files of the bundles the
 * exported server embeds ({@link RuntimeBundles}), nothing else. The tests validate every
 * reply and event against it, and compare what the CLI was built with to it.
 */
final class Installed {
    static final UhpContract CONTRACT = load();

    private Installed() {
    }

    private static UhpContract load() {
        List<URL> jars = new ArrayList<>();
        try {
            for (Path b : RuntimeBundles.withContract()) {
                jars.add(b.toUri().toURL());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Parent null: only the runtime's bundles, nothing of this class path.
        return UhpContract.fromClassPath(new URLClassLoader(jars.toArray(new URL[0]), null));
    }

    /** The schema at a JSON pointer of the contract document, compiled. */
    static JsonSchema schema(String pointer) {
        com.fasterxml.jackson.databind.JsonNode n = CONTRACT.document().at(pointer);
        assertTrue(n.isObject(), "the contract has a schema at " + pointer);
        return JsonSchema.compile(n);
    }
}

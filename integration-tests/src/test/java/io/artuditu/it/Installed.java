package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.UhpContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The contract of the built distribution, read the way the CLI reads it: from the family
 * bundles its jar's manifest {@code Class-Path} names in {@code distribution/target/artuditu/lib}.
 * The tests validate every reply and event against it.
 */
final class Installed {
    static final UhpContract CONTRACT = load();

    private Installed() {
    }

    private static UhpContract load() {
        Path cli = Path.of(System.getProperty("artuditu.root", ".."), "distribution/target/artuditu/lib/io.artuditu.cli.jar");
        if (!Files.isRegularFile(cli)) {
            throw new IllegalStateException(cli + " does not exist: build the distribution first (mvn verify)");
        }
        try {
            // Parent null: only the CLI jar and what its manifest names, nothing of this class path.
            URLClassLoader loader = new URLClassLoader(new URL[] {cli.toUri().toURL()}, null);
            return UhpContract.fromClassPath(loader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema at a JSON pointer of the contract document, compiled. */
    static JsonSchema schema(String pointer) {
        com.fasterxml.jackson.databind.JsonNode n = CONTRACT.document().at(pointer);
        assertTrue(n.isObject(), "the contract has a schema at " + pointer);
        return JsonSchema.compile(n);
    }
}

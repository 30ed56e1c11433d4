package io.artuditu.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The contract this CLI was built with, as the build wrote it into the jar
 * ({@link ContractFiles}): the assembled document ({@value ContractFiles#CONTRACT}) and the
 * generated reference pages. Read on first use only, by {@code --help}, {@code help --all},
 * {@code help --scopes} and {@code uhp schema}: the one-shot commands map arguments with the
 * command index and never parse the contract.
 */
final class Contract {
    private Contract() {
    }

    private static final class Holder {
        static final JsonNode DOCUMENT = read();

        private static JsonNode read() {
            try (InputStream in = open(ContractFiles.CONTRACT)) {
                return new ObjectMapper().readTree(in);
            } catch (IOException e) {
                throw new UncheckedIOException("unreadable " + ContractFiles.CONTRACT + " in the CLI jar", e);
            }
        }
    }

    /** The whole contract document: what {@code artu uhp schema} prints. Never modified. */
    static JsonNode document() {
        return Holder.DOCUMENT;
    }

    /** A generated page ({@value ContractFiles#REFERENCE} or {@value ContractFiles#SCOPES}) as text. */
    static String page(String name) {
        try (InputStream in = open(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable " + name + " in the CLI jar", e);
        }
    }

    private static InputStream open(String name) {
        InputStream in = Contract.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException(name + " is missing from the CLI jar (the build generates it: mvn package)");
        }
        return in;
    }
}

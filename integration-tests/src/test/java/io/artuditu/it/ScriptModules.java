package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Script modules written into a folder for a test, and the calls every module test makes. */
final class ScriptModules {
    private ScriptModules() {
    }

    /** A module folder holding {@code manifest} as module.toml. */
    static Path folder(Path parent, String name, String manifest) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        Files.writeString(dir.resolve("module.toml"), manifest);
        return dir;
    }

    /** The common head of a manifest: id, name, version, api, scopes. */
    static String head(String id, String scopes) {
        return "id = \"" + id + "\"\nname = \"" + id + "\"\nversion = \"1.0.0\"\napi = \"[1.0,2.0)\"\nscopes = " + scopes
                + "\n";
    }

    /** An executable script at {@code dir/rel}. */
    static Path script(Path dir, String rel, String body) throws IOException {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    static JsonNode ok(Path sock, String method, String params) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + r);
        return r.get("result");
    }

    static JsonNode link(Path sock, Path folder) throws IOException {
        return ok(sock, "module.link", "{\"path\":" + Wire.M.valueToTree(folder.toString()) + "}");
    }

    /** Polls {@code method} until {@code done} holds of its result (10 s at most). */
    static JsonNode await(Path sock, String method, String params, Predicate<JsonNode> done)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = ok(sock, method, params);
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(25);
        }
        throw new AssertionError(method + " never reached the expected state; last: " + last);
    }
}

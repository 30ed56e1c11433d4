package io.artuditu.uhp.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UhpContractTest {
    private static final FamilyContract GOOD = FamilyContract.load(UhpContractTest.class, "contracts/good.json");
    private static final FamilyContract BROKEN = FamilyContract.load(UhpContractTest.class, "contracts/broken.json");

    private final UhpContract contract = UhpContract.assemble(UhpContract.envelope(), List.of(GOOD, BROKEN));

    @TempDir
    Path dir;

    @Test
    void describesTheFamiliesMethodsAndEvents() {
        MethodContract read = contract.method("sample.read");
        assertEquals(Scope.READ, read.scope());
        assertEquals("sample", read.family());
        assertTrue(contract.describes("broken.ok"));
        assertFalse(contract.describes("broken.scope"), "a row left out is not described");
        assertThrows(NoSuchElementException.class, () -> contract.method("no.such"));
        assertEquals(List.of("sample.happened", "broken.fine"), List.copyOf(contract.events().keySet()));
        assertEquals(BROKEN.problems(), contract.problems());
        assertEquals(List.of(GOOD, BROKEN), contract.families());
    }

    @Test
    void theDocumentHoldsEnvelopeEveryMethodAndEveryEvent() {
        JsonNode doc = contract.document();
        assertEquals("1.0", doc.path("uhp").asText());
        assertTrue(doc.path("envelope").has("request"));
        assertEquals(List.copyOf(contract.methods().keySet()), names(doc.path("methods")));
        assertEquals("sample", doc.at("/methods/sample.read/family").asText());
        assertEquals("pane", doc.at("/methods/sample.read/target/id").asText(), "the row is kept as written");
        assertEquals("Something happened.", doc.at("/events/sample.happened/description").asText());
        assertEquals("sample", doc.at("/events/sample.happened/family").asText());
        assertEquals("string", doc.at("/events/sample.happened/data/properties/what/type").asText());
    }

    @Test
    void aMethodOrEventDescribedTwiceIsKeptOnceAndListed() {
        UhpContract twice = UhpContract.assemble(UhpContract.envelope(), List.of(GOOD, GOOD));
        assertEquals(2, twice.methods().size());
        assertEquals(3, twice.problems().size(), twice.problems().toString());
        assertTrue(twice.problems().stream().allMatch(p -> p.reason().contains("the first is kept")));
    }

    @Test
    void theFilesOfOneFamilyStayTogether() {
        FamilyContract second = FamilyContract.read("second.json", new java.io.ByteArrayInputStream(
                ("{\"family\":\"sample\",\"methods\":{\"sample.more\":{\"scope\":\"read\","
                        + "\"params\":{\"type\":\"object\"},\"result\":{\"type\":\"object\"}}}}")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        UhpContract c = UhpContract.assemble(UhpContract.envelope(), List.of(GOOD, BROKEN, second));
        assertEquals(List.of("sample.read", "sample.write", "sample.more", "broken.ok"), List.copyOf(c.methods().keySet()),
                "a family served by two bundles is listed where its first file is");
        assertEquals(List.of(GOOD, second, BROKEN), c.families());
    }

    @Test
    void theReplyEnvelopeListsExactlyTheErrorCodes() {
        Set<String> inSchema = new HashSet<>();
        contract.document().at("/envelope/reply/properties/error/properties/code/enum").forEach(n -> inSchema.add(n.asText()));
        assertEquals(Arrays.stream(ErrorCode.values()).map(ErrorCode::wire).collect(Collectors.toSet()), inSchema);
    }

    @Test
    void theReplyEnvelopeValidatesResultsAndErrors() throws Exception {
        JsonSchema reply = JsonSchema.compile(contract.document().at("/envelope/reply"));
        ObjectMapper m = new ObjectMapper();
        assertTrue(reply.validate(m.readTree("{\"id\":\"1\",\"result\":{\"type\":\"ok\"}}"), "r").isEmpty());
        assertTrue(reply.validate(m.readTree("{\"id\":null,\"error\":{\"code\":\"timeout\",\"message\":\"x\"}}"), "r").isEmpty());
        assertTrue(reply.validate(m.readTree("{\"id\":\"1\"}"), "r").isPresent());
        assertTrue(reply.validate(m.readTree("{\"id\":\"1\",\"error\":{\"code\":\"nope\",\"message\":\"x\"}}"), "r").isPresent());
    }

    @Test
    void theClassPathContractComesFromEveryManifestThatNamesFilesReadBesideIt() throws Exception {
        // Two jars carry a file of the same name: each manifest's own is read.
        Path a = jar("a.jar", "protocol/uhp/v1/same.json", "contracts/good.json", "protocol/uhp/v1/same.json");
        Path b = jar("b.jar", "protocol/uhp/v1/same.json, protocol/uhp/v1/gone.json", "contracts/broken.json",
                "protocol/uhp/v1/same.json");
        Path plain = jar("plain.jar", null, "contracts/good.json", "x.json");
        Path folder = dir.resolve("classes");
        Files.createDirectories(folder.resolve("META-INF"));
        Files.createDirectories(folder.resolve("p"));
        try (OutputStream out = Files.newOutputStream(folder.resolve("META-INF/MANIFEST.MF"))) {
            manifest("p/f.json").write(out);
        }
        Files.writeString(folder.resolve("p/f.json"), "{\"family\":\"folder\",\"methods\":{\"folder.ping\":"
                + "{\"scope\":\"read\",\"params\":{\"type\":\"object\"},\"result\":{\"type\":\"object\"}}}}");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {a.toUri().toURL(), plain.toUri().toURL(),
                b.toUri().toURL(), folder.toUri().toURL()}, null)) {
            UhpContract c = UhpContract.fromClassPath(loader);
            assertEquals(List.of("sample", "broken", "", "folder"),
                    c.families().stream().map(FamilyContract::family).toList());
            assertEquals(List.of("sample.read", "sample.write", "broken.ok", "folder.ping"), List.copyOf(c.methods().keySet()));
            assertTrue(c.problems().stream().anyMatch(p -> p.method() == null && p.reason().contains("gone.json")),
                    c.problems().toString());
            assertTrue(c.document().path("envelope").has("reply"));
        }
    }

    private Path jar(String name, String header, String resource, String as) throws IOException {
        Path jar = dir.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest(header));
                InputStream in = UhpContractTest.class.getClassLoader().getResourceAsStream(resource)) {
            out.putNextEntry(new JarEntry(as));
            in.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }

    private static Manifest manifest(String header) {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (header != null) {
            m.getMainAttributes().putValue(FamilyContract.HEADER, header);
        }
        return m;
    }

    private static List<String> names(JsonNode n) {
        List<String> s = new ArrayList<>();
        n.fieldNames().forEachRemaining(s::add);
        return s;
    }
}

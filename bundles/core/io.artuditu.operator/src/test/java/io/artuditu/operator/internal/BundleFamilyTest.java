package io.artuditu.operator.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.platform.BasicCall;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

class BundleFamilyTest {
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;
    private Felix felix;
    private BundleFamily family;

    @BeforeEach
    void boot() throws Exception {
        felix = new Felix(dir);
        family = new BundleFamily(felix.admin());
    }

    @AfterEach
    void shutdown() throws Exception {
        felix.close();
    }

    /** Calls as the dispatcher would: params checked first, the result checked against the contract. */
    private ObjectNode call(String method, String params) throws Exception {
        UhpMethod m = family.methods().stream().filter(x -> x.name().equals(method)).findFirst().orElseThrow();
        ObjectNode p = (ObjectNode) M.readTree(params);
        assertEquals("", m.paramsSchema().validate(p, "params").map(Object::toString).orElse(""), "params valid");
        ObjectNode result = m.handler().handle(BasicCall.of(method, p));
        assertEquals("", m.resultSchema().validate(result, "result").map(Object::toString).orElse(""),
                method + " result matches its contract");
        return result;
    }

    private UhpException refused(ErrorCode code, String method, String params) {
        UhpException e = assertThrows(UhpException.class, () -> call(method, params));
        assertEquals(code, e.code(), e.getMessage());
        return e;
    }

    private Path jar(String name, byte[] bytes) throws Exception {
        return TestJars.write(dir.resolve("jars").resolve(name), bytes);
    }

    private static String json(Object s) throws Exception {
        return M.writeValueAsString(s);
    }

    private ObjectNode install(Path file) throws Exception {
        return call("server.bundle.install", "{\"path\":" + json(file.toString()) + "}");
    }

    private Bundle installDirect(String bsn, String version, String... headers) throws Exception {
        return felix.context().installBundle("test:" + bsn + "-" + version,
                new ByteArrayInputStream(TestJars.bundle(bsn, version, headers)));
    }

    @Test
    void everyMethodIsInTheContractAsAdmin() {
        assertEquals("server.bundle", family.family());
        assertEquals(6, family.methods().size());
        for (UhpMethod m : family.methods()) {
            assertEquals(Scope.ADMIN, family.contract().method(m.name()).orElseThrow().scope());
            assertEquals("server.bundle", family.contract().method(m.name()).orElseThrow().family());
        }
    }

    @Test
    void listShowsTheSystemBundleAsCoreAndTheDropInFolder() throws Exception {
        ObjectNode r = call("server.bundle.list", "{}");
        assertEquals("bundle_list", r.path("type").asText());
        JsonNode system = r.path("bundles").get(0);
        assertEquals(0, system.path("id").asLong());
        assertEquals("active", system.path("state").asText());
        assertTrue(system.path("core").asBoolean());
        assertEquals(felix.home.resolve("bundles").toString(), r.path("drop_in").asText());
    }

    @Test
    void installStartsListsStopsUpdatesAndUninstalls() throws Exception {
        Path v1 = jar("a.jar", TestJars.bundle("t.a", "1.0.0"));
        ObjectNode installed = install(v1);
        JsonNode row = installed.path("bundle");
        long id = row.path("id").asLong();
        assertEquals("t.a", row.path("symbolic_name").asText());
        assertEquals("1.0.0", row.path("version").asText());
        assertEquals("active", row.path("state").asText());
        assertEquals(v1.toRealPath().toUri().toString(), row.path("location").asText());
        assertFalse(row.path("core").asBoolean());

        JsonNode listed = find(call("server.bundle.list", "{}"), id);
        assertEquals("active", listed.path("state").asText());

        assertEquals("resolved", call("server.bundle.stop", "{\"bundle\":\"t.a\"}").at("/bundle/state").asText());
        assertEquals("active", call("server.bundle.start", "{\"bundle\":" + id + "}").at("/bundle/state").asText());

        Path v2 = jar("a2.jar", TestJars.bundle("t.a", "2.0.0"));
        ObjectNode updated = call("server.bundle.update", "{\"bundle\":" + id + ",\"path\":" + json(v2.toString()) + "}");
        assertEquals("2.0.0", updated.at("/bundle/version").asText());
        assertEquals("active", updated.at("/bundle/state").asText());
        assertEquals(List.of("t.a"), strings(updated.path("refreshed")));

        ObjectNode gone = call("server.bundle.uninstall", "{\"bundle\":\"t.a\"}");
        assertEquals("uninstalled", gone.at("/bundle/state").asText());
        assertEquals(List.of("t.a"), strings(gone.path("refreshed")));
        assertNull(felix.context().getBundle(id));
    }

    @Test
    void installWithStartFalseLeavesItInstalled() throws Exception {
        Path a = jar("a.jar", TestJars.bundle("t.a", "1.0.0"));
        ObjectNode r = call("server.bundle.install", "{\"path\":" + json(a.toString()) + ",\"start\":false}");
        assertEquals("installed", r.at("/bundle/state").asText());
    }

    @Test
    void updateWithoutPathRereadsTheFileAtItsLocation() throws Exception {
        Path a = jar("a.jar", TestJars.bundle("t.a", "1.0.0"));
        long id = install(a).at("/bundle/id").asLong();
        TestJars.write(a, TestJars.bundle("t.a", "1.1.0"));
        assertEquals("1.1.0", call("server.bundle.update", "{\"bundle\":" + id + "}").at("/bundle/version").asText());
    }

    @Test
    void updateRefreshesOnlyTheBundlesWiredToIt() throws Exception {
        install(jar("lib.jar", TestJars.bundle("t.lib", "1.0.0", "Export-Package: t.lib;version=1.0.0")));
        install(jar("user.jar", TestJars.bundle("t.user", "1.0.0", "Import-Package: t.lib")));
        install(jar("bystander.jar", TestJars.bundle("t.bystander", "1.0.0")));
        Path lib2 = jar("lib2.jar", TestJars.bundle("t.lib", "1.1.0", "Export-Package: t.lib;version=1.1.0"));
        ObjectNode r = call("server.bundle.update", "{\"bundle\":\"t.lib\",\"path\":" + json(lib2.toString()) + "}");
        assertEquals(List.of("t.lib", "t.user"), strings(r.path("refreshed")));
        assertEquals(Bundle.ACTIVE, bundle("t.user").getState(), "a refreshed bundle that was active is active again");

        ObjectNode u = call("server.bundle.uninstall", "{\"bundle\":\"t.lib\"}");
        assertEquals(List.of("t.lib", "t.user"), strings(u.path("refreshed")));
        assertEquals(Bundle.INSTALLED, bundle("t.user").getState(), "its import is gone, so it cannot resolve");
        assertEquals(Bundle.ACTIVE, bundle("t.bystander").getState());
    }

    @Test
    void unknownIdsAndNamesAreNotFound() throws Exception {
        refused(ErrorCode.NOT_FOUND, "server.bundle.start", "{\"bundle\":999}");
        refused(ErrorCode.NOT_FOUND, "server.bundle.stop", "{\"bundle\":\"no.such\"}");
        refused(ErrorCode.NOT_FOUND, "server.bundle.update", "{\"bundle\":\"no.such\"}");
        refused(ErrorCode.NOT_FOUND, "server.bundle.uninstall", "{\"bundle\":998}");
    }

    @Test
    void aNameWithSeveralVersionsMustBeNamedById() throws Exception {
        long one = install(jar("a1.jar", TestJars.bundle("t.a", "1.0.0"))).at("/bundle/id").asLong();
        long two = install(jar("a2.jar", TestJars.bundle("t.a", "2.0.0"))).at("/bundle/id").asLong();
        UhpException e = refused(ErrorCode.INVALID_REQUEST, "server.bundle.stop", "{\"bundle\":\"t.a\"}");
        assertEquals(List.of(one, two), e.details().get("ids"));
        assertTrue(e.getMessage().contains("[" + one + ", " + two + "]"), e.getMessage());
    }

    @Test
    void coreBundlesAreNeverStoppedUpdatedOrUninstalled() throws Exception {
        for (String m : List.of("server.bundle.stop", "server.bundle.update", "server.bundle.uninstall")) {
            UhpException e = refused(ErrorCode.INVALID_REQUEST, m, "{\"bundle\":0}");
            assertTrue(e.getMessage().contains("core bundle") && e.getMessage().contains("server.stop"), e.getMessage());
        }
        Bundle core = installDirect("t.core", "1.0.0", "Artuditu-Core: true");
        core.start();
        for (String m : List.of("server.bundle.stop", "server.bundle.update", "server.bundle.uninstall")) {
            refused(ErrorCode.INVALID_REQUEST, m, "{\"bundle\":\"t.core\"}");
        }
        assertEquals(Bundle.ACTIVE, core.getState());
        assertTrue(find(call("server.bundle.list", "{}"), core.getBundleId()).path("core").asBoolean());
    }

    @Test
    void aChangeThatWouldRefreshACoreBundleIsRefused() throws Exception {
        install(jar("lib.jar", TestJars.bundle("t.lib", "1.0.0", "Export-Package: t.lib")));
        installDirect("t.core", "1.0.0", "Artuditu-Core: true", "Import-Package: t.lib").start();
        UhpException e = refused(ErrorCode.INVALID_REQUEST, "server.bundle.uninstall", "{\"bundle\":\"t.lib\"}");
        assertTrue(e.getMessage().contains("t.core"), e.getMessage());
        refused(ErrorCode.INVALID_REQUEST, "server.bundle.update", "{\"bundle\":\"t.lib\"}");
        assertEquals(Bundle.ACTIVE, bundle("t.lib").getState());
    }

    @Test
    void badPathsAreInvalidRequests() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("folder.jar"));
        Path txt = jar("notes.txt", TestJars.bundle("t.a", "1.0.0"));
        for (String path : List.of("relative/a.jar", dir.resolve("missing.jar").toString(), folder.toString(),
                txt.toString())) {
            UhpException e = refused(ErrorCode.INVALID_REQUEST, "server.bundle.install", "{\"path\":" + json(path) + "}");
            assertEquals("path", e.details().get("field"), e.getMessage());
        }
        assertEquals(1, felix.context().getBundles().length, "nothing was installed");
    }

    @Test
    void aJarThatIsNotABundleIsRefused() throws Exception {
        UhpException plain = refused(ErrorCode.INVALID_REQUEST, "server.bundle.install",
                "{\"path\":" + json(jar("plain.jar", TestJars.plainJar()).toString()) + "}");
        assertTrue(plain.getMessage().contains("Bundle-SymbolicName"), plain.getMessage());
        Path junk = jar("junk.jar", "not a zip at all".getBytes());
        UhpException e = refused(ErrorCode.INVALID_REQUEST, "server.bundle.install", "{\"path\":" + json(junk.toString()) + "}");
        assertTrue(e.getMessage().contains("not a readable jar"), e.getMessage());
    }

    @Test
    void duplicatesAreRefused() throws Exception {
        Path a = jar("a.jar", TestJars.bundle("t.a", "1.0.0"));
        install(a);
        UhpException sameFile = refused(ErrorCode.INVALID_REQUEST, "server.bundle.install", "{\"path\":" + json(a.toString()) + "}");
        assertTrue(sameFile.getMessage().contains("server.bundle.update"), sameFile.getMessage());
        Path copy = jar("copy.jar", TestJars.bundle("t.a", "1.0.0"));
        UhpException sameVersion = refused(ErrorCode.INVALID_REQUEST, "server.bundle.install",
                "{\"path\":" + json(copy.toString()) + "}");
        assertEquals("duplicate", sameVersion.details().get("reason"), sameVersion.getMessage());
    }

    @Test
    void aFailedStartUninstallsTheBundleAgain() throws Exception {
        Path a = jar("a.jar", TestJars.bundle("t.a", "1.0.0", "Import-Package: no.such.pkg"));
        UhpException e = refused(ErrorCode.INVALID_REQUEST, "server.bundle.install", "{\"path\":" + json(a.toString()) + "}");
        assertEquals("unresolved", e.details().get("reason"));
        assertTrue(e.getMessage().contains("no.such.pkg") && e.getMessage().contains("uninstalled again"), e.getMessage());
        assertFalse(e.getMessage().contains("\tat "), "no stack trace on the wire");
        assertEquals(1, felix.context().getBundles().length);
    }

    @Test
    void updateKeepsTheSymbolicNameAndRefusesCoreJars() throws Exception {
        long id = install(jar("a.jar", TestJars.bundle("t.a", "1.0.0"))).at("/bundle/id").asLong();
        Path other = jar("b.jar", TestJars.bundle("t.b", "1.0.0"));
        refused(ErrorCode.INVALID_REQUEST, "server.bundle.update", "{\"bundle\":" + id + ",\"path\":" + json(other.toString()) + "}");
        Path core = jar("core.jar", TestJars.bundle("t.x", "1.0.0", "Artuditu-Core: true"));
        refused(ErrorCode.INVALID_REQUEST, "server.bundle.install", "{\"path\":" + json(core.toString()) + "}");
        assertEquals("1.0.0", felix.context().getBundle(id).getVersion().toString());
    }

    @Test
    void fragmentsInstallButDoNotStart() throws Exception {
        install(jar("host.jar", TestJars.bundle("t.host", "1.0.0")));
        ObjectNode r = install(jar("frag.jar", TestJars.bundle("t.frag", "1.0.0", "Fragment-Host: t.host")));
        assertEquals("installed", r.at("/bundle/state").asText());
        UhpException e = refused(ErrorCode.INVALID_REQUEST, "server.bundle.start", "{\"bundle\":\"t.frag\"}");
        assertTrue(e.getMessage().contains("fragment"), e.getMessage());
    }

    @Test
    void theDropInFolderIsNotAnInstallSource() throws Exception {
        Path inside = TestJars.write(felix.home.resolve("bundles").resolve("a.jar"), TestJars.bundle("t.a", "1.0.0"));
        UhpException e = refused(ErrorCode.INVALID_REQUEST, "server.bundle.install", "{\"path\":" + json(inside.toString()) + "}");
        assertTrue(e.getMessage().contains("drop-in"), e.getMessage());
    }

    private static JsonNode find(ObjectNode list, long id) {
        for (JsonNode row : list.path("bundles")) {
            if (row.path("id").asLong() == id) {
                return row;
            }
        }
        throw new AssertionError("bundle " + id + " not listed");
    }

    private Bundle bundle(String bsn) {
        List<Bundle> found = new ArrayList<>();
        for (Bundle b : felix.context().getBundles()) {
            if (bsn.equals(b.getSymbolicName())) {
                found.add(b);
            }
        }
        assertEquals(1, found.size(), bsn);
        return found.get(0);
    }

    private static List<String> strings(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }
}

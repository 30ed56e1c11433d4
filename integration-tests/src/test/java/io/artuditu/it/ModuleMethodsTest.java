package io.artuditu.it;

import static io.artuditu.it.ScriptModules.head;
import static io.artuditu.it.ScriptModules.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The module family over the real socket with script modules: linking, states, the
 * action environment and its bounds, settings, panes, logs, and every kind of bad
 * manifest, which is refused with its reason while the server keeps serving.
 */
class ModuleMethodsTest extends OneServerPerClass {

    static String path(Path p) {
        return Wire.M.valueToTree(p.toString()).toString();
    }

    static JsonNode linkReply(Path folder) throws Exception {
        return Wire.call(sock, "module.link", "{\"path\":" + path(folder) + "}");
    }

    @Test
    void linkEnableDisableUnlink() throws Exception {
        Path dir = ScriptModules.folder(work, "life", head("life", "[\"read\"]")
                + "description = \"lifecycle\"\n[[actions]]\nid = \"a\"\ntitle = \"Do A\"\nrun = \"a.sh\"\n[[bars]]\nid = \"b\"\n");
        ScriptModules.script(dir, "a.sh", "echo hi");
        JsonNode linked = ScriptModules.link(sock, dir);
        assertEquals("enabled", linked.get("state").asText());
        JsonNode row = find(ok(sock, "module.list", "{}").get("modules"), "life");
        assertEquals("script", row.get("kind").asText());
        assertEquals("1.0.0", row.get("version").asText());
        assertEquals("[\"a\"]", row.get("actions").toString());
        JsonNode info = ok(sock, "module.info", "{\"id\":\"life\"}").get("module");
        assertEquals("lifecycle", info.get("description").asText());
        assertEquals("Do A", info.at("/action_details/0/title").asText());
        assertEquals("disabled", ok(sock, "module.disable", "{\"id\":\"life\"}").get("state").asText());
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "module.action.invoke", "{\"id\":\"life\",\"action\":\"a\"}")),
                "a disabled module runs nothing");
        assertEquals(0, ok(sock, "module.action.list", "{}").get("actions").findValues("module").stream()
                .filter(m -> m.asText().equals("life")).count(), "action.list shows enabled modules only");
        assertEquals("enabled", ok(sock, "module.enable", "{\"id\":\"life\"}").get("state").asText());
        assertEquals("invalid_request", Wire.code(linkReply(dir)), "one id, one module");
        ok(sock, "module.unlink", "{\"id\":\"life\"}");
        assertEquals("not_found", Wire.code(Wire.call(sock, "module.info", "{\"id\":\"life\"}")));
        assertTrue(Files.exists(dir.resolve("module.toml")), "unlink leaves the folder alone");
        assertEquals("not_found", Wire.code(Wire.call(sock, "module.enable", "{\"id\":\"nobody\"}")));
    }

    static JsonNode find(JsonNode rows, String id) {
        for (JsonNode r : rows) {
            if (r.get("id").asText().equals(id)) {
                return r;
            }
        }
        throw new AssertionError("no " + id + " in " + rows);
    }

    @Test
    void badManifestsAreRefusedWithTheirReason() throws Exception {
        Map<String, String> bad = new HashMap<>();
        String base = head("bad", "[\"read\"]");
        bad.put("colour: is not a known field", base + "colour = \"red\"\n");
        bad.put("actions[0].shell: is not a known field", base + "[[actions]]\nid = \"a\"\nrun = \"a.sh\"\nshell = true\n");
        bad.put("no such file", base + "[[actions]]\nid = \"a\"\nrun = \"missing.sh\"\n");
        bad.put("not executable", base + "[[actions]]\nid = \"a\"\nrun = \"plain.sh\"\n");
        bad.put("outside the module folder", base + "[[actions]]\nid = \"a\"\nrun = \"../escape.sh\"\n");
        bad.put("inside the module folder", base + "[[actions]]\nid = \"a\"\nrun = \"/bin/true\"\n");
        bad.put("link to a file outside", base + "[[actions]]\nid = \"a\"\nrun = \"link.sh\"\n");
        bad.put("needs Artuditu API", "id = \"bad\"\nname = \"b\"\nversion = \"1.0.0\"\napi = \"[2.0,3.0)\"\n");
        bad.put("on_enable: names no declared action", base + "on_enable = \"start\"\n");
        bad.put("not valid TOML", base + "[[actions]\n");
        bad.put("id: is required", "name = \"b\"\nversion = \"1.0.0\"\napi = \"[1.0,2.0)\"\n");
        bad.put("scopes[0]: must be one of", head("bad", "[\"root\"]"));
        bad.put("declared twice", base + "[[bars]]\nid = \"x\"\n[[bars]]\nid = \"x\"\n");
        bad.put("must be one of", base + "[[bars]]\nid = \"x\"\nregion = \"middle\"\n");
        bad.put("settings[0].default: must be", base + "[[settings]]\nkey = \"n\"\ntype = \"integer\"\ndefault = \"five\"\n");
        bad.put("larger than", base + "description = \"" + "x".repeat(70_000) + "\"\n");
        int i = 0;
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Path dir = ScriptModules.folder(work, "bad" + i++, e.getValue());
            Files.writeString(dir.resolve("plain.sh"), "#!/bin/sh\n");
            Files.writeString(work.resolve("escape.sh"), "#!/bin/sh\n");
            Files.setPosixFilePermissions(work.resolve("escape.sh"), PosixFilePermissions.fromString("rwx------"));
            Files.createSymbolicLink(dir.resolve("link.sh"), work.resolve("escape.sh"));
            JsonNode r = linkReply(dir);
            assertEquals("invalid_request", Wire.code(r), e.getKey() + ": " + r);
            assertTrue(r.at("/error/message").asText().contains(e.getKey()), e.getKey() + ": " + r);
        }
        assertEquals("invalid_request", Wire.code(linkReply(work.resolve("nowhere"))));
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "module.link", "{\"path\":\"relative/dir\"}")));
        Path notAJar = Files.writeString(work.resolve("x.jar"), "not a zip");
        assertEquals("invalid_request", Wire.code(linkReply(notAJar)));
        for (JsonNode m : ok(sock, "module.list", "{}").get("modules")) {
            assertFalse(m.get("id").asText().startsWith("bad"), "nothing was linked: " + m);
        }
    }

    @Test
    void anActionGetsItsEnvironmentAndATokenLimitedToItsScopes() throws Exception {
        Path dir = ScriptModules.folder(work, "envmod", head("envmod", "[\"read\"]")
                + "[[actions]]\nid = \"dump\"\nrun = \"bin/dump.sh\"\n");
        Path out = work.resolve("env.out");
        ScriptModules.script(dir, "bin/dump.sh", "env | grep '^ARTUDITU_' | sort > " + out + "\n"
                + "artu ping > " + work.resolve("ping.out") + " 2>&1\n"
                + "artu pane split --down > " + work.resolve("split.out") + " 2>&1; echo \"split=$?\" >> " + out);
        ScriptModules.link(sock, dir);
        JsonNode r = ok(sock, "module.action.invoke", "{\"id\":\"envmod\",\"action\":\"dump\",\"row_value\":\"rv\","
                + "\"bar_id\":\"bid\",\"bar_segment\":3,\"bar_value\":\"bv\"}");
        assertEquals(0, r.get("exit_code").asInt(), r.toString());
        String env = Files.readString(out);
        for (String line : List.of("ARTUDITU_MODULE_ID=envmod", "ARTUDITU_MODULE_ACTION_ID=dump",
                "ARTUDITU_MODULE_ROW_VALUE=rv", "ARTUDITU_MODULE_BAR_ID=bid", "ARTUDITU_MODULE_BAR_SEGMENT=3",
                "ARTUDITU_MODULE_BAR_VALUE=bv", "ARTUDITU_SOCKET_PATH=" + sock)) {
            assertTrue(env.contains(line + "\n"), line + " in\n" + env);
        }
        assertTrue(env.contains("ARTUDITU_TOKEN=luv_tok_"), env);
        assertTrue(Files.readString(work.resolve("ping.out")).contains("pong"), "read is granted");
        assertTrue(env.contains("split=1"), "workspace is not: " + Files.readString(work.resolve("split.out")));
        assertTrue(Files.readString(work.resolve("split.out")).contains("forbidden"));
        JsonNode tokens = ok(sock, "uhp.token.list", "{}").get("tokens");
        assertEquals(0, tokens.size(), "the action's token is revoked when it ends: " + tokens);
        JsonNode again = ok(sock, "module.action.invoke", "{\"id\":\"envmod\",\"action\":\"dump\"}");
        assertEquals(0, again.get("exit_code").asInt());
        assertFalse(Files.readString(out).contains("ROW_VALUE"), "values are set only when given");
    }

    @Test
    void outputIsBoundedAndAHangingActionIsKilled() throws Exception {
        Path dir = ScriptModules.folder(work, "rough", head("rough", "[\"read\"]")
                + "[[actions]]\nid = \"flood\"\nrun = \"flood.sh\"\n"
                + "[[actions]]\nid = \"hang\"\nrun = \"hang.sh\"\ntimeout_ms = 500\n"
                + "[[actions]]\nid = \"crash\"\nrun = \"crash.sh\"\n");
        ScriptModules.script(dir, "flood.sh", "head -c 5000000 /dev/zero | tr '\\0' 'x'; echo END");
        Path child = work.resolve("hang.pid");
        ScriptModules.script(dir, "hang.sh", "sleep 600 & echo $! > " + child + "; wait");
        ScriptModules.script(dir, "crash.sh", "echo dying >&2; kill -SEGV $$");
        ScriptModules.link(sock, dir);
        JsonNode flood = ok(sock, "module.action.invoke", "{\"id\":\"rough\",\"action\":\"flood\"}");
        assertEquals(5_000_004, flood.get("output_bytes").asLong(), flood.toString().substring(0, 200));
        assertTrue(flood.get("truncated").asBoolean());
        assertTrue(flood.get("output").asText().endsWith("END\n"), "the tail is kept");
        assertTrue(flood.get("output").asText().length() <= 16 * 1024 + 1, "the reply carries at most 16 KiB");
        long t0 = System.nanoTime();
        JsonNode hang = ok(sock, "module.action.invoke", "{\"id\":\"rough\",\"action\":\"hang\"}");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(hang.get("timed_out").asBoolean(), hang.toString());
        assertTrue(hang.get("exit_code").isNull());
        assertTrue(ms < 5_000, "answered soon after the 500 ms timeout: " + ms + " ms");
        long pid = Long.parseLong(Files.readString(child).trim());
        Thread.sleep(200);
        assertFalse(running(pid), "its child was killed too");
        JsonNode crash = ok(sock, "module.action.invoke", "{\"id\":\"rough\",\"action\":\"crash\"}");
        assertEquals(139, crash.get("exit_code").asInt(), crash.toString());
        assertTrue(crash.get("output").asText().contains("dying"), "stderr is part of the output");
        JsonNode log = ok(sock, "module.log.list", "{\"id\":\"rough\"}").get("entries");
        assertTrue(log.toString().contains("killed after its timeout"), log.toString());
        assertTrue(log.toString().contains("exited 139"), log.toString());
        assertEquals("enabled", ok(sock, "module.info", "{\"id\":\"rough\"}").at("/module/state").asText());
        assertEquals(2, ok(sock, "module.log.list", "{\"id\":\"rough\",\"limit\":2}").get("entries").size());
        JsonNode started = ok(sock, "module.action.invoke", "{\"id\":\"rough\",\"action\":\"hang\",\"wait\":false}");
        assertTrue(started.get("started").asBoolean());
        assertFalse(started.has("exit_code"), "wait:false answers before the action ends");
        assertEquals("not_found", Wire.code(Wire.call(sock, "module.action.invoke", "{\"id\":\"rough\",\"action\":\"nope\"}")));
    }

    /** Alive and not a zombie waiting for its (new) parent to reap it. */
    static boolean running(long pid) throws Exception {
        Path stat = Path.of("/proc/" + pid + "/stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String s = Files.readString(stat);
        return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
    }

    @Test
    void periodicAndOnEnableActions() throws Exception {
        Path dir = ScriptModules.folder(work, "tick", head("tick", "[\"read\", \"extensions\"]") + "on_enable = \"first\"\n"
                + "[[actions]]\nid = \"first\"\nrun = \"first.sh\"\n[[actions]]\nid = \"tick\"\nrun = \"tick.sh\"\nevery_ms = 1000\n"
                + "[[bars]]\nid = \"clock\"\n");
        ScriptModules.script(dir, "first.sh", "artu call ui.bar.push '{\"id\":\"clock\",\"content\":[{\"type\":\"text\",\"text\":\"up\"}]}'");
        Path ticks = work.resolve("ticks");
        ScriptModules.script(dir, "tick.sh", "echo tick >> " + ticks);
        ScriptModules.link(sock, dir);
        ScriptModules.await(sock, "ui.bar.list", "{}", r -> r.get("widgets").toString().contains("tick/clock"));
        Thread.sleep(2500);
        long n = Files.readAllLines(ticks).size();
        assertTrue(n >= 1 && n <= 4, "about one tick a second: " + n);
        ok(sock, "module.disable", "{\"id\":\"tick\"}");
        Thread.sleep(300);
        long after = Files.readAllLines(ticks).size();
        Thread.sleep(1500);
        assertEquals(after, Files.readAllLines(ticks).size(), "disabling stops its timer");
        assertFalse(ok(sock, "ui.bar.list", "{}").toString().contains("tick/clock"));
    }

    @Test
    void settings() throws Exception {
        Path dir = ScriptModules.folder(work, "conf", head("conf", "[\"read\"]")
                + "[[settings]]\nkey = \"interval_s\"\ntype = \"integer\"\ndefault = 5\nmin = 1\nmax = 60\ndescription = \"how often\"\n"
                + "[[settings]]\nkey = \"mode\"\ntype = \"choice\"\nchoices = [\"fast\", \"slow\"]\ndefault = \"fast\"\n"
                + "[[settings]]\nkey = \"on\"\ntype = \"boolean\"\ndefault = true\n");
        ScriptModules.link(sock, dir);
        JsonNode list = ok(sock, "module.settings.list", "{\"id\":\"conf\"}").get("settings");
        assertEquals(3, list.size());
        assertEquals(5, list.get(0).get("value").asInt());
        assertEquals(9, ok(sock, "module.settings.set", "{\"id\":\"conf\",\"key\":\"interval_s\",\"value\":9}").get("value").asInt());
        assertEquals(9, ok(sock, "module.settings.get", "{\"id\":\"conf\",\"key\":\"interval_s\"}").get("value").asInt());
        for (String bad : List.of("{\"key\":\"interval_s\",\"value\":0}", "{\"key\":\"interval_s\",\"value\":\"9\"}",
                "{\"key\":\"mode\",\"value\":\"medium\"}", "{\"key\":\"on\",\"value\":1}")) {
            JsonNode r = Wire.call(sock, "module.settings.set", "{\"id\":\"conf\"," + bad.substring(1));
            assertEquals("invalid_request", Wire.code(r), bad + " -> " + r);
        }
        assertEquals("not_found", Wire.code(Wire.call(sock, "module.settings.get", "{\"id\":\"conf\",\"key\":\"nope\"}")));
        assertEquals(9, ok(sock, "module.settings.get", "{\"id\":\"conf\",\"key\":\"interval_s\"}").get("value").asInt(),
                "refused values changed nothing");
        assertTrue(Files.readString(home.resolve("modules/settings.json")).contains("\"interval_s\" : 9"));
        assertEquals(5, ok(sock, "module.settings.set", "{\"id\":\"conf\",\"key\":\"interval_s\",\"value\":null}")
                .get("value").asInt(), "null resets to the default");
        JsonNode dirReply = ok(sock, "module.config_dir", "{\"id\":\"conf\"}");
        assertTrue(Files.isDirectory(Path.of(dirReply.get("path").asText())));
    }

    @Test
    void panesAModuleOpensAreItsOwn() throws Exception {
        ScriptModules.link(sock, ScriptModules.folder(work, "panes", head("panes", "[\"read\"]")));
        JsonNode opened = ok(sock, "module.pane.open", "{\"id\":\"panes\",\"command\":[\"sleep\",\"600\"],\"cwd\":"
                + path(work) + "}");
        String pane = opened.get("pane").asText();
        JsonNode p = ok(sock, "pane.get", "{\"pane\":\"" + pane + "\"}");
        assertTrue(p.toString().contains("sleep") || p.has("pane"), p.toString());
        ok(sock, "module.pane.focus", "{\"id\":\"panes\",\"pane\":\"" + pane + "\"}");
        String other = ok(sock, "module.pane.open", "{\"id\":\"panes\",\"command\":[\"sleep\",\"600\"]}").get("pane").asText();
        assertEquals("not_found", Wire.code(Wire.call(sock, "module.pane.close", "{\"id\":\"panes\",\"pane\":\"999999\"}")),
                "only its own panes");
        assertTrue(ok(sock, "module.pane.close", "{\"id\":\"panes\",\"pane\":\"" + pane + "\"}").get("closed").asBoolean());
        ok(sock, "module.disable", "{\"id\":\"panes\"}");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"not_found".equals(Wire.code(Wire.call(sock, "pane.get", "{\"pane\":\"" + other + "\"}")))) {
            assertTrue(System.nanoTime() < deadline, "disabling the module closes the panes it opened");
            Thread.sleep(25);
        }
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "module.pane.open", "{\"id\":\"panes\"}")),
                "a disabled module opens nothing");
    }

    @Test
    void aBundleModuleWhoseComponentThrowsIsReportedAndTheServerServes() throws Exception {
        Path jar = Reactor.jar("io.artuditu.example.counter");
        JsonNode linked = ok(sock, "module.link", "{\"path\":" + path(jar) + "}");
        assertEquals("counter", linked.get("id").asText());
        ModuleReloadCyclesTest.awaitAnswer(sock);
        assertFalse(ok(sock, "module.info", "{\"id\":\"counter\"}").get("module").has("problems"));
        ok(sock, "module.settings.set", "{\"id\":\"counter\",\"key\":\"fail_on_start\",\"value\":true}");
        ok(sock, "module.disable", "{\"id\":\"counter\"}");
        ok(sock, "module.enable", "{\"id\":\"counter\"}");
        JsonNode info = ScriptModules.await(sock, "module.info", "{\"id\":\"counter\"}",
                r -> r.get("module").has("problems"));
        assertTrue(info.at("/module/problems/0").asText().contains("fail_on_start is set"), info.toString());
        assertEquals("failed", info.at("/module/state").asText(), "a failed contribution is the module's state");
        assertTrue(info.at("/module/error").asText().contains("fail_on_start is set"));
        assertTrue(ok(sock, "module.log.list", "{\"id\":\"counter\"}").toString().contains("fail_on_start is set"),
                "and a log entry");
        assertEquals("method_unavailable", Wire.code(Wire.call(sock, "example.counter.get", "{}")),
                "its family did not come up");
        ok(sock, "module.settings.set", "{\"id\":\"counter\",\"key\":\"fail_on_start\",\"value\":false}");
        ok(sock, "module.disable", "{\"id\":\"counter\"}");
        ok(sock, "module.enable", "{\"id\":\"counter\"}");
        ModuleReloadCyclesTest.awaitAnswer(sock);
        ok(sock, "module.unlink", "{\"id\":\"counter\"}");
        assertTrue(Wire.call(sock, "example.counter.get", "{}").has("error"), "unlinked: its method is gone");
    }

    /** The counter jar with one entry replaced (its manifest, or its module.toml). */
    static Path rewritten(Path out, String entry, java.util.function.UnaryOperator<String> edit) throws Exception {
        Path jar = Reactor.jar("io.artuditu.example.counter");
        try (java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(Files.newInputStream(jar));
                java.util.zip.ZipOutputStream o = new java.util.zip.ZipOutputStream(Files.newOutputStream(out))) {
            for (java.util.zip.ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                byte[] b = in.readAllBytes();
                if (e.getName().equals(entry) && entry.equals("META-INF/MANIFEST.MF")) {
                    java.util.jar.Manifest mf = new java.util.jar.Manifest(new java.io.ByteArrayInputStream(b));
                    java.util.jar.Attributes main = mf.getMainAttributes();
                    main.putValue("Import-Package", edit.apply(main.getValue("Import-Package")));
                    java.io.ByteArrayOutputStream bo = new java.io.ByteArrayOutputStream();
                    mf.write(bo);
                    b = bo.toByteArray();
                } else if (e.getName().equals(entry)) {
                    b = edit.apply(new String(b, java.nio.charset.StandardCharsets.UTF_8))
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                }
                o.putNextEntry(new java.util.zip.ZipEntry(e.getName()));
                o.write(b);
                o.closeEntry();
            }
        }
        return out;
    }

    @Test
    void aBundleModuleBuiltForAnotherSdkIsRefusedWithTheReason() throws Exception {
        Path wrongApi = rewritten(work.resolve("api2.jar"), "META-INF/artuditu/module.toml",
                t -> t.replace("api = \"[1.0,2.0)\"", "api = \"[2.0,3.0)\""));
        JsonNode r = Wire.call(sock, "module.link", "{\"path\":" + path(wrongApi) + "}");
        assertEquals("invalid_request", Wire.code(r), r.toString());
        assertTrue(r.at("/error/message").asText().contains("needs Artuditu API [2.0,3.0)"), r.toString());
        // built against a later SDK: its manifest imports io.artuditu.sdk 2.x, which this server does not export
        Path wrongImport = rewritten(work.resolve("import2.jar"), "META-INF/MANIFEST.MF",
                t -> {
                    String changed = t.replaceAll("io\\.artuditu\\.sdk;version=\"[^\"]*\"", "io.artuditu.sdk;version=\"[2.0,3)\"");
                    assertTrue(changed.contains("io.artuditu.sdk;version=\"[2.0,3)\""), t);
                    return changed;
                });
        JsonNode r2 = Wire.call(sock, "module.link", "{\"path\":" + path(wrongImport) + "}");
        assertEquals("invalid_request", Wire.code(r2), r2.toString());
        assertTrue(r2.at("/error/message").asText().contains("io.artuditu.sdk"), "the reason names the package: " + r2);
        assertEquals("not_found", Wire.code(Wire.call(sock, "module.info", "{\"id\":\"counter\"}")), "nothing stays");
        for (JsonNode b : ok(sock, "server.bundle.list", "{}").get("bundles")) {
            assertFalse(b.get("location").asText().contains("import2.jar"), "the refused bundle was uninstalled: " + b);
        }
    }

    @Test
    void aModuleAddsMethodsOnlyWithTheExtensionsScope() throws Exception {
        Path readOnly = rewritten(work.resolve("readonly.jar"), "META-INF/artuditu/module.toml",
                t -> t.replace("scopes = [\"read\", \"extensions\"]", "scopes = [\"read\"]"));
        ok(sock, "module.link", "{\"path\":" + path(readOnly) + "}");
        JsonNode info = ScriptModules.await(sock, "module.info", "{\"id\":\"counter\"}",
                r -> r.toString().contains("extensions scope"));
        assertTrue(info.toString().contains("does not hold the extensions scope"), info.toString());
        assertEquals("unknown_method", Wire.code(Wire.call(sock, "example.counter.get", "{}")), "its family is not offered");
        boolean listed = false;
        for (JsonNode m : ok(sock, "uhp.capabilities", "{}").get("methods")) {
            listed |= m.get("name").asText().equals("example.counter.get");
        }
        assertFalse(listed, "nor listed");
        ok(sock, "module.unlink", "{\"id\":\"counter\"}");
    }
}

package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --help} of every method of the contract, as typed, without a server. */
class HelpTest {
    private static String[] run(int expected, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = new Artu(Map.of("ARTUDITU_HOME", "/nonexistent/artu-help-test"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)).run(argv);
        String o = out.toString(StandardCharsets.UTF_8);
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(expected, status, String.join(" ", argv) + ": " + e);
        return new String[] {o, e};
    }

    @Test
    void everyMethodHasHelpNamingEveryParamAndAnExample() {
        JsonNode methods = Contract.document().path("methods");
        int n = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = methods.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> m = it.next();
            List<String> argv = new ArrayList<>(Arrays.asList(Command.words(m.getKey()).split(" ")));
            argv.add("--help");
            String help = run(0, argv.toArray(new String[0]))[0];
            assertTrue(help.startsWith("usage: artu " + Command.words(m.getKey())), help);
            assertTrue(help.contains("UHP method " + m.getKey() + " "), help);
            for (Iterator<String> p = m.getValue().path("params").path("properties").fieldNames(); p.hasNext();) {
                String flag = "--" + p.next().replace('_', '-');
                assertTrue(help.contains("\n  " + flag), m.getKey() + " help lists " + flag + ":\n" + help);
            }
            String description = m.getValue().path("description").asText();
            assertTrue(help.replace("\n", " ").contains(description.substring(0, Math.min(40, description.length()))),
                    m.getKey() + " help has its description");
            assertTrue(help.contains("\nexample:\n  artu " + Command.words(m.getKey())), help);
            n++;
        }
        assertTrue(n > 70, "the contract has " + n + " methods");
    }

    @Test
    void helpShowsLimitsPositionalsEnvironmentAndAliases() {
        String pin = run(0, "workspace", "pin", "--help")[0];
        assertTrue(pin.contains("usage: artu workspace pin [WORKSPACE]"), pin);
        assertTrue(pin.contains("--workspace N  integer, ≥ 0, ≤ 2147483647"), pin);
        assertTrue(pin.contains("--pinned true unless given"), pin);
        assertTrue(pin.contains("artu workspace unpin (sets {\"pinned\":false})"), pin);
        String split = run(0, "help", "pane", "split")[0];
        assertTrue(split.contains("--pane from $ARTUDITU_PANE_ID"), split);
        assertTrue(split.contains("--direction left|right|up|down"), split);
        String rename = run(0, "pane", "rename", "--help")[0];
        assertTrue(rename.contains("usage: artu pane rename [PANE] NAME"), rename);
        assertTrue(rename.contains("example:\n  artu pane rename name"), rename);
        String global = run(0, "--help")[0];
        assertTrue(global.contains("workspace, tab") || global.contains("tab, "), global);
        assertTrue(global.contains("5 an event stream was cut"), global);
    }

    @Test
    void helpAllAndHelpScopesPrintTheGeneratedPages() {
        String all = run(0, "help", "--all")[0];
        assertEquals(Contract.page(ContractFiles.REFERENCE), all);
        assertTrue(all.contains("\n| `artu ping` | `ping` | "), all);
        assertTrue(all.contains("\n- `artu workspace unpin` → `workspace.pin` with `{\"pinned\":false}`\n"), all);
        String scopes = run(0, "help", "--scopes")[0];
        assertEquals(Contract.page(ContractFiles.SCOPES), scopes);
        assertTrue(scopes.contains("\n| `server.stop` | discovery | `admin` | `io.artuditu.discovery` |\n"), scopes);
        assertTrue(run(0, "--help")[0].contains("artu help --all"));
    }

    @Test
    void aUsageErrorPrintsTheCommandsUsageLine() {
        String err = run(2, "tab", "move", "--to", "one")[1];
        assertTrue(err.contains("artu: to takes integer, got one"), err);
        assertTrue(err.contains("usage: artu tab move [TAB] [--workspace N]"), err);
    }
}

package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The files generated from the contract are what the contract says now: the command index
 * the CLI maps arguments with, and the command table in docs/cli.md. Run with
 * {@code -Dartu.regenerate=true} to rewrite them after changing the contract.
 */
class GeneratedFilesTest {
    static final Path INDEX = Path.of("src/main/resources/io/artuditu/cli/" + Commands.RESOURCE);
    static final Path DOC = Path.of("../../../docs/cli.md");
    static final String BEGIN = "<!-- commands: generated from the contract; GeneratedFilesTest checks it -->\n";
    static final String END = "<!-- end of generated commands -->\n";

    @Test
    void theCommandIndexIsTheContracts() throws IOException {
        check(INDEX, IndexWriter.render());
        // and the jar's copy (what the CLI reads) is the checked-in one
        assertEquals(IndexWriter.render(), Commands.index().substring(1));
    }

    @Test
    void docsCliMdListsEveryCommandOfTheContract() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int b = doc.indexOf(BEGIN);
        int e = doc.indexOf(END);
        assertTrue(b >= 0 && e > b, "docs/cli.md lacks the generated-commands markers");
        check(DOC, doc.substring(0, b + BEGIN.length()) + table() + doc.substring(e));
    }

    /** One row per method: the command line, the method, what it does (first sentence). */
    static String table() {
        StringBuilder t = new StringBuilder("| command | method | what |\n|---|---|---|\n");
        JsonNode methods = Contract.installed().document().path("methods");
        for (Iterator<Map.Entry<String, JsonNode>> it = methods.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> m = it.next();
            Command c = Commands.command(m.getKey());
            String usage = Help.usageLine(c, Command.words(m.getKey()));
            String d = m.getValue().path("description").asText();
            int dot = d.indexOf(". ");
            t.append("| `").append(usage.replace("|", "\\|")).append("` | `").append(m.getKey()).append("` | ")
                    .append((dot > 0 ? d.substring(0, dot + 1) : d).replace("|", "\\|")).append(" |\n");
        }
        t.append("\nAliases (the contract's `cli.aliases`):\n\n");
        for (String k : Commands.keys()) {
            String entry = Commands.entry(k);
            if (entry.startsWith("{\"alias\":")) {
                Map<String, String> a = MiniJson.members(entry);
                t.append("- `artu ").append(Command.words(k)).append("` → `").append(MiniJson.stringValue(a.get("alias")))
                        .append('`').append(a.get("fixed").equals("{}") ? "" : " with `" + a.get("fixed") + "`").append('\n');
            }
        }
        return t.toString();
    }

    private static void check(Path file, String expected) throws IOException {
        if (Boolean.getBoolean("artu.regenerate")) {
            Files.writeString(file, expected, StandardCharsets.UTF_8);
        }
        assertEquals(expected, Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "",
                file + " is not what the contract generates; rerun with -Dartu.regenerate=true");
    }
}

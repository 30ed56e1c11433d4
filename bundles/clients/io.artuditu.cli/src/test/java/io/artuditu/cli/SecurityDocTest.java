package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.artuditu.uhp.api.schema.MethodContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/protocol/security.md's scope table is exactly the contract's methods and scopes. */
class SecurityDocTest {
    private static final Path DOC = Path.of("../../../docs/protocol/security.md");

    @Test
    void theScopeTableMatchesTheContract() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        String begin = "<!-- scope-table:begin -->\n";
        int from = doc.indexOf(begin);
        int to = doc.indexOf("<!-- scope-table:end -->");
        List<String> documented = new ArrayList<>();
        for (String line : doc.substring(from + begin.length(), to).split("\n")) {
            if (line.startsWith("| `")) {
                documented.add(line.strip());
            }
        }
        List<String> expected = new ArrayList<>();
        for (MethodContract m : Contract.installed().methods().values()) {
            expected.add("| `" + m.name() + "` | " + m.family() + " | `" + m.scope().wire() + "` |");
        }
        assertEquals(String.join("\n", expected), String.join("\n", documented),
                DOC + ": the scope table must list every contract method with its scope; paste the expected rows");
    }
}

package io.artuditu.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.MethodContract;
import io.artuditu.uhp.api.schema.UhpContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The files the build generates from the contract: the contract of every bundle on this
 * program's class path whose manifest names contract files ({@code Artuditu-Contract}),
 * assembled in class-path order. The CLI's pom runs {@link #main} after compiling, with the
 * core and family bundles on the class path, and writes into the CLI's classes, so the jar
 * carries what the contract was when it was built and no family jar is needed beside it:
 *
 * <ul>
 * <li>{@value #INDEX}: the command index the one-shot path maps arguments with
 * ({@link Commands}): one line per method, {@code NAME<TAB>ENTRY}, the entry keeping
 * {@code stream}, {@code target}, {@code cli} and of {@code params} only what maps arguments
 * (types, enums, consts, items' types, required); then one line per alias,
 * {@code PATH<TAB>{"alias":METHOD,"fixed":{…}}} with PATH the alias's words joined by dots;
 * <li>{@value #CONTRACT}: the assembled contract, which {@code artu uhp schema} prints and
 * {@code --help} reads;
 * <li>{@value #REFERENCE}: the command reference, one row per method ({@code artu help --all});
 * <li>{@value #SCOPES}: every method with its family, the scope a delegated token needs and
 * the bundle that carries it ({@code artu help --scopes}).
 * </ul>
 *
 * <p>The distribution copies the two Markdown files to {@code docs/}. A contract with
 * problems (a row left out, a method described twice) fails the build: the CLI would
 * otherwise lack a method the server offers.
 */
public final class ContractFiles {
    static final String INDEX = "commands.idx";
    static final String CONTRACT = "contract.json";
    static final String REFERENCE = "commands.md";
    static final String SCOPES = "scopes.md";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** What the generator makes of one class path: the contract and the four files. */
    record Output(UhpContract contract, String index, String contractJson, String reference, String scopes) {
    }

    private ContractFiles() {
    }

    /** {@code ContractFiles DIR}: writes the four files into DIR (the CLI's package folder in its classes). */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ContractFiles OUTPUT_DIRECTORY");
            System.exit(2);
        }
        Output o = render(ContractFiles.class.getClassLoader());
        if (!o.contract().problems().isEmpty()) {
            System.err.println("the contract on this class path has problems:");
            o.contract().problems().forEach(p -> System.err.println("  " + p));
            System.exit(1);
        }
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(INDEX), o.index(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(CONTRACT), o.contractJson(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(REFERENCE), o.reference(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(SCOPES), o.scopes(), StandardCharsets.UTF_8);
        System.out.println("contract files: " + o.contract().methods().size() + " methods, "
                + o.contract().events().size() + " events, written to " + dir);
    }

    /** The contract of every bundle {@code loader} sees, and the files made from it. */
    static Output render(ClassLoader loader) {
        Map<FamilyContract, String> bundles = new IdentityHashMap<>();
        List<FamilyContract> families = new ArrayList<>();
        for (UhpContract.OnClassPath f : UhpContract.familiesOnClassPath(loader)) {
            families.add(f.family());
            bundles.put(f.family(), f.bundle());
        }
        UhpContract contract = UhpContract.assemble(UhpContract.envelope(), families);
        ObjectNode doc = contract.document();
        String index = index(doc);
        String json;
        try {
            json = MAPPER.writeValueAsString(doc) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Output(contract, index, json, reference(doc, index), scopes(contract, bundles));
    }

    /** The command index of a contract document (what {@code artu uhp schema} prints). */
    static String index(JsonNode contract) {
        StringBuilder methods = new StringBuilder();
        StringBuilder aliases = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = contract.path("methods").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode def = e.getValue();
            ObjectNode entry = MAPPER.createObjectNode();
            if (def.has("stream")) {
                entry.put("stream", true);
            }
            if (def.has("target")) {
                entry.set("target", def.get("target"));
            }
            JsonNode cli = def.path("cli");
            if (cli.isObject()) {
                ObjectNode c = ((ObjectNode) cli).deepCopy();
                c.remove("aliases");
                if (c.size() > 0) {
                    entry.set("cli", c);
                }
                for (Iterator<Map.Entry<String, JsonNode>> a = cli.path("aliases").fields(); a.hasNext();) {
                    Map.Entry<String, JsonNode> alias = a.next();
                    ObjectNode ae = MAPPER.createObjectNode().put("alias", e.getKey());
                    ae.set("fixed", alias.getValue());
                    aliases.append(alias.getKey().replace(' ', '.').replace('-', '_')).append('\t').append(ae).append('\n');
                }
            }
            ObjectNode params = entry.putObject("params");
            JsonNode schema = def.path("params");
            if (schema.has("required")) {
                params.set("required", schema.get("required"));
            }
            ObjectNode props = params.putObject("properties");
            for (Iterator<Map.Entry<String, JsonNode>> p = schema.path("properties").fields(); p.hasNext();) {
                Map.Entry<String, JsonNode> prop = p.next();
                ObjectNode kept = props.putObject(prop.getKey());
                for (String k : new String[] {"type", "enum", "const"}) {
                    if (prop.getValue().has(k)) {
                        kept.set(k, prop.getValue().get(k));
                    }
                }
                if (prop.getValue().path("items").has("type")) {
                    kept.putObject("items").set("type", prop.getValue().path("items").get("type"));
                }
            }
            methods.append(e.getKey()).append('\t').append(entry).append('\n');
        }
        return methods.append(aliases).toString();
    }

    /** The command reference: one row per method (its usage line, the method, its summary), then the aliases. */
    static String reference(JsonNode contract, String index) {
        String idx = "\n" + index;
        StringBuilder t = new StringBuilder("# artu commands\n\n");
        t.append("Every method of the contract this `artu` was built with is a command (`docs/cli.md` says how a\n");
        t.append("command maps to its method). Generated by the build from the contract files of the bundles it\n");
        t.append("built; `artu help --all` prints it, `artu COMMAND --help` explains one command. A running server\n");
        t.append("may offer more (a module's methods): `artu uhp capabilities` lists what it serves.\n\n");
        t.append("| command | method | what |\n|---|---|---|\n");
        for (Iterator<Map.Entry<String, JsonNode>> it = contract.path("methods").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> m = it.next();
            Command c = Commands.command(idx, m.getKey());
            String usage = Help.usageLine(c, Command.words(m.getKey()));
            t.append("| `").append(cell(usage)).append("` | `").append(m.getKey()).append("` | ")
                    .append(cell(summary(m.getValue().path("description").asText()))).append(" |\n");
        }
        t.append("\nAliases (the contract's `cli.aliases`):\n\n");
        for (String k : Commands.keys(idx)) {
            String entry = Commands.entry(idx, k);
            if (entry.startsWith("{\"alias\":")) {
                Map<String, String> a = MiniJson.members(entry);
                t.append("- `artu ").append(Command.words(k)).append("` → `").append(MiniJson.stringValue(a.get("alias")))
                        .append('`').append(a.get("fixed").equals("{}") ? "" : " with `" + a.get("fixed") + "`").append('\n');
            }
        }
        return t.toString();
    }

    /** Every method with its family, scope and bundle, in contract order. */
    static String scopes(UhpContract contract, Map<FamilyContract, String> bundles) {
        StringBuilder t = new StringBuilder("# Every method and the scope it needs\n\n");
        t.append("The scope a delegated token must hold to call each method of the contract this build assembled\n");
        t.append("(`docs/protocol/security.md` explains scopes and tokens), and the bundle whose contract file\n");
        t.append("describes it. Generated by the build; `artu help --scopes` prints it. A running server lists\n");
        t.append("the live scope of every method it serves, a module's too, in `uhp.capabilities`.\n\n");
        t.append("| method | family | scope | bundle |\n|---|---|---|---|\n");
        for (FamilyContract f : contract.families()) {
            for (MethodContract m : f.methods().values()) {
                if (contract.describes(m.name()) && contract.method(m.name()) == m) {
                    t.append("| `").append(m.name()).append("` | ").append(m.family()).append(" | `").append(m.scope().wire())
                            .append("` | `").append(bundles.getOrDefault(f, "?")).append("` |\n");
                }
            }
        }
        return t.toString();
    }

    /** The first sentence of a description: what {@code --help} and the reference show first. */
    static String summary(String description) {
        int dot = description.indexOf(". ");
        return dot > 0 ? description.substring(0, dot + 1) : description;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}

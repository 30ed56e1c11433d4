package io.artuditu.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code artu token create|list|revoke}: the {@code uhp.token} family from the shell. The
 * secret {@code create} prints is shown this once; hand it to a harness as
 * {@code ARTUDITU_TOKEN}.
 */
final class TokenCommands {
    static final String USAGE_LINES = String.join("\n",
            "  token create --scope S [--scope S…] [--ttl SECONDS]",
            "                          a delegated token (secret printed once; scopes: read, workspace, agent,",
            "                          terminal, orchestration, extensions, admin, all; ttl 1..86400, default 3600)",
            "  token list              live tokens by public id (never secrets)",
            "  token revoke ID         revoke a token by its public id");

    private final UhpClient client;
    private final Artu artu;
    private final PrintStream err;

    TokenCommands(UhpClient client, Artu artu, PrintStream err) {
        this.client = client;
        this.artu = artu;
        this.err = err;
    }

    /** {@code args} starts with the subcommand. */
    int run(List<String> args) throws IOException {
        String sub = args.isEmpty() ? "" : args.get(0);
        List<String> rest = args.isEmpty() ? List.of() : args.subList(1, args.size());
        switch (sub) {
            case "create": return create(rest);
            case "list":
                return rest.isEmpty() ? artu.print(client.call("uhp.token.list", "{}")) : usage("token list takes no arguments");
            case "revoke":
                return rest.size() == 1 ? artu.print(client.call("uhp.token.revoke", "{\"id\":" + MiniJson.quote(rest.get(0)) + "}"))
                        : usage("token revoke ID");
            default:
                return usage("unknown token command: " + sub + " (create, list, revoke)");
        }
    }

    private int create(List<String> args) throws IOException {
        StringBuilder scopes = new StringBuilder();
        String ttl = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String value;
            if (a.startsWith("--scope=") || a.startsWith("--ttl=")) {
                value = a.substring(a.indexOf('=') + 1);
                a = a.substring(0, a.indexOf('='));
            } else if ((a.equals("--scope") || a.equals("--ttl")) && i + 1 < args.size()) {
                value = args.get(++i);
            } else {
                return usage("token create: unexpected argument " + a);
            }
            if (a.equals("--scope")) {
                scopes.append(scopes.length() == 0 ? "" : ",").append(MiniJson.quote(value));
            } else if (value.matches("[0-9]{1,9}")) {
                ttl = value;
            } else {
                return usage("token create: --ttl takes whole seconds, got " + value);
            }
        }
        if (scopes.length() == 0) {
            return usage("token create needs at least one --scope");
        }
        String params = "{\"scopes\":[" + scopes + "]" + (ttl == null ? "" : ",\"ttl_s\":" + ttl) + "}";
        return artu.print(client.call("uhp.token.create", params));
    }

    private int usage(String problem) {
        err.println("artu: " + problem);
        err.println(USAGE_LINES);
        return Artu.USAGE;
    }
}

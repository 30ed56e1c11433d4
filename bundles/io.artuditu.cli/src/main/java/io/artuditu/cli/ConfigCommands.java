package io.artuditu.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code artu config get|patch|reload}: one request each ({@code config.get},
 * {@code config.patch}, {@code server.reload_config}). The patch is checked to be one JSON
 * object here only to give a usage error early; the server validates everything else.
 */
final class ConfigCommands {
    static final String USAGE = "config get | config patch JSON | config patch --file PATH | config reload";
    /** The server refuses larger request lines anyway; this keeps the error local. */
    static final long MAX_PATCH_BYTES = 1 << 20;

    private final UhpClient client;
    private final Artu artu;
    private final PrintStream err;

    ConfigCommands(UhpClient client, Artu artu, PrintStream err) {
        this.client = client;
        this.artu = artu;
        this.err = err;
    }

    /** {@code args} starts with the subcommand. */
    int run(List<String> args) throws IOException {
        String sub = args.isEmpty() ? "" : args.get(0);
        switch (sub) {
            case "get":
                return args.size() == 1 ? artu.print(client.call("config.get", "{}")) : usage();
            case "reload":
                return args.size() == 1 ? artu.print(client.call("server.reload_config", "{}")) : usage();
            case "patch":
                String json;
                if (args.size() == 2) {
                    json = args.get(1);
                } else if (args.size() == 3 && args.get(1).equals("--file")) {
                    Path p = Path.of(args.get(2));
                    if (!Files.isRegularFile(p) || Files.size(p) > MAX_PATCH_BYTES) {
                        err.println("artu: " + p + " is not a readable file of at most " + MAX_PATCH_BYTES + " bytes");
                        return Artu.USAGE;
                    }
                    json = Files.readString(p, StandardCharsets.UTF_8);
                } else {
                    return usage();
                }
                try {
                    MiniJson.members(json.strip());
                } catch (RuntimeException e) {
                    err.println("artu: the patch must be one JSON object, for example {\"layout\":{\"gap\":2}}");
                    return Artu.USAGE;
                }
                return artu.print(client.call("config.patch", "{\"patch\":" + json.strip() + "}"));
            default:
                return usage();
        }
    }

    private int usage() {
        err.println("artu: usage: artu " + USAGE);
        return Artu.USAGE;
    }
}

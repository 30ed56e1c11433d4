package io.artuditu.cli;

import io.artuditu.uhp.client.UhpClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Commands the built-in contract does not describe (a module's methods): the running
 * server's {@code uhp.capabilities} lists every registered method with its params schema,
 * which maps flags the same way ({@link Command#parse}). Asked at most once per command,
 * and only when the built-in index has no match.
 */
final class LiveCommands {
    private final UhpClient client;
    private Map<String, String> rows;

    LiveCommands(UhpClient client) {
        this.client = client;
    }

    /** Method name → its capabilities row (raw JSON); empty when the server refuses the call. */
    Map<String, String> rows() throws IOException {
        if (rows == null) {
            rows = new LinkedHashMap<>();
            Map<String, String> reply = MiniJson.members(client.call("uhp.capabilities", "{}"));
            if (reply.containsKey("result")) {
                for (String row : MiniJson.elements(MiniJson.members(reply.get("result")).get("methods"))) {
                    rows.put(MiniJson.stringValue(MiniJson.members(row).get("name")), row);
                }
            }
        }
        return rows;
    }

    List<String> names() throws IOException {
        return new ArrayList<>(rows().keySet());
    }

    /** The capabilities row of a method, or null. */
    String entry(String method) {
        return rows == null ? null : rows.get(method);
    }

    /** The longest run of leading words naming a live method, or null. */
    Commands.Found find(List<String> args) throws IOException {
        Map<String, String> r = rows();
        int n = 0;
        while (n < args.size() && n < Commands.MAX_WORDS && !args.get(n).startsWith("-")) {
            n++;
        }
        for (int k = n; k > 0; k--) {
            String key = Commands.key(args, k);
            String row = r.get(key);
            if (row != null) {
                return new Commands.Found(Command.parse(key, row, null), k);
            }
        }
        return null;
    }
}

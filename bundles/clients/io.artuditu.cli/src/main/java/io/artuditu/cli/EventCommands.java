package io.artuditu.cli;

import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpClientException;
import io.artuditu.uhp.client.UhpConnection;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;


/**
 * The streaming methods ({@code artu events} and every other method the contract marks
 * {@code stream}: one JSON line per frame on stdout) and {@code artu wait event} (one
 * {@code events.wait}, its {@code --where} typed as the events reference says).
 *
 * <p>Exit status beyond {@link Artu#OK}: {@link Artu#TIMED_OUT} when a wait ends unmatched,
 * {@link Artu#RESYNC} when the server cut the stream with {@code events.resync_required}.
 */
final class EventCommands {

    private final UhpClient client;
    private final PrintStream out;
    private final PrintStream err;
    private final Artu artu;

    EventCommands(UhpClient client, Artu artu, PrintStream out, PrintStream err) {
        this.client = client;
        this.artu = artu;
        this.out = out;
        this.err = err;
    }

    /**
     * A streaming method ({@code events}, {@code terminal backend observe}…): the
     * acknowledgement is checked (an error is printed, exit 1), then every further line
     * goes to stdout as it arrives, until the server closes the stream. A line longer than
     * the client's bound ({@link UhpClient#DEFAULT_MAX_LINE_BYTES}) ends it (exit 1).
     */
    int stream(String method, String params) throws IOException {
        boolean acked = false;
        boolean resync = false;
        try (UhpConnection c = client.open(method, params)) {
            String l;
            while ((l = c.readLine()) != null) {
                if (!acked) {
                    acked = true;
                    if (!MiniJson.members(l).containsKey("result")) {
                        return artu.print(l);
                    }
                    continue;
                }
                resync |= l.startsWith("{\"event\":\"events.resync_required\"");
                out.println(l);
                out.flush();
            }
        } catch (UhpClientException.TooLong e) {
            err.println("artu: " + e.getMessage());
            return Artu.ERROR_REPLY;
        } catch (UhpClientException.ClosedEarly e) {
            // the server went away in the middle of a line: what came whole was printed
        }
        if (resync) {
            err.println("artu: the stream fell behind and was cut (events.resync_required); resubscribe");
            return Artu.RESYNC;
        }
        return acked ? Artu.OK : Artu.NO_SERVER;
    }

    /** {@code wait event NAME [--where k=v]… [--timeout S] [--after N]}; args start at NAME. */
    int waitEvent(List<String> args) throws IOException {
        if (args.isEmpty() || args.get(0).startsWith("--")) {
            return usage("wait event NAME [--where KEY=VALUE]... [--timeout SECONDS] [--after N]");
        }
        StringBuilder params = new StringBuilder("{\"event\":").append(MiniJson.quote(args.get(0)));
        StringBuilder where = new StringBuilder();
        for (int k = 1; k < args.size(); k++) {
            String a = args.get(k);
            if (k + 1 >= args.size()) {
                return usage(a + " needs a value");
            }
            String v = args.get(++k);
            switch (a) {
                case "--where": {
                    int eq = v.indexOf('=');
                    if (eq <= 0) {
                        return usage("--where takes KEY=VALUE (a string) or KEY:=JSON (a number or boolean)");
                    }
                    boolean raw = v.charAt(eq - 1) == ':';
                    String key = v.substring(0, raw ? eq - 1 : eq);
                    String value = v.substring(eq + 1);
                    if (raw && !value.matches("true|false|-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?")) {
                        return usage("--where " + key + ":= needs a number, true or false");
                    }
                    where.append(where.length() > 0 ? "," : "").append(MiniJson.quote(key)).append(':')
                            .append(raw ? value : MiniJson.quote(value));
                    break;
                }
                case "--timeout":
                    if (!v.matches("[0-9]{1,9}")) {
                        return usage("--timeout needs whole seconds (1 to 3600)");
                    }
                    params.append(",\"timeout_s\":").append(v);
                    break;
                case "--after":
                    if (!v.matches("[0-9]{1,18}")) {
                        return usage("--after needs a sequence number");
                    }
                    params.append(",\"after_sequence\":").append(v);
                    break;
                default:
                    return usage("unknown option for wait event: " + a);
            }
        }
        if (where.length() > 0) {
            params.append(",\"where\":{").append(where).append('}');
        }
        params.append('}');
        String reply = client.call("events.wait", params.toString());
        int status = artu.print(reply);
        if (status == Artu.OK && "false".equals(MiniJson.members(MiniJson.members(reply).get("result")).get("matched"))) {
            return Artu.TIMED_OUT;
        }
        return status;
    }

    /**
     * {@code wait agent-status [PANE] STATUS [--timeout S]}: one {@code agent.wait}, parked on
     * the server (PANE defaults to {@code $ARTUDITU_PANE_ID}). Only a server without that
     * method (an older one) gets the fallback: {@code events.wait} for the status event.
     */
    int waitAgentStatus(List<String> args, String envPane) throws IOException {
        List<String> pos = new java.util.ArrayList<>();
        String timeout = null;
        for (int k = 0; k < args.size(); k++) {
            String a = args.get(k);
            if (a.equals("--timeout")) {
                if (k + 1 >= args.size() || !args.get(k + 1).matches("[0-9]{1,4}(\\.[0-9]{1,3})?")) {
                    return usage("--timeout needs seconds (0 to 3600)");
                }
                timeout = args.get(++k);
            } else if (a.startsWith("--")) {
                return usage("unknown option for wait agent-status: " + a);
            } else {
                pos.add(a);
            }
        }
        if (pos.size() == 1 && envPane != null && !envPane.isEmpty()) {
            pos.add(0, envPane);
        }
        if (pos.size() != 2) {
            return usage("wait agent-status PANE STATUS [--timeout SECONDS] (STATUS: idle, working, blocked, done, unknown)");
        }
        String params = "{\"pane\":" + MiniJson.quote(pos.get(0)) + ",\"status\":" + MiniJson.quote(pos.get(1))
                + (timeout == null ? "" : ",\"timeout_s\":" + timeout) + "}";
        String reply = client.call("agent.wait", params);
        java.util.Map<String, String> top = MiniJson.members(reply);
        if (top.containsKey("error") && "\"unknown_method\"".equals(MiniJson.members(top.get("error")).get("code"))) {
            String legacy = "{\"event\":\"pane.agent_status_changed\",\"where\":{\"pane\":" + MiniJson.quote(pos.get(0))
                    + ",\"status\":" + MiniJson.quote(pos.get(1)) + "}" + (timeout == null ? "" : ",\"timeout_s\":" + timeout)
                    + "}";
            reply = client.call("events.wait", legacy);
            top = MiniJson.members(reply);
        }
        int status = artu.print(reply);
        if (status == Artu.OK && "false".equals(MiniJson.members(top.get("result")).get("matched"))) {
            return Artu.TIMED_OUT;
        }
        return status;
    }

    private int usage(String problem) {
        err.println("artu: " + problem);
        return Artu.USAGE;
    }
}

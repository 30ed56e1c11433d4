package io.artuditu.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;


/**
 * {@code artu events} (the event stream, one JSON line per event on stdout) and
 * {@code artu wait event} (one {@code events.wait}).
 *
 * <p>Exit status beyond {@link Artu}'s: {@link #TIMED_OUT} when a wait ends unmatched,
 * {@link #RESYNC} when the server cut the stream with {@code events.resync_required}.
 */
final class EventCommands {
    static final int TIMED_OUT = 4;
    static final int RESYNC = 5;

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

    /** {@code events [--after N] [--event NAME]…}; args exclude "events". */
    int events(List<String> args) throws IOException {
        StringBuilder params = new StringBuilder("{");
        StringBuilder names = new StringBuilder();
        for (int k = 0; k < args.size(); k++) {
            String a = args.get(k);
            if (k + 1 >= args.size()) {
                return usage("events [--after N] [--event NAME]...");
            }
            String v = args.get(++k);
            if (a.equals("--after")) {
                if (!v.matches("[0-9]{1,18}")) {
                    return usage("--after needs a sequence number");
                }
                params.append(params.length() > 1 ? "," : "").append("\"after_sequence\":").append(v);
            } else if (a.equals("--event")) {
                names.append(names.length() > 0 ? "," : "").append(MiniJson.quote(v));
            } else {
                return usage("unknown option for events: " + a);
            }
        }
        if (names.length() > 0) {
            params.append(params.length() > 1 ? "," : "").append("\"events\":[").append(names).append(']');
        }
        params.append('}');
        String request = "{\"id\":\"1\",\"method\":\"events.subscribe\",\"params\":" + params + "}\n";
        SocketChannel ch;
        try {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(client.location().bind()));
        } catch (IOException e) {
            throw new UhpClient.Unreachable("no server is answering on " + client.location().logical(), e);
        }
        try (ch) {
            ByteBuffer o = ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8));
            while (o.hasRemaining()) {
                ch.write(o);
            }
            ByteArrayOutputStream line = new ByteArrayOutputStream(512);
            ByteBuffer in = ByteBuffer.allocate(16384);
            boolean acked = false;
            boolean resync = false;
            while (ch.read(in) >= 0) {
                in.flip();
                while (in.hasRemaining()) {
                    byte b = in.get();
                    if (b != '\n') {
                        line.write(b);
                        continue;
                    }
                    String l = line.toString(StandardCharsets.UTF_8);
                    line.reset();
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
                in.clear();
            }
            if (resync) {
                err.println("artu: the stream fell behind and was cut (events.resync_required); resubscribe");
                return RESYNC;
            }
            return acked ? Artu.OK : Artu.NO_SERVER;
        }
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
            return TIMED_OUT;
        }
        return status;
    }

    private int usage(String problem) {
        err.println("artu: " + problem);
        return Artu.USAGE;
    }
}

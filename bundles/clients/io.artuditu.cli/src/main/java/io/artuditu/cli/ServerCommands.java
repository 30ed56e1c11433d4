package io.artuditu.cli;

import io.artuditu.uhp.client.UhpClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code artu server start|stop|status}. Starting runs the exported server jar as a
 * detached process ({@code setsid} when present, so closing the terminal does not stop
 * it) with output appended to {@code server.log} beside the socket, and returns once
 * {@code ping} answers. {@code --foreground} is run by the launcher script itself
 * (exec), so the server is the process the caller started.
 */
final class ServerCommands {
    static final long START_TIMEOUT_MS = 30_000;
    static final long STOP_TIMEOUT_MS = 15_000;

    private final UhpClient client;
    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;

    ServerCommands(UhpClient client, Map<String, String> env, PrintStream out, PrintStream err) {
        this.client = client;
        this.env = env;
        this.out = out;
        this.err = err;
    }

    int run(String sub, List<String> args) throws IOException {
        if (args.size() > 1 && !sub.equals("--foreground")) {
            err.println("artu: server " + sub + " takes no arguments");
            return Artu.USAGE;
        }
        switch (sub) {
            case "start": return start();
            case "stop": return stop();
            case "status": return status();
            case "--foreground":
                err.println("artu: server --foreground is run by the artu launcher script; use ./artu");
                return Artu.USAGE;
            default:
                err.println("artu: unknown server command: " + sub + " (start, stop, status, --foreground)");
                return Artu.USAGE;
        }
    }

    private String pingOrNull() {
        try {
            String reply = client.call("ping", "{}");
            return MiniJson.members(reply).get("result");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private int status() {
        String pong = pingOrNull();
        String socket = MiniJson.quote(client.location().logical().toString());
        if (pong == null) {
            out.println("{\"running\":false,\"socket\":" + socket + "}");
            return Artu.NO_SERVER;
        }
        out.println("{\"running\":true,\"socket\":" + socket + ",\"server\":" + pong + "}");
        return Artu.OK;
    }

    private int start() throws IOException {
        String pong = pingOrNull();
        if (pong != null) {
            err.println("artu: a server is already running on " + client.location().logical());
            out.println(pong);
            return Artu.OK;
        }
        String jar = System.getProperty("artu.server.jar");
        if (jar == null) {
            err.println("artu: artu.server.jar is not set; start the server through the artu launcher script");
            return Artu.USAGE;
        }
        Path log = client.location().logical().resolveSibling("server.log");
        Files.createDirectories(log.getParent());
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid");
        }
        cmd.add(System.getProperty("artu.java", Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        String opts = System.getProperty("artu.server.opts", "");
        for (String o : opts.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                cmd.add(o);
            }
        }
        String session = client.location().session();
        if (!session.isEmpty()) {
            cmd.add("-Dartuditu.session=" + session);
        }
        cmd.add("-Dartuditu.home=" + client.location().home());
        cmd.add("-jar");
        cmd.add(jar);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            pong = pingOrNull();
            if (pong != null) {
                out.println(pong);
                return Artu.OK;
            }
            if (!p.isAlive()) {
                err.println("artu: the server exited with status " + p.exitValue() + "; its log (" + log + ") ends with:");
                err.println(tail(log));
                return Artu.ERROR_REPLY;
            }
            sleep(20);
        }
        err.println("artu: the server did not answer within " + START_TIMEOUT_MS + " ms; see " + log);
        return Artu.ERROR_REPLY;
    }

    private int stop() throws IOException {
        java.util.Optional<ProcessHandle> process = serverProcess();
        String reply = client.call("server.stop", "{}");
        Map<String, String> m = MiniJson.members(reply);
        if (!m.containsKey("result")) {
            return new Artu(env, out, err).print(reply);
        }
        long deadline = System.currentTimeMillis() + STOP_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!Files.exists(client.location().bind()) && pingOrNull() == null
                    && process.map(p -> !p.isAlive()).orElse(true)) {
                out.println(m.get("result"));
                return Artu.OK;
            }
            sleep(20);
        }
        err.println("artu: the server accepted server.stop but has not ended after " + STOP_TIMEOUT_MS + " ms");
        return Artu.ERROR_REPLY;
    }

    /** The server process, from the pid it writes into the lock file beside its socket. */
    private java.util.Optional<ProcessHandle> serverProcess() {
        Path lock = client.location().bind().resolveSibling(client.location().bind().getFileName() + ".lock");
        try {
            return ProcessHandle.of(Long.parseLong(Files.readString(lock, StandardCharsets.US_ASCII).trim()));
        } catch (IOException | NumberFormatException e) {
            return java.util.Optional.empty();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

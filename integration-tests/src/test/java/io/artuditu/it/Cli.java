package io.artuditu.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the repository's {@code ./artu} exactly as a user would, with a chosen environment. */
final class Cli {
    static final Path ROOT = Reactor.ROOT;
    static final Path ARTU = ROOT.resolve("artu");

    record Result(int status, String out, String err) {
    }

    private Cli() {
    }

    static ProcessBuilder builder(Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ARTU.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile());
        pb.environment().remove("ARTUDITU_SOCKET_PATH");
        pb.environment().put("ARTU_NO_BUILD", "1");
        pb.environment().putAll(env);
        return pb;
    }

    static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Process p = builder(env, args).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("artu " + String.join(" ", args) + " did not finish in 60 s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}

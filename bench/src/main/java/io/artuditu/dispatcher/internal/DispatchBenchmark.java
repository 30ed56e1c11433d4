package io.artuditu.dispatcher.internal;

import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.platform.Reply;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One request line through {@link WhiteboardDispatcher#dispatch}: parse, validate the
 * envelope and params, route, run a ping handler, serialize the reply line. No socket, no
 * framework. Lives in the dispatcher's package to reach its package-private constructor
 * and {@code addFamily}; the ping method carries the real contract's schemas.
 *
 * <pre>java -jar bench/target/benchmarks.jar DispatchBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-XX:+UseSerialGC"})
public class DispatchBenchmark {
    private static final byte[] PING = line("{\"id\":\"1\",\"method\":\"ping\",\"params\":{}}");
    /** Not JSON: the reader rejects it and the dispatcher answers parse_error. */
    private static final byte[] MALFORMED = line("{\"id\":\"1\",\"method\":\"ping\",\"params\":{");

    private final Caller caller = Caller.inProcess();
    private WhiteboardDispatcher dispatcher;

    @Setup
    public void setUp() {
        // Strict results off, as in the distribution.
        dispatcher = new WhiteboardDispatcher(false);
        UhpMethod ping = UhpMethod.of(FamilyContract.load(DispatchBenchmark.class, "protocol/uhp/v1/discovery.json").method("ping").orElseThrow(),
                call -> call.newObject().put("type", "pong").put("version", "0.1.0").put("session", "default")
                        .put("uhp", "1.0"));
        dispatcher.addFamily(new UhpFamily() {
            @Override
            public String family() {
                return "discovery";
            }

            @Override
            public List<UhpMethod> methods() {
                return List.of(ping);
            }
        }, "bench", 0, 1);
        check(dispatcher.dispatch(PING, 0, PING.length, caller), true);
        check(dispatcher.dispatch(MALFORMED, 0, MALFORMED.length, caller), false);
    }

    @Benchmark
    public Reply ping() {
        return dispatcher.dispatch(PING, 0, PING.length, caller);
    }

    @Benchmark
    public Reply malformed() {
        return dispatcher.dispatch(MALFORMED, 0, MALFORMED.length, caller);
    }

    private static void check(Reply r, boolean ok) {
        if (r.ok() != ok) {
            throw new IllegalStateException("unexpected reply: " + new String(r.line(), StandardCharsets.UTF_8));
        }
    }

    private static byte[] line(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}

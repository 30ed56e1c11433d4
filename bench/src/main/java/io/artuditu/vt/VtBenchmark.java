package io.artuditu.vt;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parse + apply throughput of {@link Terminal#feed} in memory: 1 MiB of output per
 * invocation, fed in 4 KiB chunks as a PTY read would deliver it, into an 80×24 terminal whose
 * scrollback is already full. MB/s = 1 / (score in s/op) since each op is 1 MiB.
 *
 * <pre>java -jar bench/target/benchmarks.jar VtBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseSerialGC"})
public class VtBenchmark {
    private static final int SIZE = 1 << 20;

    /** ascii: plain log-like lines; sgr: ls --color / highlighted-diff-like lines. */
    @Param({"ascii", "sgr"})
    public String input;

    /** Scrollback budget in bytes; ~1,000 and ~100,000 lines of 80 plain characters. */
    @Param({"200000", "20000000"})
    public long historyBytes;

    private byte[] data;
    private Terminal terminal;

    @Setup
    public void setUp() {
        StringBuilder sb = new StringBuilder(SIZE + 200);
        int n = 0;
        while (sb.length() < SIZE) {
            if (input.equals("ascii")) {
                sb.append("2026-11-30 12:00:").append(n % 60).append(" INFO worker-").append(n % 7)
                        .append(" processed request id=").append(n).append(" in 12ms status=ok path=/api/v1/items\r\n");
            } else {
                sb.append("\033[0m\033[01;34mdirectory").append(n % 10).append("\033[0m  \033[01;32mscript.sh\033[0m  ")
                        .append("\033[38;5;208m+\033[38;2;120;200;80mint x = ").append(n)
                        .append(";\033[0m \033[1;31m-\033[22;39m old\033[K\r\n");
            }
            n++;
        }
        data = sb.substring(0, SIZE).getBytes(StandardCharsets.US_ASCII);
        terminal = Terminal.create(80, 24, new Limits(historyBytes, 4096));
        for (int i = 0; i < 200; i++) {
            feed();
        }
    }

    @Benchmark
    public long feed() {
        for (int off = 0; off < SIZE; off += 4096) {
            terminal.feed(data, off, 4096);
        }
        return terminal.revision();
    }
}

import java.lang.management.ManagementFactory;
public class Cpu {
    public static void main(String[] a) throws Exception {
        var mx = ManagementFactory.getThreadMXBean();
        String which = a[0];
        Runnable op;
        if (which.equals("fe")) {
            var b = new io.artuditu.terminal.internal.attach.FrameEncoderBenchmark();
            b.frame = a[1];
            b.setUp();
            op = () -> { b.change(); b.encode(); };
        } else {
            var b = new io.artuditu.vt.VtBenchmark();
            b.input = a[1];
            b.historyBytes = Long.parseLong(a[2]);
            b.setUp();
            op = b::feed;
        }
        int n = Integer.parseInt(a[a.length - 1]);
        double[] r = new double[7];
        for (int round = -3; round < 7; round++) {
            long c0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) op.run();
            double us = (mx.getCurrentThreadCpuTime() - c0) / 1e3 / n;
            if (round >= 0) r[round] = us;
        }
        java.util.Arrays.sort(r);
        System.out.printf("%s %s median %.1f us cpu/op (min %.1f max %.1f)%n", which, String.join(" ", java.util.Arrays.copyOfRange(a, 1, a.length - 1)), r[3], r[0], r[6]);
    }
}

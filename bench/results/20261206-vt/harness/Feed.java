import io.artuditu.vt.*;
import java.nio.file.*;
public class Feed {
    public static void main(String[] a) throws Exception {
        byte[] raw = Files.readAllBytes(Path.of(a[0]));
        // onlcr: \n -> \r\n, as the PTY delivers it
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream(raw.length + raw.length / 50);
        for (byte b : raw) { if (b == '\n') o.write('\r'); o.write(b); }
        byte[] d = o.toByteArray();
        int passes = Integer.parseInt(a[1]);
        Terminal t = Terminal.create(200, 50, new Limits(10L << 20, 4096));
        for (int p = 0; p < passes; p++) {
            long t0 = System.nanoTime(); long c0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            for (int off = 0; off < d.length; off += 65536) t.feed(d, off, Math.min(65536, d.length - off));
            long ns = System.nanoTime() - t0; long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c0;
            System.out.printf("pass %d: %.1f MB/s wall, %.1f MB/s cpu (history %d lines, %d bytes)%n", p, d.length / (ns / 1e3), d.length / (cpu / 1e3), t.historySize(), t.historyBytes());
        }
    }
}

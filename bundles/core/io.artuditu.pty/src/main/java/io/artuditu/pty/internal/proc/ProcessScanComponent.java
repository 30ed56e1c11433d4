package io.artuditu.pty.internal.proc;

import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.pty.proc.ProcessTree;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * The {@link ProcessScan} service: the host's {@code /proc}, 500 ms minimum interval. No
 * references; the scan thread runs from activation to deactivation, and is idle unless
 * someone asks for a tree.
 */
@Component(service = ProcessScan.class)
public final class ProcessScanComponent implements ProcessScan {
    private final ProcessScanner scanner = new ProcessScanner();

    @Activate
    void activate() {
        scanner.start();
    }

    @Deactivate
    void deactivate() {
        scanner.stop();
    }

    @Override
    public ProcessTree tree(long rootPid) {
        return scanner.tree(rootPid);
    }

    @Override
    public ProcessTree awaitFresh(long rootPid, long maxAgeMillis, long timeoutMillis) {
        return scanner.awaitFresh(rootPid, maxAgeMillis, timeoutMillis);
    }

    @Override
    public java.util.Map<String, Long> counters() {
        return scanner.counters();
    }

    @Override
    public long sampledAtMillis() {
        return scanner.sampledAtMillis();
    }
}

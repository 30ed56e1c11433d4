package io.artuditu.terminal.internal;

import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.vt.TerminalMetrics;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@link TerminalMetrics} service {@code pane.list} reads: each live screen's scrollback,
 * this bundle's {@link RenderCounters}, and the PTY host's process-scan counters. Only reads;
 * no thread, no state of its own.
 */
@Component(service = TerminalMetrics.class)
public final class Metrics implements TerminalMetrics {
    private final Screens screens;
    private final ProcessScan scan;

    @Activate
    public Metrics(@Reference Screens screens, @Reference ProcessScan scan) {
        this.screens = screens;
        this.scan = scan;
    }

    @Override
    public Optional<History> history(String terminalId) {
        return terminalId == null ? Optional.empty() : screens.screen(terminalId).map(Screen::history);
    }

    @Override
    public Map<String, Long> renderPerformance() {
        return screens.counters().values();
    }

    @Override
    public Map<String, Long> detectionPerformance() {
        return scan.counters();
    }
}

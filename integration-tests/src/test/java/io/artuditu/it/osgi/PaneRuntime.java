package io.artuditu.it.osgi;

import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.options;

import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.OptionUtils;

/**
 * {@link PaxRuntime} plus the terminal runtime: the event bus, config, the PTY host, the
 * emulator, the workspace model and the terminal family, as the distribution runs them. The
 * pane tests open panes through the model's service (there is no public method to create
 * one in this tree yet) and talk to them over the real socket.
 */
final class PaneRuntime {
    private PaneRuntime() {
    }

    static Option[] runtime() {
        return OptionUtils.combine(PaxRuntime.runtime(), options(
                mavenBundle("com.fasterxml.jackson.dataformat", "jackson-dataformat-toml").versionAsInProject(),
                PaxRuntime.reactorBundle("artuditu.bundle.events"),
                PaxRuntime.reactorBundle("artuditu.bundle.config"),
                PaxRuntime.reactorBundle("artuditu.bundle.pty"),
                PaxRuntime.reactorBundle("artuditu.bundle.vt"),
                PaxRuntime.reactorBundle("artuditu.bundle.workspace"),
                PaxRuntime.reactorBundle("artuditu.bundle.terminal")));
    }
}

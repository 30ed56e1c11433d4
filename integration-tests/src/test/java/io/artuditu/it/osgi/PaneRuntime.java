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
                PaxRuntime.reactorBundle("io.artuditu.events"),
                PaxRuntime.reactorBundle("io.artuditu.config"),
                PaxRuntime.reactorBundle("io.artuditu.pty"),
                PaxRuntime.reactorBundle("io.artuditu.vt"),
                PaxRuntime.reactorBundle("io.artuditu.model"),
                PaxRuntime.reactorBundle("io.artuditu.terminal")));
    }
}

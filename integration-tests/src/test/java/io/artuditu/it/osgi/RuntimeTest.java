package io.artuditu.it.osgi;

import io.artuditu.uhp.platform.UhpDispatcher;
import javax.inject.Inject;
import org.junit.Before;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.osgi.framework.BundleContext;

/**
 * What every in-framework test starts from: the runtime of {@link PaxRuntime}, the
 * framework and the dispatcher injected, and a socket client to a server that answers.
 */
public abstract class RuntimeTest {
    @Inject
    protected BundleContext context;
    @Inject
    protected UhpDispatcher dispatcher;
    protected Uhp uhp;

    @Configuration
    public Option[] config() {
        return PaxRuntime.runtime();
    }

    @Before
    public void serverUp() throws Exception {
        uhp = Uhp.of(context);
        uhp.awaitPing();
    }
}

package io.artuditu.terminal.internal;

import io.artuditu.model.Workspaces;
import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The terminal.backend.* family: the one place its 17 methods are wired to their handlers.
 * Schemas, scopes and {@code mutates} come from this bundle's {@code protocol/uhp/v1/terminal.json};
 * {@code docs/protocol/terminal.md} documents each method.
 */
@Component(service = UhpFamily.class)
public final class TerminalFamily implements UhpFamily {
    /** The family's contract as its file describes it (before routing); also read by {@link Terminals} and {@link ControlLines}. */
    static final FamilyContract CONTRACT = FamilyContract.load(TerminalFamily.class, "protocol/uhp/v1/terminal.json");

    private final FamilyContract contract;
    /** Closes event subscribers cut for falling behind that do not take their resync line. */
    private final ScheduledThreadPoolExecutor closer = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "terminal-events-cut");
        t.setDaemon(true);
        return t;
    });

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus bus;

    @Activate
    public TerminalFamily(@Reference Screens screens, @Reference TerminalStreams streams,
            @Reference Workspaces workspaces, @Reference ProcessScan scan) {
        closer.setRemoveOnCancelPolicy(true);
        Terminals terminals = new Terminals(screens, workspaces, () -> bus);
        InputWriter writer = new InputWriter(terminals);
        ReadMethods read = new ReadMethods(terminals);
        ProcessesMethod processes = new ProcessesMethod(terminals, scan);
        CaptureMethod capture = new CaptureMethod(terminals);
        StreamMethods stream = new StreamMethods(terminals, streams, writer);
        InputMethods input = new InputMethods(terminals, writer);
        LifecycleMethods lifecycle = new LifecycleMethods(terminals);
        WaitMethods waits = new WaitMethods(terminals);
        EventsSubscribe events = new EventsSubscribe(terminals, closer);

        this.contract = CONTRACT
                .route("terminal.backend.inventory", read::inventory)
                .route("terminal.backend.snapshot", read::snapshot)
                .route("terminal.backend.validate", read::validate)
                .route("terminal.backend.processes", processes::processes)
                .route("terminal.backend.capture", capture::capture)
                .route("terminal.backend.observe", stream::observe)
                .route("terminal.backend.control", stream::control)
                .route("terminal.backend.type_literal", input::typeLiteral)
                .route("terminal.backend.submit_text", input::submitText)
                .route("terminal.backend.send_key", input::sendKey)
                .route("terminal.backend.set_title", input::setTitle)
                .route("terminal.backend.notify", input::notification)
                .route("terminal.backend.create", lifecycle::create)
                .route("terminal.backend.close", lifecycle::close)
                .route("terminal.backend.wait_change", waits::waitChange)
                .route("terminal.backend.wait_output", waits::waitOutput)
                .route("terminal.backend.events.subscribe", events::subscribe)
                .bind();
    }

    @Deactivate
    void deactivate() {
        closer.shutdownNow();
    }

    @Override
    public String family() {
        return "terminal";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }
}

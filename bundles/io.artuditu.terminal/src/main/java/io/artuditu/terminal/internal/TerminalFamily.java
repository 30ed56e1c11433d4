package io.artuditu.terminal.internal;

import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.uhp.api.MethodHandler;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.workspace.Workspaces;
import java.util.ArrayList;
import java.util.List;
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
 * Schemas, scopes and {@code mutates} come from {@code protocol/uhp/v1/terminal.json};
 * {@code docs/protocol/terminal.md} documents each method.
 */
@Component(service = UhpFamily.class)
public final class TerminalFamily implements UhpFamily {
    private final List<UhpMethod> methods;
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

        List<UhpMethod> m = new ArrayList<>();
        add(m, "terminal.backend.inventory", read::inventory);
        add(m, "terminal.backend.snapshot", read::snapshot);
        add(m, "terminal.backend.validate", read::validate);
        add(m, "terminal.backend.processes", processes::processes);
        add(m, "terminal.backend.capture", capture::capture);
        add(m, "terminal.backend.observe", stream::observe);
        add(m, "terminal.backend.control", stream::control);
        add(m, "terminal.backend.type_literal", input::typeLiteral);
        add(m, "terminal.backend.submit_text", input::submitText);
        add(m, "terminal.backend.send_key", input::sendKey);
        add(m, "terminal.backend.set_title", input::setTitle);
        add(m, "terminal.backend.notify", input::notification);
        add(m, "terminal.backend.create", lifecycle::create);
        add(m, "terminal.backend.close", lifecycle::close);
        add(m, "terminal.backend.wait_change", waits::waitChange);
        add(m, "terminal.backend.wait_output", waits::waitOutput);
        add(m, "terminal.backend.events.subscribe", events::subscribe);
        this.methods = List.copyOf(m);
    }

    private static void add(List<UhpMethod> m, String name, MethodHandler handler) {
        m.add(UhpMethod.of(UhpContract.standard().method(name), handler));
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
    public List<UhpMethod> methods() {
        return methods;
    }
}

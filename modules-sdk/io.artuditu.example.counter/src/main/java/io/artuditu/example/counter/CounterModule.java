package io.artuditu.example.counter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.sdk.ModuleContext;
import io.artuditu.sdk.Segment;
import io.artuditu.sdk.Tone;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * A whole bundle module in one component: a thread and a timer from its {@link ModuleContext}
 * (the platform stops both when the module goes away), a bar widget, a Java action and a
 * UHP method. Nothing here cleans up after itself: revocation is the platform's job.
 */
@Component(service = UhpFamily.class, immediate = true)
public final class CounterModule implements UhpFamily {
    private final AtomicLong ticks = new AtomicLong();
    private final AtomicLong timerRuns = new AtomicLong();
    private final FamilyContract contract;
    private final ModuleContext context;

    @Activate
    public CounterModule(@Reference ModuleContext context) {
        this.context = context;
        if (context.setting("fail_on_start").asBoolean()) {
            throw new IllegalStateException("fail_on_start is set");
        }
        this.contract = FamilyContract.load(CounterModule.class, "protocol/example.counter.json")
                .route("example.counter.get", this::get)
                .bind();
        context.onAction("reset", e -> ticks.set(0));
        context.startThread("ticker", () -> {
            while (!Thread.currentThread().isInterrupted()) {
                ticks.incrementAndGet();
                try {
                    Thread.sleep(50);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        });
        context.scheduler().scheduleAtFixedRate(this::show, 0, 1, TimeUnit.SECONDS);
    }

    private void show() {
        timerRuns.incrementAndGet();
        context.pushBar("count", List.of(Segment.text("count", Tone.MUTED), Segment.text(Long.toString(ticks.get()),
                Tone.ACCENT).withAction("reset", null)), null);
    }

    ObjectNode get(Call call) {
        return call.newObject().put("type", "counter").put("ticks", ticks.get()).put("timer_runs", timerRuns.get());
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }
}

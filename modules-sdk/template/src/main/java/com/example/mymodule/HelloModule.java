package com.example.mymodule;

import io.artuditu.sdk.ActionEvent;
import io.artuditu.sdk.ModuleContext;
import io.artuditu.sdk.Notification;
import io.artuditu.sdk.Segment;
import io.artuditu.sdk.Tone;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The whole module: a "hello" widget in the Artuditu Bar and the {@code greet} action its
 * click runs. The platform hands each module bundle its own {@link ModuleContext}; what the
 * module shows and registers through it goes away by itself when the module is disabled or
 * unlinked, so there is nothing to clean up here.
 */
@Component(immediate = true)
public final class HelloModule {
    static final String BAR = "hello";
    static final String GREET = "greet";

    private final ModuleContext context;
    private final AtomicInteger greetings = new AtomicInteger();

    @Activate
    public HelloModule(@Reference ModuleContext context) {
        this.context = context;
        context.onAction(GREET, this::greet);
        // The first push runs on the module's own thread, not inside the framework's activation.
        context.scheduler().execute(this::show);
    }

    /** The widget's segments after {@code greetings} clicks: pure, so a unit test can check it. */
    static List<Segment> content(int greetings) {
        Segment hello = Segment.text(greetings == 0 ? "hello" : "hello ×" + greetings).withAction(GREET, null);
        return List.of(Segment.symbol("◆", Tone.ACCENT), Segment.spacer(1), hello);
    }

    private void show() {
        context.pushBar(BAR, content(greetings.get()), List.of(Segment.text("hi")));
    }

    private void greet(ActionEvent event) {
        int n = greetings.incrementAndGet();
        context.notify(new Notification("Hello from " + context.moduleId() + " (" + n + ")", "success", 0, null, null,
                "greeting"));
        show();
    }
}

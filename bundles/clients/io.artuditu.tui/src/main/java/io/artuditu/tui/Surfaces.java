package io.artuditu.tui;

import java.util.List;

/**
 * What modules show, as {@link ModuleFeed} last fetched it: the bar widgets, the docks and
 * the live notifications. The feed fetches on the worker and hands its answers to the
 * {@link ModuleFeed.Sink} methods here on the UI thread.
 */
final class Surfaces implements ModuleFeed.Sink {
    private final App app;
    private final ModuleFeed feed;
    private List<ModuleUi.Widget> widgets = List.of();
    private List<ModuleUi.Dock> docks = List.of();
    private List<ModuleUi.Notice> notices = List.of();

    Surfaces(App app, JsonUhp uhp) {
        this.app = app;
        this.feed = new ModuleFeed(uhp, app.requests.worker(), app::post, this);
    }

    List<ModuleUi.Widget> widgets() {
        return widgets;
    }

    List<ModuleUi.Dock> docks() {
        return docks;
    }

    List<ModuleUi.Notice> notices() {
        return notices;
    }

    /** Every list again (at start and after a reconnect). */
    void refreshAll() {
        feed.refreshAll();
    }

    /** Whether {@code event} was one of the feed's (it then fetched what it changed). */
    boolean onEvent(String event) {
        return feed.onEvent(event);
    }

    @Override
    public void bars(List<ModuleUi.Widget> w) {
        widgets = w;
        app.chrome = true;
    }

    @Override
    public void docks(List<ModuleUi.Dock> d) {
        int right = app.panes.dockShown();
        docks = d;
        app.prompts.closeMenuUnlessOwnedBy(d); // its module's docks are gone: its actions would only fail
        if (app.panes.dockShown() != right) {
            app.panes.syncViews();
        }
        app.chrome = true;
    }

    @Override
    public void notices(List<ModuleUi.Notice> n) {
        notices = n;
        app.chrome = true;
    }

    /** The earlier of {@code d} and the next notification's expiry. */
    long deadline(long d) {
        for (ModuleUi.Notice n : notices) {
            d = Math.min(d, n.expiresAt());
        }
        return d;
    }

    /** Drops the notifications whose time is up; whether any was. */
    boolean expire(long now) {
        if (!notices.isEmpty() && notices.stream().anyMatch(n -> n.expiresAt() <= now)) {
            notices = notices.stream().filter(n -> n.expiresAt() > now).toList();
            return true;
        }
        return false;
    }
}

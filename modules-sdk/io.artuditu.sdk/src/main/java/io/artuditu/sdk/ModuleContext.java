package io.artuditu.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.UhpException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * One module's handle on the platform. Obtain it as a service ({@code @Reference
 * ModuleContext context}); the platform gives each module bundle its own instance, bound
 * to the module id its {@code META-INF/artuditu/module.toml} declares.
 *
 * <p>Everything acquired here is tracked and revoked when the module is disabled, updated
 * or unlinked: widgets and docks are removed, notifications cleared, action handlers
 * forgotten, panes the module opened closed, subscriptions cancelled, the scheduler shut
 * down and threads interrupted (then joined for up to one second). After revocation every
 * method but {@link #moduleId}, {@link #log} and {@link #active} throws
 * {@link IllegalStateException}. Thread safe.
 */
@org.osgi.annotation.versioning.ProviderType
public interface ModuleContext {
    /** The module id from its manifest. */
    String moduleId();

    /** A folder for the module's own files, {@code <home>/modules/data/<id>/}; created on first use. */
    Path configDir();

    /** The current value of a setting the manifest declares (its default when unset). */
    JsonNode setting(String key);

    /** Runs {@code listener} (on the module's scheduler) whenever one of its settings changes. */
    void onSettingsChanged(Runnable listener);

    /**
     * Replaces a bar widget's live content, as {@code ui.bar.push} does: the widget must be
     * one of the manifest's {@code [[bars]]}; invalid content changes nothing.
     *
     * @return whether the content differed from what was shown
     * @throws UhpException the error {@code ui.bar.push} would answer
     */
    boolean pushBar(String widgetId, List<Segment> content, List<Segment> compactContent) throws UhpException;

    /** Clears a widget's live content, as {@code ui.bar.remove}; whether there was any. */
    boolean removeBar(String widgetId);

    /** Replaces a dock's rows, as {@code ui.dock.push}; the dock must be one of the manifest's {@code [[docks]]}. */
    void pushDock(String dockId, String title, List<Row> rows) throws UhpException;

    /** Queues a notification, as {@code ui.notification.push}. */
    void notify(Notification notification) throws UhpException;

    /** Clears this module's notifications with {@code dedupeKey} (all of them for null); how many. */
    int clearNotifications(String dedupeKey);

    /**
     * Shows a transient message in every attached workbench: a {@link #call} of
     * {@code ui.toast}, so the manifest's {@code scopes} must include {@code extensions}.
     */
    void toast(String text) throws UhpException;

    /**
     * Handles one of the manifest's {@code [[actions]]} in Java: clicks on rows, menu entries
     * and bar segments naming it, and {@code module.action.invoke}, call {@code handler} on
     * the module's scheduler. Replaces an earlier handler for the same id.
     */
    void onAction(String actionId, ActionHandler handler);

    /**
     * Calls a UHP method in process, with the authority the manifest's {@code scopes} grant
     * (a method needing another scope answers {@code forbidden}). Blocks until the answer.
     *
     * @return the method's result
     * @throws UhpException the error the method answered
     */
    JsonNode call(String method, ObjectNode params) throws UhpException;

    /**
     * Opens a pane through {@code module.pane.open} and tracks it: the platform closes it
     * when the module is revoked.
     *
     * @param params as {@code module.pane.open} takes them (without {@code id})
     * @return the new pane's id
     */
    String openPane(ObjectNode params) throws UhpException;

    /**
     * Delivers events (exact names; empty for all) to {@code listener} on a thread of the
     * platform's ({@code module-<id>-events}), one at a time and in order; each is the whole
     * frame, {@code {"event", "sequence", "data"}}. A listener that falls further behind
     * than the event bus queues for a subscriber (1,024 events or 4 MiB) is cut: the queued
     * events are dropped, it gets one {@code events.resync_required} frame, and the
     * subscription ends; subscribe again to go on.
     */
    AutoCloseable subscribe(Set<String> events, Consumer<JsonNode> listener);

    /** The module's own single-threaded scheduler, shut down at revocation. */
    ScheduledExecutorService scheduler();

    /** A started daemon thread named {@code module-<id>-<name>}, interrupted and joined at revocation. */
    Thread startThread(String name, Runnable body);

    /** Appends a line to the module's log ({@code module.log.list}). */
    void log(String message);

    /** Whether the context still holds (false after revocation). */
    boolean active();
}

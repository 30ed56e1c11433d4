package io.artuditu.sdk;

/** A module action implemented in Java; see {@link ModuleContext#onAction}. */
@FunctionalInterface
@org.osgi.annotation.versioning.ConsumerType
public interface ActionHandler {
    /**
     * Runs the action. A thrown exception is logged in the module's log and reported to
     * the caller of {@code module.action.invoke}; it never reaches the platform.
     */
    void run(ActionEvent event) throws Exception;
}

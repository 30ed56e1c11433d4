package io.artuditu.uhp.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The code behind one method. Returns the result object (with its {@code type}) or
 * throws {@link UhpException}. Runs on a connection thread; it may block for as long as
 * its method's documentation allows.
 */
@FunctionalInterface
@org.osgi.annotation.versioning.ConsumerType
public interface MethodHandler {
    ObjectNode handle(Call call);
}

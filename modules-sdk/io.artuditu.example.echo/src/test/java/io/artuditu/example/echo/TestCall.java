package io.artuditu.example.echo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.Connection;
import io.artuditu.uhp.api.StreamHandler;

/**
 * A call as a unit test hands it to a handler: validated params, an in-process caller, no
 * connection. A module builds its own; the dispatcher's call type is the platform's.
 */
record TestCall(String method, ObjectNode params) implements Call {
    @Override
    public String id() {
        return "1";
    }

    @Override
    public Caller caller() {
        return Caller.inProcess();
    }

    @Override
    public ObjectNode newObject() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public void afterReply(Runnable action) {
        throw new UnsupportedOperationException("not in a unit test");
    }

    @Override
    public void streamAfterReply(StreamHandler handler) {
        throw new UnsupportedOperationException("not in a unit test");
    }

    @Override
    public Connection connection() {
        return Connection.NONE;
    }
}

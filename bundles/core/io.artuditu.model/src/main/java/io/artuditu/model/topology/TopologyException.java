package io.artuditu.model.topology;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.util.Map;

/**
 * A refused topology request: the spec's error code ({@code invalid_request} or
 * {@code not_found}), a message and details ({@code field}, {@code reason}). Nothing
 * changed. Being a {@link UhpException}, a family handler may let it through as is.
 */
public final class TopologyException extends UhpException {
    private static final long serialVersionUID = 1L;

    public TopologyException(ErrorCode code, String message, Map<String, Object> details) {
        super(code, message, details);
    }

    public static TopologyException invalid(String field, String reason, String message) {
        return new TopologyException(ErrorCode.INVALID_REQUEST, message, Map.of("field", field, "reason", reason));
    }

    public static TopologyException missing(String field, String message) {
        return new TopologyException(ErrorCode.NOT_FOUND, message, Map.of("field", field, "reason", "not_found"));
    }
}

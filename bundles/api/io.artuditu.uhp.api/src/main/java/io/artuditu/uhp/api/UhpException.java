package io.artuditu.uhp.api;

import java.util.Map;
import java.util.Objects;

/**
 * The one exception a handler throws to answer with a structured error. The dispatcher
 * turns it into {@code {"id":…,"error":{"code":…,"message":…,"details":…}}}. Any other
 * exception a handler throws becomes {@link ErrorCode#INTERNAL_ERROR}.
 *
 * <p>The message is sent to the client: it must not contain secrets or stack traces.
 */
public class UhpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;
    private final Map<String, Object> details;

    public UhpException(ErrorCode code, String message) {
        this(code, message, Map.of());
    }

    public UhpException(ErrorCode code, String message, Map<String, Object> details) {
        super(message, null, false, false);
        this.code = Objects.requireNonNull(code);
        this.details = Map.copyOf(details);
    }

    public static UhpException invalid(String message) {
        return new UhpException(ErrorCode.INVALID_REQUEST, message);
    }

    public static UhpException notFound(String message) {
        return new UhpException(ErrorCode.NOT_FOUND, message);
    }

    public ErrorCode code() {
        return code;
    }

    /** Machine-readable details (for example the offending field); may be empty. */
    public Map<String, Object> details() {
        return details;
    }
}

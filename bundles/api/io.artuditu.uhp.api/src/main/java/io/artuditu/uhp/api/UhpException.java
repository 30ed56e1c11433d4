package io.artuditu.uhp.api;

import java.util.LinkedHashMap;
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

    /**
     * {@code invalid_request} about one parameter: details {@code {"field": field, "reason": reason}}.
     *
     * @param field  the param at fault, as the request spells it
     * @param reason a snake_case word a client can match on ({@code missing}, {@code too_long}, …)
     */
    public static UhpException invalid(String field, String reason, String message) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", field);
        d.put("reason", reason);
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }

    /**
     * The one way to say an addressed object does not exist. Details always have one shape:
     * {@code {"kind": kind, "id": id, "field": field, <field>: id, "reason": "not_found"}} —
     * what was looked for, the id the request gave and, under the param's own name, what was
     * asked (without the ids when the request named none, for example "there is no focused
     * pane") — then whatever {@code evidence} adds (what is known of it: an exit status, a state).
     *
     * @param kind     what was looked for: {@code workspace}, {@code tab}, {@code pane},
     *                 {@code terminal}, {@code agent}, {@code token}, …
     * @param id       the id or name the request gave, or null when it gave none
     * @param field    the param that named it (or would have), or null when no param did
     * @param evidence further details, in order; they never replace the four above
     */
    public static UhpException notFound(String kind, String id, String field, String message,
            Map<String, ?> evidence) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("kind", Objects.requireNonNull(kind, "kind"));
        if (id != null) {
            d.put("id", id);
        }
        if (field != null) {
            d.put("field", field);
            if (id != null && !"kind".equals(field) && !"id".equals(field)) {
                d.put(field, id); // what was asked, as the request spelled it
            }
        }
        d.put("reason", "not_found");
        evidence.forEach(d::putIfAbsent);
        return new UhpException(ErrorCode.NOT_FOUND, message, d);
    }

    /** {@link #notFound(String, String, String, String, Map)} without evidence. */
    public static UhpException notFound(String kind, String id, String field, String message) {
        return notFound(kind, id, field, message, Map.of());
    }

    /**
     * @deprecated says nothing of what was looked for; use
     *     {@link #notFound(String, String, String, String)}
     */
    @Deprecated
    public static UhpException notFound(String message) {
        return notFound("object", null, null, message);
    }

    public ErrorCode code() {
        return code;
    }

    /** Machine-readable details (for example the offending field); may be empty. */
    public Map<String, Object> details() {
        return details;
    }
}

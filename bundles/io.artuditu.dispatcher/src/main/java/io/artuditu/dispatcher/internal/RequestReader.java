package io.artuditu.dispatcher.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Set;

/**
 * Turns one request line into a {@link Request} or a precise {@code invalid_request}.
 * Checks the envelope whole (UTF-8, one JSON object, id, method, params, auth,
 * if_revision, no other fields) before anything is routed. {@code if_revision} is accepted
 * at the top level and inside {@code params}: both given must be equal, and the one in
 * params is removed from them. Thread safe.
 */
final class RequestReader {
    /** JSON nesting deeper than this is refused before it can cost stack or memory. */
    static final int MAX_NESTING = 64;
    private static final Set<String> ENVELOPE = Set.of("id", "method", "params", "auth", "if_revision");

    /**
     * A request whose envelope is valid. {@code ifRevision} is null when the request has none
     * (neither at the top level nor in params); {@code params} never holds it.
     */
    record Request(String id, String method, ObjectNode params, String auth, Long ifRevision) {
    }

    /** Thrown with the id when it could be read, so the error reply echoes it. */
    static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        final String id;
        final transient UhpException error;

        Rejected(String id, UhpException error) {
            super(error.getMessage(), null, false, false);
            this.id = id;
            this.error = error;
        }
    }

    private final ObjectMapper mapper;

    RequestReader() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING)
                        .maxStringLength(Limits.MAX_REQUEST_BYTES)
                        .build())
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        this.mapper = new ObjectMapper(factory)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
    }

    ObjectMapper mapper() {
        return mapper;
    }

    Request read(byte[] buf, int off, int len) throws Rejected {
        if (len > Limits.MAX_REQUEST_BYTES) {
            throw new Rejected(null, new UhpException(ErrorCode.REQUEST_TOO_LARGE,
                    "request is " + len + " bytes; the limit is " + Limits.MAX_REQUEST_BYTES));
        }
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buf, off, len));
        } catch (CharacterCodingException e) {
            throw new Rejected(null, UhpException.invalid("request is not valid UTF-8"));
        }
        JsonNode root;
        try {
            root = mapper.readTree(buf, off, len);
        } catch (IOException e) {
            throw new Rejected(null, UhpException.invalid("request is not valid JSON: " + firstLine(e.getMessage())));
        }
        if (root == null || root.isMissingNode() || !root.isObject()) {
            throw new Rejected(null, UhpException.invalid("request must be a JSON object"));
        }
        JsonNode idNode = root.get("id");
        String id = idNode != null && idNode.isTextual() ? idNode.textValue() : null;
        if (id == null) {
            throw new Rejected(null, UhpException.invalid("id must be a string"));
        }
        if (id.isEmpty() || id.length() > Limits.MAX_ID_BYTES) {
            throw new Rejected(null, UhpException.invalid("id must be 1 to " + Limits.MAX_ID_BYTES + " characters"));
        }
        JsonNode methodNode = root.get("method");
        if (methodNode == null || !methodNode.isTextual() || methodNode.textValue().isEmpty()
                || methodNode.textValue().length() > Limits.MAX_ID_BYTES) {
            throw new Rejected(id, UhpException.invalid("method must be a non-empty string"));
        }
        JsonNode params = root.get("params");
        if (params != null && !params.isObject()) {
            throw new Rejected(id, UhpException.invalid("params must be an object"));
        }
        JsonNode auth = root.get("auth");
        if (auth != null && !auth.isTextual()) {
            throw new Rejected(id, UhpException.invalid("auth must be a string"));
        }
        Long envelopeRevision = revision(id, root.get("if_revision"), "if_revision");
        // if_revision may also travel inside params; it is taken out here, so no params
        // schema ever sees it (none declares it) and no handler reads it.
        Long paramsRevision = params == null ? null
                : revision(id, ((ObjectNode) params).remove("if_revision"), "params.if_revision");
        if (envelopeRevision != null && paramsRevision != null && !envelopeRevision.equals(paramsRevision)) {
            throw new Rejected(id, new UhpException(ErrorCode.INVALID_REQUEST, "if_revision " + envelopeRevision
                    + " and params.if_revision " + paramsRevision + " differ; give one, or both equal",
                    java.util.Map.of("field", "if_revision", "reason", "mismatch")));
        }
        Long ifRevision = envelopeRevision != null ? envelopeRevision : paramsRevision;
        for (Iterator<String> it = root.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!ENVELOPE.contains(f)) {
                throw new Rejected(id, new UhpException(ErrorCode.INVALID_REQUEST,
                        "unknown request field '" + clip(f) + "'", java.util.Map.of("field", clip(f))));
            }
        }
        return new Request(id, methodNode.textValue(), params == null ? mapper.createObjectNode() : (ObjectNode) params,
                auth == null ? null : auth.textValue(), ifRevision);
    }

    /** An {@code if_revision} value (null when absent); anything but an integer >= 0 is refused, naming {@code where}. */
    private static Long revision(String id, JsonNode value, String where) throws Rejected {
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            throw new Rejected(id, new UhpException(ErrorCode.INVALID_REQUEST, where + " must be an integer >= 0",
                    java.util.Map.of("field", "if_revision", "reason", "type")));
        }
        return value.longValue();
    }

    private static String clip(String s) {
        return s.length() > 64 ? s.substring(0, 64) + "…" : s;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) : line;
    }
}

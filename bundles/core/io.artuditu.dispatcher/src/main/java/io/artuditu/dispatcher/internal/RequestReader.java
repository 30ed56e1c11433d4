package io.artuditu.dispatcher.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/**
 * Turns one request line into a {@link Request} or a precise {@code invalid_request}.
 * Checks the envelope whole (UTF-8, one JSON object, id, method, params, auth,
 * if_revision, no other fields, every number in range) before anything is routed.
 * {@code if_revision} is accepted at the top level and inside {@code params}: both given
 * must be equal, and the one in params is removed from them. Numbers are read as
 * {@link Numbers} says, so a handler never meets one it cannot read. Thread safe.
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

    /** Thrown by {@link #open} for bytes that are not UTF-8 JSON; the message says why. */
    static final class NotUtf8 extends IOException {
        private static final long serialVersionUID = 1L;

        NotUtf8(String message) {
            super(message);
        }
    }

    /** The first number out of range in a request: where, what was written, and why. */
    private static final class Problem {
        String path;
        String text;
        String why;

        void note(JsonParser p, Numbers.OutOfRange e) throws IOException {
            if (path == null) {
                path = Numbers.path(p.getParsingContext());
                text = p.getText();
                why = e.getMessage();
            }
        }
    }

    private final JsonFactory factory;
    private final ObjectMapper mapper;

    RequestReader() {
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING)
                        .maxStringLength(Limits.MAX_REQUEST_BYTES)
                        .build())
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        this.mapper = new ObjectMapper(factory);
    }

    ObjectMapper mapper() {
        return mapper;
    }

    /**
     * Reads a request line: {@link #readPlain} answers a well-formed request without building
     * a tree of the envelope; anything it does not take (any error, and the rarer shapes) is
     * read again as a tree here, which gives every error its message.
     */
    Request read(byte[] buf, int off, int len) throws Rejected {
        if (len > Limits.MAX_REQUEST_BYTES) {
            throw new Rejected(null, new UhpException(ErrorCode.REQUEST_TOO_LARGE,
                    "request is " + len + " bytes; the limit is " + Limits.MAX_REQUEST_BYTES));
        }
        String foreign = foreignEncoding(buf, off, len);
        if (foreign != null) {
            throw notUtf8(foreign);
        }
        int bad = invalidUtf8At(buf, off, len);
        if (bad >= 0) {
            throw notUtf8("byte " + (bad - off) + " is not valid UTF-8");
        }
        Request plain = readPlain(buf, off, len);
        return plain != null ? plain : readTree(buf, off, len);
    }

    private static Rejected notUtf8(String why) {
        return new Rejected(null, new UhpException(ErrorCode.INVALID_REQUEST, "request is not UTF-8 JSON: " + why,
                java.util.Map.of("reason", "not_utf8")));
    }

    /**
     * Why the line is text in another encoding than UTF-8, or null. Jackson chooses a
     * parser's encoding from the first four bytes: a byte order mark, or the NUL bytes that
     * UTF-16 and UTF-32 put around every ASCII character ({@code {"} is {@code 7B 00 22 00} in
     * UTF-16LE). Without either it reads UTF-8. UTF-8 JSON never holds a NUL byte (a string
     * must escape it) and UHP takes no byte order mark, so refusing both loses nothing and
     * leaves Jackson nothing to guess.
     */
    static String foreignEncoding(byte[] buf, int off, int len) {
        if (len >= 3 && (buf[off] & 0xff) == 0xef && (buf[off + 1] & 0xff) == 0xbb && (buf[off + 2] & 0xff) == 0xbf) {
            return "it starts with a UTF-8 byte order mark; send UTF-8 without one";
        }
        if (len >= 2 && ((buf[off] & 0xff) == 0xfe && (buf[off + 1] & 0xff) == 0xff
                || (buf[off] & 0xff) == 0xff && (buf[off + 1] & 0xff) == 0xfe)) {
            return "it starts with a UTF-16 or UTF-32 byte order mark; send UTF-8";
        }
        for (int i = off; i < off + Math.min(len, 4); i++) {
            if (buf[i] == 0) {
                return "it holds NUL bytes, as UTF-16 and UTF-32 text does; send UTF-8";
            }
        }
        return null;
    }

    /**
     * The one place request bytes become a parser: bytes in another encoding are refused
     * ({@link #foreignEncoding}), so every parser made here reads UTF-8.
     */
    private JsonParser open(byte[] buf, int off, int len) throws IOException {
        String foreign = foreignEncoding(buf, off, len);
        if (foreign != null) {
            throw new NotUtf8(foreign);
        }
        return factory.createParser(buf, off, len);
    }

    /**
     * The value at the parser's current token, built whole. Numbers are read by
     * {@link Numbers}; the first out of range is noted in {@code problem} and stands as
     * null in the tree, so the envelope is still read (and the refusal echoes the id).
     */
    private JsonNode value(JsonParser p, Problem problem) throws IOException {
        JsonNodeFactory nodes = mapper.getNodeFactory();
        switch (p.currentToken()) {
            case START_OBJECT: {
                ObjectNode o = nodes.objectNode();
                String name;
                while ((name = p.nextFieldName()) != null) {
                    p.nextToken();
                    o.set(name, value(p, problem));
                }
                return o;
            }
            case START_ARRAY: {
                ArrayNode a = nodes.arrayNode();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    a.add(value(p, problem));
                }
                return a;
            }
            case VALUE_STRING:
                return nodes.textNode(p.getText());
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                try {
                    return Numbers.read(p);
                } catch (Numbers.OutOfRange e) {
                    problem.note(p, e);
                    return nodes.nullNode();
                }
            case VALUE_TRUE:
                return nodes.booleanNode(true);
            case VALUE_FALSE:
                return nodes.booleanNode(false);
            case VALUE_NULL:
                return nodes.nullNode();
            default:
                throw new IOException("unexpected " + p.currentToken());
        }
    }

    /** The envelope read as a tree, then checked; any error gets its precise message here. */
    Request readTree(byte[] buf, int off, int len) throws Rejected {
        JsonNode root;
        Problem problem = new Problem();
        try (JsonParser p = open(buf, off, len)) {
            root = p.nextToken() == null ? null : value(p, problem);
            if (root != null && p.nextToken() != null) {
                throw new Rejected(null, UhpException.invalid("request is not valid JSON: more follows the "
                        + (root.isObject() ? "object" : "value") + " (column " + p.currentLocation().getColumnNr() + ")"));
            }
        } catch (NotUtf8 e) {
            throw notUtf8(e.getMessage());
        } catch (IOException e) {
            throw new Rejected(null, UhpException.invalid("request is not valid JSON: " + firstLine(e.getMessage())));
        }
        if (root == null || !root.isObject()) {
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
        if (problem.path != null) {
            String field = problem.path.substring(problem.path.lastIndexOf('.') + 1);
            throw new Rejected(id, new UhpException(ErrorCode.INVALID_REQUEST, problem.path + ": " + clip(problem.text)
                    + " is out of range: " + problem.why,
                    java.util.Map.of("field", field, "path", problem.path, "reason", "out_of_range")));
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

    /**
     * The envelope of a well-formed request, read as a stream of tokens: strings for id,
     * method and auth, an object for params (every number in it in range), a non-negative
     * int or long for if_revision, no other field, nothing after the object. Returns null
     * for anything else (then {@link #read} reads the tree and names the error), so what
     * this accepts is exactly what the tree reading accepts, with the same {@link Request}.
     */
    Request readPlain(byte[] buf, int off, int len) {
        String id = null;
        String method = null;
        String auth = null;
        ObjectNode params = null;
        Long ifRevision = null;
        Problem problem = new Problem();
        try (JsonParser p = open(buf, off, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "id":
                        if (v != JsonToken.VALUE_STRING) {
                            return null;
                        }
                        id = p.getText();
                        break;
                    case "method":
                        if (v != JsonToken.VALUE_STRING) {
                            return null;
                        }
                        method = p.getText();
                        break;
                    case "auth":
                        if (v != JsonToken.VALUE_STRING) {
                            return null;
                        }
                        auth = p.getText();
                        break;
                    case "if_revision":
                        if (v != JsonToken.VALUE_NUMBER_INT || (p.getNumberType() != JsonParser.NumberType.INT
                                && p.getNumberType() != JsonParser.NumberType.LONG) || p.getLongValue() < 0) {
                            return null;
                        }
                        ifRevision = p.getLongValue();
                        break;
                    case "params":
                        if (v != JsonToken.START_OBJECT) {
                            return null;
                        }
                        JsonNode tree = value(p, problem);
                        if (problem.path != null || tree.has("if_revision")) {
                            return null;
                        }
                        params = (ObjectNode) tree;
                        break;
                    default:
                        return null;
                }
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (id == null || id.isEmpty() || id.length() > Limits.MAX_ID_BYTES
                || method == null || method.isEmpty() || method.length() > Limits.MAX_ID_BYTES) {
            return null;
        }
        return new Request(id, method, params == null ? mapper.createObjectNode() : params, auth, ifRevision);
    }

    /** Whether {@code buf[off, off+len)} is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF). */
    static boolean validUtf8(byte[] buf, int off, int len) {
        return invalidUtf8At(buf, off, len) < 0;
    }

    /** The index of the first byte of {@code buf[off, off+len)} that breaks UTF-8, or -1 when there is none. */
    static int invalidUtf8At(byte[] buf, int off, int len) {
        int i = off;
        int end = off + len;
        while (i < end) {
            int b = buf[i];
            if (b >= 0) {
                i++;
                continue;
            }
            b &= 0xff;
            int need;
            int min;
            if (b >= 0xc2 && b <= 0xdf) {
                need = 1;
                min = 0x80;
            } else if (b >= 0xe0 && b <= 0xef) {
                need = 2;
                min = 0x800;
            } else if (b >= 0xf0 && b <= 0xf4) {
                need = 3;
                min = 0x10000;
            } else {
                return i;
            }
            if (end - i <= need) {
                return i;
            }
            int cp = b & (0x3f >> need);
            for (int k = 1; k <= need; k++) {
                int c = buf[i + k] & 0xff;
                if ((c & 0xc0) != 0x80) {
                    return i;
                }
                cp = (cp << 6) | (c & 0x3f);
            }
            if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                return i;
            }
            i += need + 1;
        }
        return -1;
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

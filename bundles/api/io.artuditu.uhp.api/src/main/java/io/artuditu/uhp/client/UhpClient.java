package io.artuditu.uhp.client;

import io.artuditu.uhp.api.home.SocketLocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A client of one server's Unix socket. UHP serves one request per connection:
 * {@link #call} connects, writes the request line, reads the one reply line and closes;
 * {@link #open} sends a request whose reply is followed by a stream of lines
 * ({@code events.subscribe}, {@code attach.pane}, the terminal streams) and hands back the
 * open {@link UhpConnection}.
 *
 * <p>Lines are raw UTF-8 JSON text without their newline: this class builds the request
 * envelope ({@link #request}) from params the caller wrote, and never parses a reply, so it
 * costs no JSON library. What went wrong on the way is a {@link UhpClientException}; an error
 * the server answered is a reply line like any other.
 *
 * <p>Bounds: every line read is at most {@link #maxLineBytes()} bytes (default
 * {@value #DEFAULT_MAX_LINE_BYTES}, room for a full frame of the largest pane), a longer one
 * is refused with {@link UhpClientException.TooLong} and its connection closed. Without
 * timeouts (the default) a call waits as long as the server takes, on plain blocking I/O (the
 * CLI's fast path); with {@link #withTimeouts} the connect, and each request with its reply,
 * are bounded.
 *
 * <p>Threading: immutable; one client may serve any number of threads, each call on its own
 * connection. Trust: it connects to a path and trusts what it reads only as far as the bounds;
 * the server checks that the peer is its own user.
 */
public final class UhpClient {
    /** The longest line read unless {@link #withMaxLineBytes} says otherwise: 64 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;

    private final Path socket;
    private final Path shown;
    private final SocketLocation location;
    private final String token;
    private final long connectMillis;
    private final long replyMillis;
    private final int maxLineBytes;

    private UhpClient(Path socket, Path shown, SocketLocation location, String token, long connectMillis, long replyMillis,
            int maxLineBytes) {
        this.socket = socket;
        this.shown = shown;
        this.location = location;
        this.token = token;
        this.connectMillis = connectMillis;
        this.replyMillis = replyMillis;
        this.maxLineBytes = maxLineBytes;
    }

    /** A client of the server at {@code location}: it connects to the bind path and names the logical one in messages. */
    public static UhpClient of(SocketLocation location) {
        return new UhpClient(location.bind(), location.logical(), location, null, 0, 0, DEFAULT_MAX_LINE_BYTES);
    }

    /** A client of the socket bound at {@code socket} exactly (a test's or a benchmark's server). */
    public static UhpClient of(Path socket) {
        Objects.requireNonNull(socket);
        return new UhpClient(socket, socket, null, null, 0, 0, DEFAULT_MAX_LINE_BYTES);
    }

    /** This client with every request carrying {@code token} as {@code auth}; null or empty for none. */
    public UhpClient withToken(String token) {
        String t = token == null || token.isEmpty() ? null : token;
        return new UhpClient(socket, shown, location, t, connectMillis, replyMillis, maxLineBytes);
    }

    /**
     * This client with bounded waits ({@code 0}: unbounded): the connection accepted within
     * {@code connectMillis} ({@link UhpClientException.Unreachable} otherwise; a server whose
     * queue of pending connections is full is unreachable at once, where an unbounded connect
     * would wait for room); a request written and its reply line read within
     * {@code replyMillis}, and on an open {@link UhpConnection} each line read within it
     * ({@link UhpClientException.TimedOut}).
     */
    public UhpClient withTimeouts(long connectMillis, long replyMillis) {
        if (connectMillis < 0 || replyMillis < 0) {
            throw new IllegalArgumentException("timeouts are 0 (none) or positive");
        }
        return new UhpClient(socket, shown, location, token, connectMillis, replyMillis, maxLineBytes);
    }

    /** This client with every line it reads bounded at {@code max} bytes (without the newline). */
    public UhpClient withMaxLineBytes(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("the line bound is positive");
        }
        return new UhpClient(socket, shown, location, token, connectMillis, replyMillis, max);
    }

    /** Where the server is, when the client was made from a {@link SocketLocation}; else null. */
    public SocketLocation location() {
        return location;
    }

    /** The path connected to (the bind path, which may be a short alias of the logical one). */
    public Path socket() {
        return socket;
    }

    /** The token every request carries as {@code auth}, or null. */
    public String token() {
        return token;
    }

    public int maxLineBytes() {
        return maxLineBytes;
    }

    long connectMillis() {
        return connectMillis;
    }

    long replyMillis() {
        return replyMillis;
    }

    /** The path messages name: the logical socket path. */
    Path shown() {
        return shown;
    }

    /**
     * The request line, without its newline:
     * {@code {"id":"1","method":METHOD,"auth":TOKEN,"params":PARAMS}} ({@code auth} only with
     * a token). {@code paramsJson} is a JSON object's text, sent as it is. The id is always
     * {@code "1"}: an id only has to tell a connection's requests apart, and a connection
     * carries one.
     */
    public String request(String method, String paramsJson) {
        StringBuilder b = new StringBuilder(48 + method.length() + paramsJson.length());
        b.append("{\"id\":\"1\",\"method\":");
        quote(b, method);
        if (token != null) {
            b.append(",\"auth\":");
            quote(b, token);
        }
        return b.append(",\"params\":").append(paramsJson).append('}').toString();
    }

    /**
     * One request on its own connection: the reply line without its newline, whether a
     * result or an error.
     *
     * @throws UhpClientException.Unreachable when no server accepts the connection
     * @throws UhpClientException.ClosedEarly when the server closes without a whole reply
     * @throws UhpClientException.TooLong when the reply is longer than {@link #maxLineBytes()}
     * @throws UhpClientException.TimedOut past the reply timeout
     * @throws IOException when the connection fails otherwise
     */
    public String call(String method, String paramsJson) throws IOException {
        return exchange(request(method, paramsJson), method);
    }

    /** As {@link #call}, for a request line the caller wrote whole (a newline is added when it has none). */
    public String exchange(String requestLine) throws IOException {
        return exchange(requestLine, "the request");
    }

    private String exchange(String line, String what) throws IOException {
        try (UhpConnection c = UhpConnection.connect(this)) {
            long deadline = c.deadline();
            c.write(lineBytes(line), deadline, what);
            String reply = c.readLine(deadline, what);
            if (reply == null) {
                throw new UhpClientException.ClosedEarly("the server closed the connection without a reply");
            }
            return reply;
        }
    }

    /**
     * Sends a request that opens a stream and returns its connection: the first line read is
     * the request's reply, then whatever the stream sends, until the server ends it.
     */
    public UhpConnection open(String method, String paramsJson) throws IOException {
        UhpConnection c = UhpConnection.connect(this);
        try {
            c.send(request(method, paramsJson));
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** A connection with nothing sent yet: the caller writes every byte ({@link UhpConnection#sendBytes}). */
    public UhpConnection connect() throws IOException {
        return UhpConnection.connect(this);
    }

    static byte[] lineBytes(String line) {
        byte[] text = line.getBytes(StandardCharsets.UTF_8);
        if (text.length > 0 && text[text.length - 1] == '\n') {
            return text;
        }
        byte[] all = new byte[text.length + 1];
        System.arraycopy(text, 0, all, 0, text.length);
        all[text.length] = '\n';
        return all;
    }

    /** Appends {@code s} as a JSON string literal. */
    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }
}

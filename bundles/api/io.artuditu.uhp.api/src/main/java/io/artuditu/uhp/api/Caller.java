package io.artuditu.uhp.api;

/**
 * Who sent a request, as the transport established it before reading the request.
 *
 * @param connection server-unique connection number, for logs
 * @param uid        peer user id from the socket's peer credentials, or -1 for an
 *                   in-process caller
 * @param pid        peer process id, or -1 when unknown
 */
public record Caller(long connection, long uid, long pid) {
    /** A caller inside the server process (tests, benchmarks, internal routing). */
    public static Caller inProcess() {
        return new Caller(0, -1, -1);
    }
}

package io.artuditu.it;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real server for all tests of a class (starting one costs about a second), a folder
 * for the panes to work in, and the check after every test that the server still answers.
 */
abstract class OneServerPerClass {
    @TempDir
    static Path home;
    @TempDir
    static Path work;
    static ForegroundServer server;
    static Path sock;

    @BeforeAll
    static void startServer() throws Exception {
        server = new ForegroundServer(home);
        sock = server.socket;
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @AfterEach
    void stillServing() throws Exception {
        Terms.ping(sock);
    }
}

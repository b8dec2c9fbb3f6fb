package dev.ordo.server;

import dev.ordo.engine.config.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fresh in-process server on a free loopback port for each test, and a bystander client
 * connected throughout: after every test it must still get answers, whatever the test did to
 * its own connections.
 */
abstract class ServerTestSupport {
    protected Ordo ordo;
    protected int port;
    protected RawClient bystander;
    private final List<RawClient> clients = new ArrayList<>();

    /** Adjusts the configuration before the server starts. */
    protected void configure(Config config) {
    }

    @BeforeEach
    void startServer() throws IOException {
        Config config = new Config();
        configure(config);
        ordo = Ordo.embedded(config);
        port = ordo.openPort(0);
        bystander = new RawClient(port);
        if (!config.get("requirepass").isEmpty()) {
            assertThat(bystander.call("AUTH", config.get("requirepass"))).isEqualTo("+OK\r\n");
        }
        assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
    }

    @AfterEach
    void bystanderStillServedThenStop() throws IOException {
        try {
            assertThat(bystander.call("ECHO", "still here")).isEqualTo("$10\r\nstill here\r\n");
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            bystander.close();
            ordo.close();
        }
    }

    /** A new raw connection, closed after the test. */
    protected RawClient connect() throws IOException {
        RawClient c = new RawClient(port);
        clients.add(c);
        return c;
    }

    /** Waits up to five seconds for {@code condition}. */
    protected static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}

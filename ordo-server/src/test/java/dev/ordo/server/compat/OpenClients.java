package dev.ordo.server.compat;

import dev.ordo.server.RawClient;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The raw connections a test opened, closed after each test. Registered with
 * {@code @RegisterExtension final OpenClients clients = new OpenClients();}.
 */
final class OpenClients implements AfterEachCallback {
    private final List<RawClient> opened = new ArrayList<>();

    /** A new connection to {@code port}, closed after the test. */
    RawClient open(int port) throws IOException {
        RawClient c = new RawClient(port);
        opened.add(c);
        return c;
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        for (RawClient c : opened) {
            c.close();
        }
        opened.clear();
    }
}

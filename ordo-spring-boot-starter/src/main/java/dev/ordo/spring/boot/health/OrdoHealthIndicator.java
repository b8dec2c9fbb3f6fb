package dev.ordo.spring.boot.health;

import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.spring.boot.EmbeddedOrdo;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Ordo's health, as the {@code ordo} contributor: UP when the store answers PING within the
 * timeout (and, with a data directory, that directory is writable), DOWN otherwise. Details: the
 * mode, the Redis version the server reports, and in embedded mode the port and data directory.
 */
public final class OrdoHealthIndicator extends AbstractHealthIndicator {
    private final Store store;
    private final String mode;
    private final EmbeddedOrdo embedded;
    private final Duration timeout;

    /**
     * An indicator that asks {@code store}.
     *
     * @param store    the store of the active mode
     * @param mode     the active mode, reported as is
     * @param embedded the in-process Ordo in embedded mode, else null
     * @param timeout  how long PING may take before the store counts as not answering
     */
    public OrdoHealthIndicator(Store store, String mode, EmbeddedOrdo embedded, Duration timeout) {
        super("Ordo health check failed");
        this.store = store;
        this.mode = mode;
        this.embedded = embedded;
        this.timeout = timeout;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        builder.withDetail("mode", mode);
        boolean up = true;
        if (embedded != null) {
            builder.withDetail("port", embedded.port());
            Optional<Path> dataDir = embedded.dataDir();
            if (dataDir.isPresent()) {
                boolean writable = Files.isWritable(dataDir.get());
                builder.withDetail("dataDir", dataDir.get().toString()).withDetail("dataDirWritable", writable);
                up = writable;
            }
        }
        Reply pong = call(StoreCommand.of("PING"));
        if (!(pong instanceof Reply.Bulk bulk) || !bulk.value().equals("PONG")) {
            throw new IllegalStateException("PING answered " + pong);
        }
        if (call(StoreCommand.of("INFO").arg("server")) instanceof Reply.Bulk info) {
            info.value().lines().filter(line -> line.startsWith("redis_version:")).findFirst()
                    .ifPresent(line -> builder.withDetail("version", line.substring(line.indexOf(':') + 1).trim()));
        }
        if (up) {
            builder.up();
        } else {
            builder.down();
        }
    }

    private Reply call(StoreCommand command) throws Exception {
        return store.callAsync(command).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}

package dev.ordo.spring.boot;

import dev.ordo.engine.config.Config;
import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.server.Ordo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The Ordo this application runs in-process in embedded mode: the engine, serving RESP on a
 * loopback port that Spring Data Redis is pointed at. The application context closes it, which
 * closes the port and stops every thread it started.
 */
public final class EmbeddedOrdo implements AutoCloseable {
    private final Ordo ordo;
    private final int port;
    private final Path dataDir;
    private final String password;

    private EmbeddedOrdo(Ordo ordo, int port, Path dataDir, String password) {
        this.ordo = ordo;
        this.port = port;
        this.dataDir = dataDir;
        this.password = password;
    }

    /**
     * Starts an Ordo with {@code settings} and opens its port.
     *
     * @param settings the port, data directory and server settings
     * @return the running Ordo
     * @throws UncheckedIOException when the data directory cannot be created or its data read
     * @throws IllegalStateException when the port cannot be opened
     */
    public static EmbeddedOrdo start(OrdoProperties.Embedded settings) {
        Config config = new Config();
        for (Map.Entry<String, String> setting : settings.config().entrySet()) {
            config.set(setting.getKey(), setting.getValue(), true);
        }
        Ordo ordo;
        Path dataDir = settings.dataDir() == null ? null : settings.dataDir().toAbsolutePath();
        try {
            if (dataDir == null) {
                ordo = Ordo.embedded(config);
            } else {
                Files.createDirectories(dataDir);
                config.set("dir", dataDir.toString(), true);
                config.set("appendonly", "yes", true);
                ordo = Ordo.open(config);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Ordo could not open its data in " + dataDir, e);
        }
        try {
            int port = ordo.openPort(settings.port());
            String password = config.get("requirepass");
            return new EmbeddedOrdo(ordo, port, dataDir, password == null || password.isEmpty() ? null : password);
        } catch (RuntimeException e) {
            ordo.close();
            throw new IllegalStateException("Ordo could not open ordo.embedded.port " + settings.port()
                    + (settings.port() == 0 ? "" : " (another process may hold it; 0 picks a free port)") + ": " + e.getMessage(), e);
        }
    }

    /**
     * The port Ordo serves RESP on, at its {@code bind} address (127.0.0.1 unless configured).
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * The address clients reach the port at: the first {@code bind} address, or 127.0.0.1 when that is a wildcard.
     *
     * @return a host name or address
     */
    public String host() {
        String bind = ordo.engine().config().get("bind").trim().split("\\s+")[0].replace("-", "");
        return bind.equals("*") || bind.equals("0.0.0.0") || bind.equals("::") || bind.isEmpty() ? "127.0.0.1" : bind;
    }

    /**
     * The password clients give ({@code requirepass}), if one is set.
     *
     * @return the password, or empty
     */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /**
     * Where Ordo keeps its data (append-only file on), if it keeps any.
     *
     * @return the absolute data directory, or empty when the data is in memory only
     */
    public Optional<Path> dataDir() {
        return Optional.ofNullable(dataDir);
    }

    /**
     * The server itself, for what this class does not cover (its engine, its in-process client).
     *
     * @return the server
     */
    public Ordo ordo() {
        return ordo;
    }

    /** Deletes every key in every database, as FLUSHALL does. */
    public void flushAll() {
        try (EmbeddedStore store = EmbeddedStore.on(ordo.engine())) {
            store.call(StoreCommand.of("FLUSHALL"));
        }
    }

    /** Closes the port and the engine and stops Ordo's threads; saves a snapshot when there is a data directory. */
    @Override
    public void close() {
        ordo.close();
    }
}

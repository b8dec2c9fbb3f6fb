package dev.ordo.engine.version;

/**
 * The Redis release whose observable behaviour Ordo reproduces. INFO's {@code redis_version},
 * HELLO's {@code version}, Lua's {@code redis.REDIS_VERSION} and the server's {@code --version}
 * report it; clients read it to decide which commands and arguments they may send.
 */
public final class RedisVersion {
    /** The emulated Redis version, {@code major.minor.patch}. */
    public static final String EMULATED = "7.2.4";

    private RedisVersion() {
    }
}

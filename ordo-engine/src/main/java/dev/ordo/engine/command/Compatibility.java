package dev.ordo.engine.command;

/** The Redis release whose observable behaviour Ordo reproduces (INFO, HELLO, Lua's redis.REDIS_VERSION). */
public final class Compatibility {
    public static final String REDIS_VERSION = "7.2.4";

    private Compatibility() {
    }
}

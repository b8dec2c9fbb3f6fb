package dev.ordo.engine.command;

/**
 * Sees every command that runs (MONITOR), in Redis 7.2's order: a command right after it ran,
 * nested ones included (a transaction's at EXEC, a script's redis.call, on the script's own
 * session); EVAL, EVALSHA and FCALL before the commands of their script; EXEC refused before it
 * ran as well. Never admin or skip_monitor commands, nor commands refused before running. Called
 * under the engine lock, in execution order.
 */
@FunctionalInterface
public interface CommandObserver {
    /**
     * {@code session} ran {@code args}; its database is the one after the command.
     *
     * @param session the client that ran the command
     * @param args the command and its arguments
     */
    void executed(Session session, byte[][] args);
}

package dev.ordo.engine.command;

/**
 * The clients waiting in blocking commands, as INFO's clients section reports them: how many
 * ({@code blocked_clients}), how many distinct keys they wait on ({@code total_blocking_keys}) and
 * how many of them have a timeout ({@code clients_in_timeout_table}).
 */
public record BlockedClients(int clients, int keys, int withTimeout) {
    /** Nobody waiting. */
    public static final BlockedClients NONE = new BlockedClients(0, 0, 0);
}

package dev.ordo.engine.command;

/**
 * What a network transport has counted since it started or since CONFIG RESETSTAT, as INFO's
 * stats section reports it: connections admitted ({@code total_connections_received}) and refused
 * over {@code maxclients} ({@code rejected_connections}), bytes read from and handed to client
 * sockets, socket reads and writes, and clients closed for memory: by client eviction
 * ({@code evicted_clients}) and over the query and output buffer limits (Redis 7.4's
 * {@code client_query_buffer_limit_disconnections} and {@code client_output_buffer_limit_disconnections}).
 * Embedded clients carry no network bytes.
 */
public record TransportStats(long connectionsReceived, long rejectedConnections, long inputBytes, long outputBytes,
        long readsProcessed, long writesProcessed, long evictedClients, long queryBufferLimitDisconnections,
        long outputBufferLimitDisconnections) {
    /** An engine without a network server. */
    public static final TransportStats NONE = new TransportStats(0, 0, 0, 0, 0, 0, 0, 0, 0);
}

package dev.ordo.engine;

import java.util.Map;

/**
 * A read-only snapshot of the figures INFO reports that a monitoring system graphs: each
 * command's calls and time (INFO commandstats), the memory counted toward {@code maxmemory}
 * ({@code used_memory}), the keys in all databases and the connected clients. Every figure is read
 * at one instant, under the engine's lock, and copied: the snapshot never changes afterwards.
 * Counters run from the engine's start or the last CONFIG RESETSTAT, so they can go down once,
 * at a reset.
 *
 * @param commands         per command name as INFO commandstats names it ({@code zadd}, {@code
 *                         config|get}), the commands that ran or were refused since the last reset
 * @param usedMemory       bytes counted toward the memory limit (INFO's {@code used_memory})
 * @param keys             keys in all databases together
 * @param connectedClients clients connected now, in-process and over the network (INFO's {@code connected_clients})
 */
public record EngineStats(Map<String, CommandStats> commands, long usedMemory, long keys, int connectedClients) {
    /**
     * Copies {@code commands}, so the snapshot stays as it was taken.
     *
     * @param commands         per command name, the command's figures
     * @param usedMemory       bytes counted toward the memory limit
     * @param keys             keys in all databases together
     * @param connectedClients clients connected now
     */
    public EngineStats {
        commands = Map.copyOf(commands);
    }

    /**
     * One command's INFO commandstats figures.
     *
     * @param calls         calls that ran
     * @param micros        time spent in those calls, in microseconds
     * @param rejectedCalls calls refused before they ran (arity, ACL, out of memory ...)
     * @param failedCalls   calls that ran and answered an error
     */
    public record CommandStats(long calls, long micros, long rejectedCalls, long failedCalls) {
    }
}

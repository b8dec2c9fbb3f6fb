/**
 * The engine's face toward the network server that hosts it ({@link dev.ordo.engine.host.HostedEngine}).
 * Not API: exported to {@code dev.ordo.server} only. Embedders use {@code dev.ordo.engine.Engine}.
 */
package dev.ordo.engine.host;
